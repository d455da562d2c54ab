import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { slack } from '../support/slack.js';

/**
 * The "coming from ..." pages port each design's own examples to hookwise. Every
 * ```ts block of those pages runs here as a user would run it (importing
 * 'hookwise', which resolves to dist/: build first), and asserts with node:assert
 * that it behaves as the design describes.
 */
const root = path.resolve(import.meta.dirname, '../..');
const pagesDir = path.join(root, 'docs/coming-from');
const outDir = path.join(root, '.tmp', 'coming-from');
const pages = readdirSync(pagesDir)
  .filter((f) => f.endsWith('.md'))
  .sort();

function blocks(page: string): string[] {
  const text = readFileSync(path.join(pagesDir, page), 'utf8');
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

describe('docs/coming-from', () => {
  it('has a page per design', () => {
    expect(pages).toEqual(['a3s-hook-engine.md', 'claude-agent-rs.md', 'shadow-agent-sdk.md', 'usehooks.md', 'workflow-framework.md']);
  });
});

describe.each(pages)('docs/coming-from/%s', (page) => {
  const examples = blocks(page);
  it('ports examples', () => {
    expect(examples.length).toBeGreaterThan(1);
  });
  it.each(examples.map((code, i) => [i + 1, code] as const))(
    'example %i runs and behaves as the design says',
    async (i, code) => {
      mkdirSync(outDir, { recursive: true });
      const file = path.join(outDir, `${path.basename(page, '.md')}-${i}.ts`);
      writeFileSync(file, code);
      await import(file);
    },
    slack(30_000),
  );
});
