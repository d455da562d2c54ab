import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfigModule } from '../../src/config/module.js';
import { REPO } from './helpers.js';

/** A project whose node_modules/hookwise is this checkout (built: dist/). */
const project = mkdtempSync(path.join(tmpdir(), 'hookwise-module-cache-'));
mkdirSync(path.join(project, 'node_modules'));
symlinkSync(REPO, path.join(project, 'node_modules', 'hookwise'), 'dir');
afterAll(() => rmSync(project, { recursive: true, force: true }));

const cacheDir = path.join(project, '.hookwise', 'cache');
const config = path.join(project, 'hookwise.config.ts');
/** The transpiled modules in the cache (beside them, the config's graph: policy-graph.ts). */
const compiled = () => readdirSync(cacheDir).filter((name) => name.endsWith('.mjs'));

function writeConfig(reason: string, mtime: Date) {
  writeFileSync(path.join(project, 'policy.ts'), `export const reason: string = ${JSON.stringify(reason)};\n`);
  writeFileSync(
    config,
    [
      `import { defineConfig, deny } from 'hookwise';`,
      `import { reason } from './policy.js';`,
      `interface Typed { why: string }`,
      `const typed: Typed = { why: reason };`,
      `export default defineConfig({ hooks: [{ name: 'typed', events: 'PreToolUse', handler: () => deny(typed.why) }] });`,
      '',
    ].join('\n'),
  );
  utimesSync(config, mtime, mtime);
}

async function reasonOf(): Promise<string> {
  const source = await loadConfigModule(config);
  const verdict = (await source.hooks[0]!.handler({}, {} as never)) as { reason: string };
  return verdict.reason;
}

describe('TypeScript config modules are transpiled once and cached', () => {
  it('writes the transpiled module under .hookwise/cache, keyed by mtime and size, and reads it back', async () => {
    writeConfig('first', new Date('2026-01-01T00:00:00Z'));
    expect(await reasonOf()).toBe('first');
    const files = compiled();
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^hookwise\.config\.ts\.\d+(_\d+)?-\d+-[^-]+-w\d+\.mjs$/);
    // Same mtime and size: the cached module answers (relative imports still load through jiti).
    expect(await reasonOf()).toBe('first');
    expect(compiled()).toEqual(files);
  });

  it('a changed config gets a new cache entry and the stale one is removed', async () => {
    writeConfig('second', new Date('2026-02-01T00:00:00Z'));
    expect(await reasonOf()).toBe('second');
    const files = compiled();
    expect(files).toHaveLength(1);
  });

  it('HOOKWISE_NO_CACHE loads through jiti without writing anything', async () => {
    rmSync(cacheDir, { recursive: true, force: true });
    process.env.HOOKWISE_NO_CACHE = '1';
    try {
      expect(await reasonOf()).toBe('second');
    } finally {
      delete process.env.HOOKWISE_NO_CACHE;
    }
    expect(existsSync(cacheDir)).toBe(false);
  });
});

describe('the cached module binds `require` only when the config names it', () => {
  const cachedText = () => readFileSync(path.join(cacheDir, readdirSync(cacheDir).find((n) => n.endsWith('.mjs'))!), 'utf8');

  it('an import-only config: no createRequire in the cached module, and it still loads', async () => {
    rmSync(cacheDir, { recursive: true, force: true });
    writeConfig('imports only', new Date('2026-03-01T00:00:00Z'));
    expect(await reasonOf()).toBe('imports only');
    expect(cachedText()).not.toContain('createRequire');
    expect(await reasonOf()).toBe('imports only');
  });

  it('a config that calls require and import.meta.resolve gets both, resolved from its own folder', async () => {
    rmSync(cacheDir, { recursive: true, force: true });
    writeFileSync(path.join(project, 'reason.cjs'), `module.exports = 'from require';\n`);
    writeFileSync(
      config,
      [
        `import { defineConfig, deny } from 'hookwise';`,
        `const reason: string = require('./reason.cjs');`,
        `const where: string = import.meta.resolve('hookwise');`,
        `export default defineConfig({ hooks: [{ name: 'typed', events: 'PreToolUse', handler: () => deny(reason + ' ' + (where.length > 0)) }] });`,
        '',
      ].join('\n'),
    );
    utimesSync(config, new Date('2026-04-01T00:00:00Z'), new Date('2026-04-01T00:00:00Z'));
    expect(await reasonOf()).toBe('from require true');
    expect(cachedText()).toContain('createRequire');
    expect(await reasonOf()).toBe('from require true');
  });
});
