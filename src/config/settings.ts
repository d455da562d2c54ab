import { readFile } from 'node:fs/promises';
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

/** Which settings file this is, from where it sits. */
export function settingsScopeOf(file: string): SettingsScope {
  const abs = path.resolve(file);
  const base = path.basename(abs);
  if (base.startsWith('managed-settings') || path.basename(path.dirname(abs)) === 'managed-settings.d') return 'managed';
  if (process.env.HOOKWISE_MANAGED_SETTINGS_DIR && abs.startsWith(path.resolve(process.env.HOOKWISE_MANAGED_SETTINGS_DIR) + path.sep)) return 'managed';
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
  const scope = settingsScopeOf(file);
  const source: ConfigSource = { file, kind: 'claude-settings', scope, hooks: [], warnings: [] };
  if (settings.disableAllHooks === true) source.disableAllHooks = true;
  if (settings.allowManagedHooksOnly === true && scope === 'managed') source.allowManagedHooksOnly = true;
  if (settings.hooks === undefined) return source;
  const cwd = options.cwd ?? process.cwd();
  const built = specsFromHooksBlock(settings.hooks, 'hooks', { file, namePrefix: 'settings', projectDir: projectDirFor(file, cwd) });
  source.hooks = built.hooks;
  source.warnings = built.warnings;
  return source;
}
