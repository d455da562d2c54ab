import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/api.md lists what each entry point exports at run time: the API changes only
 * when that page changes with it. The entries are imported as a user imports them
 * ('hookwise/…' resolves to this package's dist/).
 */
const root = path.resolve(import.meta.dirname, '../..');
const page = readFileSync(path.join(root, 'docs', 'api.md'), 'utf8');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
const entries = Object.keys(pkg.exports)
  .filter((k) => !k.endsWith('.json'))
  .map((k) => (k === '.' ? 'hookwise' : `hookwise/${k.slice(2)}`));

/** The names the page lists under an entry's heading. */
function listed(entry: string): string[] | undefined {
  const section = page.split(/^## /m).find((s) => s.startsWith(`\`${entry}\`\n`));
  if (!section) return undefined;
  const line =
    section
      .split('\n')
      .slice(1)
      .find((l) => l.startsWith('`')) ?? '';
  return [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).sort();
}

describe('docs/api.md', () => {
  it('has a section for every entry point of package.json', () => {
    expect(entries.filter((e) => listed(e) === undefined)).toEqual([]);
  });

  it.each(entries)('%s exports exactly what the page lists', async (entry) => {
    const actual = Object.keys(await import(entry)).sort();
    expect(actual).toEqual(listed(entry));
  });

  it('lists every exported error with its code, and every one is a HookwiseError', async () => {
    const { HookwiseError } = await import('hookwise');
    for (const entry of entries) {
      for (const [name, value] of Object.entries(await import(entry))) {
        if (typeof value !== 'function' || !(value.prototype instanceof Error) || value === HookwiseError) continue;
        expect(value.prototype instanceof HookwiseError, `${entry} ${name}`).toBe(true);
        const code = (Reflect.construct(value as new (...a: unknown[]) => { code: string }, ['x', 'x', 'x']) as { code: string }).code;
        expect(page, `${entry} ${name}`).toContain(`| \`${code}\` |`);
      }
    }
  });
});
