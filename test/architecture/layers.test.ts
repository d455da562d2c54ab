import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * ARCHITECTURE.md's layer table, held to the code: rows run from the bottom layer up,
 * and each row says exactly which folders its own import. A folder that imports one
 * its row does not name (or a row that names one nothing imports) fails, and so does
 * a row that names a folder of a row below it (an arrow pointing up).
 */
const root = path.resolve(import.meta.dirname, '../..');
const src = path.join(root, 'src');

interface Row {
  layers: string[];
  /** The folders the row says its layers import; `anything` for the top row. */
  imports: Set<string> | 'anything';
  line: string;
}

/** The rows of the table under "## The layers", in order. */
function parseTable(markdown: string): Row[] {
  const section = markdown.split(/^## /m).find((s) => s.startsWith('The layers'));
  if (!section) throw new Error('ARCHITECTURE.md has no "## The layers" section');
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const cells = line.split(' | ');
      const first = cells[0]!;
      const last = cells.at(-1)!;
      const layers = [...first.matchAll(/`src\/([\w-]+)(?:\.ts|\/[^`]*)`/g)].map((m) => m[1]!);
      const imports = /\banything\b/.test(last) ? 'anything' : new Set([...last.matchAll(/`([\w-]+)\/`/g)].map((m) => m[1]!));
      return { layers, imports, line };
    });
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name)) : /\.c?ts$/.test(e.name) ? [path.join(dir, e.name)] : [],
  );
}

/** The top-level folder (or file) of a src-relative module path: `guards`, `index`. */
const layerOf = (module: string) => module.split(path.sep)[0]!;

/** For each layer, the other layers its files import (static, side-effect, re-export and dynamic imports). */
function layerGraph(dir: string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of files(dir)) {
    const from = layerOf(path.relative(dir, file).replace(/\.c?ts$/, ''));
    const deps = graph.get(from) ?? new Set<string>();
    graph.set(from, deps);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/(?:from|import\(|^import)\s*'(\.[^']+)'/gm)) {
      const to = layerOf(path.relative(dir, path.resolve(path.dirname(file), spec!)));
      if (to !== from) deps.add(to.replace(/\.c?js$/, ''));
    }
  }
  return graph;
}

/** Every way the table and the graph disagree, one line each. */
function disagreements(rows: Row[], graph: Map<string, Set<string>>): string[] {
  const problems: string[] = [];
  const below = new Set<string>();
  const listed = rows.flatMap((r) => r.layers);
  for (const layer of graph.keys()) if (!listed.includes(layer)) problems.push(`src/${layer} has no row in the table`);
  for (const layer of listed) if (!graph.has(layer)) problems.push(`the table's row for ${layer} names no folder of src/`);
  for (const row of rows) {
    const allowed = row.imports === 'anything' ? below : row.imports;
    for (const named of allowed)
      if (!below.has(named)) problems.push(`${row.layers.join(', ')}: the table says it imports ${named}/, which is not a row above it`);
    const used = new Set<string>();
    for (const layer of row.layers) {
      for (const to of graph.get(layer) ?? []) {
        used.add(to);
        if (!allowed.has(to))
          problems.push(`${layer}/ imports ${to}/, which its row does not name${below.has(to) ? '' : ' (an arrow up the table)'}`);
      }
    }
    if (row.imports !== 'anything')
      for (const named of row.imports)
        if (!used.has(named)) problems.push(`${row.layers.join(', ')}: the table says it imports ${named}/, and nothing there does`);
    for (const layer of row.layers) below.add(layer);
  }
  return problems;
}

const table = parseTable(readFileSync(path.join(root, 'ARCHITECTURE.md'), 'utf8'));
const graph = layerGraph(src);

describe("ARCHITECTURE.md's layer table", () => {
  it('is read whole: every row, the bottom and the top', () => {
    expect(table.length).toBeGreaterThan(20);
    expect(table[0]).toMatchObject({ layers: ['core'], imports: new Set() });
    expect(table.at(-1)).toMatchObject({ layers: ['cli'], imports: 'anything' });
    expect(graph.get('cli')?.size).toBeGreaterThan(10);
  });

  it('agrees with the import graph of src/, and every arrow points down the table', () => {
    expect(disagreements(table, graph)).toEqual([]);
  });

  // Catches: a check that passes whatever the code does.
  it('fails on an upward import, an import the table does not name, a stale row and a row out of order', () => {
    const with_ = (layer: string, to: string) => new Map([...graph].map(([l, d]) => [l, l === layer ? new Set([...d, to]) : d]));
    expect(disagreements(table, with_('sandbox', 'guards'))).toEqual([
      'sandbox/ imports guards/, which its row does not name (an arrow up the table)',
    ]);
    expect(disagreements(table, with_('audit', 'approvals'))).toEqual([
      'audit/ imports approvals/, which its row does not name (an arrow up the table)',
    ]);
    expect(disagreements(table, with_('hosts', 'shell'))).toEqual(['hosts/ imports shell/, which its row does not name']);
    const without = new Map([...graph].map(([l, d]) => [l, l === 'mcp-proxy' ? new Set(['core']) : d]));
    expect(disagreements(table, without)).toEqual(['mcp-proxy: the table says it imports gate/, and nothing there does']);
    const swapped = [...table];
    const gate = swapped.findIndex((r) => r.layers.includes('gate'));
    const [row] = swapped.splice(gate, 1);
    swapped.push(row!);
    expect(disagreements(swapped, graph)).toContain('mcp-proxy: the table says it imports gate/, which is not a row above it');
    expect(disagreements(table.slice(1), graph)).toContain('src/core has no row in the table');
  });
});
