import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { McpStdioServer } from '../handlers/mcp-tool.js';
import path from 'node:path';
import { specsFromHooksBlock } from './claude/specs.js';
import { ConfigError } from './errors.js';
import { parseJson } from './parse-json.js';
import { homeDir, projectDirFor } from './project-dir.js';
import type { ConfigSource, SettingsScope } from './source.js';

export interface ClaudeSourceOptions {
  /** The project's folder; CLAUDE_PROJECT_DIR when the file is not in a `.claude` folder. */
  cwd?: string;
}

/**
 * The MCP servers an `mcp_tool` hook may call: the settings file's `mcpServers`, then
 * the project's `.mcp.json` (Claude Code's project servers). Read on first use.
 */
export function mcpServersFor(own: Record<string, unknown> | undefined, projectDir: string): () => Record<string, McpStdioServer> {
  let servers: Record<string, McpStdioServer> | undefined;
  return () => {
    if (servers) return servers;
    let project: Record<string, unknown> = {};
    const file = path.join(projectDir, '.mcp.json');
    if (existsSync(file)) {
      const json = parseJson(file, readFileSync(file, 'utf8')) as { mcpServers?: Record<string, unknown> };
      project = json?.mcpServers ?? {};
    }
    servers = {};
    for (const [name, value] of Object.entries({ ...project, ...own })) {
      const v = value as Partial<McpStdioServer>;
      if (typeof v?.command === 'string')
        servers[name] = {
          command: v.command,
          ...(Array.isArray(v.args) && { args: v.args }),
          ...(v.env && { env: v.env }),
          ...(v.cwd && { cwd: v.cwd }),
        };
    }
    return servers;
  };
}

/** Which settings file this is, from where it sits. */
export function settingsScopeOf(file: string): SettingsScope {
  const abs = path.resolve(file);
  const base = path.basename(abs);
  if (base.startsWith('managed-settings') || path.basename(path.dirname(abs)) === 'managed-settings.d') return 'managed';
  if (process.env.HOOKWISE_MANAGED_SETTINGS_DIR && abs.startsWith(path.resolve(process.env.HOOKWISE_MANAGED_SETTINGS_DIR) + path.sep))
    return 'managed';
  if (base === 'settings.local.json') return 'local';
  if (abs === path.join(homeDir(), '.claude', 'settings.json')) return 'user';
  return 'project';
}

/** A Claude Code settings file (`~/.claude/settings.json`, `.claude/settings.json`, ...). */
export async function loadClaudeSettings(file: string, options: ClaudeSourceOptions = {}): Promise<ConfigSource> {
  return claudeSettingsFromJson(file, parseJson(file, await readFile(file, 'utf8')), options);
}

export function claudeSettingsFromJson(file: string, json: unknown, options: ClaudeSourceOptions = {}): ConfigSource {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new ConfigError(file, 'expected a JSON object');
  const settings = json as Record<string, unknown>;
  for (const flag of ['disableAllHooks', 'allowManagedHooksOnly']) {
    if (settings[flag] !== undefined && typeof settings[flag] !== 'boolean') throw new ConfigError(file, 'expected boolean', flag);
  }
  for (const list of ['allowedHttpHookUrls', 'httpHookAllowedEnvVars']) {
    const value = settings[list];
    if (value !== undefined && (!Array.isArray(value) || value.some((v) => typeof v !== 'string')))
      throw new ConfigError(file, 'expected an array of strings', list);
  }
  if (
    settings.mcpServers !== undefined &&
    (typeof settings.mcpServers !== 'object' || settings.mcpServers === null || Array.isArray(settings.mcpServers))
  ) {
    throw new ConfigError(file, 'expected an object mapping server names to { command, args, env }', 'mcpServers');
  }
  const scope = settingsScopeOf(file);
  const source: ConfigSource = { file, kind: 'claude-settings', scope, hooks: [], warnings: [], httpPolicy: {} };
  if (settings.disableAllHooks === true) source.disableAllHooks = true;
  if (settings.allowManagedHooksOnly === true && scope === 'managed') source.allowManagedHooksOnly = true;
  if (settings.allowedHttpHookUrls !== undefined) source.allowedHttpHookUrls = settings.allowedHttpHookUrls as string[];
  if (settings.httpHookAllowedEnvVars !== undefined) source.httpHookAllowedEnvVars = settings.httpHookAllowedEnvVars as string[];
  if (settings.hooks === undefined) return source;
  const cwd = options.cwd ?? process.cwd();
  const projectDir = projectDirFor(file, cwd);
  const built = specsFromHooksBlock(settings.hooks, 'hooks', {
    file,
    namePrefix: 'settings',
    projectDir,
    httpPolicy: source.httpPolicy!,
    mcpServers: mcpServersFor(settings.mcpServers as Record<string, unknown> | undefined, projectDir),
  });
  source.hooks = built.hooks;
  source.warnings = built.warnings;
  if (built.skipped.length) source.skipped = built.skipped;
  return source;
}
