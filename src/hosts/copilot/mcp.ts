import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HookInput } from '../../core/input.js';
import { mcpToolNamed } from '../tools.js';

/**
 * Copilot CLI 1.0.102 names an MCP server's tool `<server>-<tool>` in its hooks (no field
 * names the server apart), and its own tools hold no `-`. The server is the longest name
 * configured that the tool starts with (`$COPILOT_HOME/mcp-config.json`, else
 * `~/.copilot/mcp-config.json`, the project's `.mcp.json` and `.vscode/mcp.json`, and the
 * built-in `github-mcp-server`); a name no configured server explains splits at its first
 * `-`. Either way the policy sees `mcp__<server>__<tool>`, as Claude Code names it.
 */
const BUILT_IN_SERVERS = ['github-mcp-server'];

export function copilotMcpTool(input: HookInput, env: NodeJS.ProcessEnv = process.env): HookInput {
  if (typeof input.tool_name !== 'string' || !input.tool_name.includes('-')) return input;
  return mcpToolNamed(input, '-', [...BUILT_IN_SERVERS, ...configuredServers(typeof input.cwd === 'string' ? input.cwd : undefined, env)]);
}

function configuredServers(cwd: string | undefined, env: NodeJS.ProcessEnv): string[] {
  const home = env.COPILOT_HOME || path.join(env.HOME || os.homedir(), '.copilot');
  const files: [string, string][] = [[path.join(home, 'mcp-config.json'), 'mcpServers']];
  if (cwd) files.push([path.join(cwd, '.mcp.json'), 'mcpServers'], [path.join(cwd, '.vscode', 'mcp.json'), 'servers']);
  return files.flatMap(([file, key]) => serverNames(file, key));
}

/** The server names of one MCP config file; none when it is absent or unreadable (the first-`-` split still applies). */
function serverNames(file: string, key: string): string[] {
  try {
    const servers = (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>)[key];
    return servers && typeof servers === 'object' ? Object.keys(servers) : [];
  } catch {
    return [];
  }
}
