import type * as Fs from 'node:fs';
import type * as Os from 'node:os';
import path from 'node:path';

// Not `import ... from 'node:fs'`: its ES-module facade evaluates every export,
// streams included (~3 ms of `hookwise claude-code` start-up). getBuiltinModule is Node 20.16+.
const { existsSync, readdirSync } = (process.getBuiltinModule?.('node:fs') ?? (await import('node:fs'))) as typeof Fs;
const { homedir } = (process.getBuiltinModule?.('node:os') ?? (await import('node:os'))) as typeof Os;

/** The user's home, respecting HOME (tests and sandboxes set it). Here, not in project-dir.ts: `hookwise claude-code` loads this file and needs no other. */
export function homeDir(): string {
  return path.resolve(process.env.HOME || homedir());
}

export const CONFIG_MODULE_NAMES = ['hookwise.config.ts', 'hookwise.config.mts', 'hookwise.config.mjs', 'hookwise.config.js'];

/** Where the platform keeps Claude Code's managed (policy) settings; HOOKWISE_MANAGED_SETTINGS_DIR overrides it. */
export function managedSettingsDir(): string {
  const override = process.env.HOOKWISE_MANAGED_SETTINGS_DIR;
  if (override) return path.resolve(override);
  if (process.platform === 'darwin') return '/Library/Application Support/ClaudeCode';
  if (process.platform === 'win32') return 'C:\\ProgramData\\ClaudeCode';
  return '/etc/claude-code';
}

/** `managed-settings.json`, then `managed-settings.d/*.json` in name order. */
export function managedSettingsFiles(): string[] {
  const dir = managedSettingsDir();
  const files = [path.join(dir, 'managed-settings.json')];
  const dropIns = path.join(dir, 'managed-settings.d');
  if (existsSync(dropIns)) {
    for (const name of readdirSync(dropIns)
      .filter((n) => n.endsWith('.json'))
      .sort())
      files.push(path.join(dropIns, name));
  }
  return files;
}

/** The first hookwise.config.* in a folder, if any. */
export function findConfigModule(dir: string): string | undefined {
  return CONFIG_MODULE_NAMES.map((name) => path.join(dir, name)).find((f) => existsSync(f));
}

/**
 * What is loaded when no `--config` is given: what Claude Code itself would load
 * (managed settings first, since policy cannot be disabled by the user, then the
 * user's, the project's and the local settings), plus hookwise.config.* in the cwd.
 */
export function discoverSources(cwd: string): string[] {
  const candidates = [
    ...managedSettingsFiles(),
    path.join(homeDir(), '.claude', 'settings.json'),
    path.join(cwd, '.claude', 'settings.json'),
    path.join(cwd, '.claude', 'settings.local.json'),
  ];
  const found = [...new Set(candidates.map((f) => path.resolve(f)))].filter((f) => existsSync(f));
  const module = findConfigModule(cwd);
  if (module) found.push(module);
  return found;
}
