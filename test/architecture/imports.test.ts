import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layers of ARCHITECTURE.md, checked on the source: data flows one way (config →
 * engine → handlers → outcome → host), so an import may only point down.
 */
const src = path.resolve(import.meta.dirname, '../../src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name)) : /\.c?ts$/.test(e.name) ? [path.join(dir, e.name)] : [],
  );
}

/** Every relative import of a file (static, re-exports and dynamic), as src-relative paths without extension. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)].map((m) => m[1]!);
  return specs.map((spec) => path.relative(src, path.resolve(path.dirname(file), spec)).replace(/\.c?js$/, ''));
}

const graph = new Map(files(src).map((f) => [path.relative(src, f).replace(/\.c?ts$/, ''), importsOf(f)]));
const layer = (module: string) => module.split(path.sep)[0]!;

function arrows(from: string, to: string): string[] {
  return [...graph].flatMap(([module, deps]) =>
    layer(module) === from ? deps.filter((d) => layer(d) === to).map((d) => `${module} → ${d}`) : [],
  );
}

describe('the import graph', () => {
  it('has the files it checks (a wrong root would pass every rule)', () => {
    expect(graph.size).toBeGreaterThan(200);
    expect(graph.get('core/engine')?.length).toBeGreaterThan(3);
  });

  it('core imports nothing outside core: no I/O, no CLI, runtime, store, host or adapter', () => {
    const outside = [...graph].flatMap(([m, deps]) =>
      layer(m) === 'core' ? deps.filter((d) => layer(d) !== 'core').map((d) => `${m} → ${d}`) : [],
    );
    expect(outside).toEqual([]);
  });

  it('has no cycle in core', () => {
    const core = [...graph.keys()].filter((m) => layer(m) === 'core');
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (m: string, trail: string[]) => {
      if (state.get(m) === 'done') return;
      if (state.get(m) === 'open') {
        cycles.push([...trail.slice(trail.indexOf(m)), m].join(' → '));
        return;
      }
      state.set(m, 'open');
      for (const d of graph.get(m) ?? []) if (layer(d) === 'core') visit(d, [...trail, m]);
      state.set(m, 'done');
    };
    for (const m of core) visit(m, []);
    expect(cycles).toEqual([]);
  });

  it.each([
    ['serve', 'cli'],
    ['gate', 'cli'],
    ['gate', 'adapters'],
    ['gate', 'runtime'],
    ['runtime', 'adapters'],
    ['runtime', 'cli'],
    ['hosts', 'cli'],
    ['guards', 'cli'],
    ['audit', 'cli'],
    ['config', 'cli'],
  ])('no arrow from %s/ up to %s/', (from, to) => {
    expect(arrows(from, to)).toEqual([]);
  });

  it('no adapter imports another adapter: each framework is its own edge', () => {
    const across = [...graph].flatMap(([m, deps]) => {
      const [top, framework] = m.split(path.sep);
      if (top !== 'adapters' || framework === 'shared') return [];
      return deps
        .filter((d) => d.startsWith(`adapters${path.sep}`) && ![framework, 'shared'].includes(d.split(path.sep)[1]!))
        .map((d) => `${m} → ${d}`);
    });
    expect(across).toEqual([]);
  });
});
