import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runNode } from './run-cli.js';

/**
 * The launcher bin/hookwise.js loads on every agent tool call (dist/cli/resident/launcher.cjs,
 * written by scripts/bundle-launcher.mjs): resident/client.cjs with the files it requires
 * inlined. The resident's own behaviour through it, the build stamp the inlined address.cts
 * shares with the resident included, is test/cli/resident.test.ts.
 */
const dist = path.join(repoRoot, 'dist');

/** Loads `file` in a fresh Node and reports the hookwise files Node loaded and what the module exports. */
async function load(file: string): Promise<{ files: string[]; exports: string[] }> {
  const script = `
    const loaded = require(${JSON.stringify(path.join(dist, file))});
    const files = Object.keys(require.cache).filter((f) => f.startsWith(${JSON.stringify(dist)}));
    process.stdout.write(JSON.stringify({ files, exports: Object.keys(loaded).sort() }));
  `;
  const r = await runNode(['-e', script]);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout);
}

describe('the launcher', () => {
  it('is one file for Node to load, with what resident/client.cjs exports', async () => {
    const launcher = await load('cli/resident/launcher.cjs');
    expect(launcher.files).toEqual([path.join(dist, 'cli', 'resident', 'launcher.cjs')]);
    const client = await load('cli/resident/client.cjs');
    expect(client.files.length).toBeGreaterThan(1);
    expect(launcher.exports).toEqual(client.exports);
  });
});
