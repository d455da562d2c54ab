import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { slack } from '../support/slack.js';

/**
 * Every ```ts block of docs/adapters.md runs here, importing 'hookwise' and
 * 'hookwise/<adapter>' as a user would (the package resolves itself to dist/, so
 * build first). Blocks assert with node:assert.
 */
const root = path.resolve(import.meta.dirname, '../..');
const outDir = path.join(root, '.tmp', 'docs-examples');
const examples = [...readFileSync(path.join(root, 'docs/adapters.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);

describe('docs/adapters.md examples', () => {
  it('has one example per framework and one for the proxy', () => {
    expect(examples.length).toBe(4);
  });
  it.each(examples.map((code, i) => [i + 1, code] as const))(
    'example %i runs',
    async (i, code) => {
      mkdirSync(outDir, { recursive: true });
      const file = path.join(outDir, `adapters-${i}.ts`);
      writeFileSync(file, code);
      await import(file);
    },
    slack(60_000),
  );
});
