import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { engineFor, loadConfig, type LoadOptions } from '../../src/config/load.js';

export const FIXTURE_ROOT = fileURLToPath(new URL('../fixtures/claude/', import.meta.url));
export const fixture = (...parts: string[]) => path.join(FIXTURE_ROOT, ...parts);
export const REPO = fileURLToPath(new URL('../../', import.meta.url));

// The fixture scripts are named through $FIXTURES in the settings files: test/setup/env.ts sets it before each file.

/** Set environment variables for the duration of `fn`. */
export async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** A writable copy of the fixture tree, for tests that change a file. */
export function copyFixtures(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-claude-'));
  cpSync(FIXTURE_ROOT, dir, { recursive: true });
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Load what Claude Code would load for `project`, with the user's home and managed settings of `root`. */
export async function discovered(root: string, options: LoadOptions = {}) {
  return withEnv({ HOME: path.join(root, 'home'), HOOKWISE_MANAGED_SETTINGS_DIR: path.join(root, 'managed') }, async () => {
    const config = await loadConfig({ cwd: path.join(root, 'project'), ...options });
    return { config, engine: engineFor(config) };
  });
}

export const bash = (command: string) => ({ tool_name: 'Bash', tool_input: { command }, session_id: 's1' });
