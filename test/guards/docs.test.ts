import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Every ```ts block of docs/guards.md runs as written: imports of `hookwise`
 * `hookwise/guards` and `hookwise/sandbox` point at the sources, and the examples' own
 * assertions (node:assert) must hold.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const doc = fs.readFileSync(path.join(root, 'docs/guards.md'), 'utf8');
const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookwise-docs-'));

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function rewrite(code: string): string {
  return code
    .replace(/from 'hookwise\/guards'/g, `from '${path.join(root, 'src/guards/index.ts')}'`)
    .replace(/from 'hookwise\/sandbox'/g, `from '${path.join(root, 'src/sandbox/index.ts')}'`)
    .replace(/from 'hookwise'/g, `from '${path.join(root, 'src/index.ts')}'`);
}

describe('docs/guards.md examples', () => {
  it('has examples for every guard', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    for (const name of ['shellGuard', 'pathGuard', 'secretGuard', 'budgetGuard'])
      expect(blocks.some((b) => b.includes(`${name}(`))).toBe(true);
  });

  it.each(
    blocks.map(
      (code, i) =>
        [
          i + 1,
          code
            .split('\n')
            .find((l) => l.includes('Guard('))
            ?.trim() ?? '',
          code,
        ] as const,
    ),
  )('example %i runs (%s)', async (i, _title, code) => {
    const file = path.join(dir, `example-${i}.ts`);
    fs.writeFileSync(file, rewrite(code));
    const mod = await import(file);
    expect(mod).toBeDefined();
    if (mod.default) expect(Array.isArray(mod.default.hooks)).toBe(true);
  });
});
