import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HookEngine } from '../../src/index.js';

/**
 * Every ```ts block of these pages runs here, importing 'hookwise' as a user
 * would (the package resolves itself to dist/). Blocks assert with node:assert;
 * a block that default-exports a config must register cleanly.
 */
const PAGES = ['docs/model.md', 'README.md'];
const root = path.resolve(import.meta.dirname, '../..');
const outDir = path.join(root, '.tmp', 'docs-examples');

function blocks(page: string): string[] {
  const text = readFileSync(path.join(root, page), 'utf8');
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

describe.each(PAGES)('%s examples', (page) => {
  const examples = blocks(page);
  it('has examples', () => {
    expect(examples.length).toBeGreaterThan(0);
  });
  it.each(examples.map((code, i) => [i + 1, code] as const))('example %i runs', async (i, code) => {
    mkdirSync(outDir, { recursive: true });
    const file = path.join(outDir, `${path.basename(page, '.md')}-${i}.ts`);
    writeFileSync(file, code);
    const mod = (await import(file)) as { default?: { hooks: [] } };
    if (mod.default) {
      const engine = new HookEngine();
      for (const spec of mod.default.hooks.flat()) engine.register(spec);
      expect(engine.hooks().length).toBeGreaterThan(0);
    }
  });
});
