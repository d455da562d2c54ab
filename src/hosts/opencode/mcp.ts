import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HookInput } from '../../core/input.js';
import { mcpToolNamed } from '../tools.js';

/**
 * OpenCode 1.18.33 names an MCP server's tool `<server>_<tool>`, each part with every
 * character but letters, digits, `_` and `-` turned into `_` (read from its source), and
 * hands the plugin nothing else. Server and tool names both hold `_`, so the server is
 * the longest configured name (sanitised the same way) the tool starts with: the `mcp`
 * servers of `OPENCODE_CONFIG_CONTENT`, `OPENCODE_CONFIG`, the user's and the project's
 * `opencode.json`/`opencode.jsonc`; a name no configured server explains splits at its
 * first `_`. OpenCode's own tools, some of which hold `_` too, keep their names. Either
 * way the policy sees `mcp__<server>__<tool>`, as Claude Code names it.
 */
const OWN_TOOLS = new Set([
  'bash',
  'read',
  'write',
  'edit',
  'glob',
  'grep',
  'list',
  'webfetch',
  'websearch',
  'codesearch',
  'task',
  'todowrite',
  'todoread',
  'lsp',
  'skill',
  'batch',
  'question',
  'invalid',
  'apply_patch',
  'plan_enter',
  'plan_exit',
]);

const sanitised = (name: string): string => name.replace(/[^a-zA-Z0-9_-]/g, '_');

export function openCodeMcpTool(input: HookInput, env: NodeJS.ProcessEnv = process.env): HookInput {
  const name = input.tool_name;
  if (typeof name !== 'string' || OWN_TOOLS.has(name) || !name.includes('_')) return input;
  return mcpToolNamed(input, '_', configuredServers(typeof input.cwd === 'string' ? input.cwd : undefined, env).map(sanitised));
}

function configuredServers(cwd: string | undefined, env: NodeJS.ProcessEnv): string[] {
  const global = path.join(env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), '.config'), 'opencode');
  const folders = [global, ...(cwd ? [cwd, path.join(cwd, '.opencode')] : [])];
  const files = [
    ...(env.OPENCODE_CONFIG ? [env.OPENCODE_CONFIG] : []),
    ...folders.flatMap((f) => ['opencode.json', 'opencode.jsonc', 'config.json'].map((n) => path.join(f, n))),
  ];
  const texts = [...(env.OPENCODE_CONFIG_CONTENT ? [env.OPENCODE_CONFIG_CONTENT] : []), ...files.flatMap(readIfThere)];
  return texts.flatMap(serverNames);
}

function readIfThere(file: string): string[] {
  try {
    return [fs.readFileSync(file, 'utf8')];
  } catch {
    return [];
  }
}

/** The `mcp` server names of one config text (JSON with comments and trailing commas); none when unreadable. */
function serverNames(text: string): string[] {
  try {
    const config = JSON.parse(withoutComments(text)) as Record<string, unknown>;
    return config.mcp && typeof config.mcp === 'object' ? Object.keys(config.mcp) : [];
  } catch {
    return [];
  }
}

/** JSONC as JSON: comments outside strings and trailing commas removed. */
const withoutComments = (text: string): string =>
  text
    .replace(/("(?:\\.|[^"\\])*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_, string: string | undefined) => string ?? '')
    .replace(/,(\s*[}\]])/g, '$1');
