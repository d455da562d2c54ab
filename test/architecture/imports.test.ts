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

/** Every relative import of a file (static, side-effect, re-exports and dynamic), as src-relative paths without extension. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import\(|^import)\s*'(\.[^']+)'/gm)].map((m) => m[1]!);
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

  // Catches: an import of compat/ from the core (or from a layer that is no edge), which
  // would put another system's format back under the engine.
  it("compat/ (other systems' formats) is imported only from edges: the public entry, config loading, hosts, hook programs, the CLI", () => {
    const edges = new Set(['index', 'compat', 'config', 'runtime', 'policy-test', 'handlers', 'hosts', 'serve', 'cli']);
    const wrong = [...graph].flatMap(([m, deps]) =>
      edges.has(layer(m)) ? [] : deps.filter((d) => layer(d) === 'compat').map((d) => `${m} → ${d}`),
    );
    expect(wrong).toEqual([]);
    // In the runtime, only createAgent builds an engine from a config (its entry names that engine for its types).
    expect(arrows('runtime', 'compat').sort()).toEqual([
      `runtime${path.sep}agent → compat${path.sep}engine`,
      `runtime${path.sep}index → compat${path.sep}engine`,
    ]);
    expect(arrows('compat', 'core').length).toBeGreaterThan(3);
  });

  it('compat/ imports only the core: it translates into hookwise, it does not reach up', () => {
    const up = [...graph].flatMap(([m, deps]) =>
      layer(m) === 'compat' ? deps.filter((d) => !['core', 'compat'].includes(layer(d))).map((d) => `${m} → ${d}`) : [],
    );
    expect(up).toEqual([]);
  });
});

/**
 * The core speaks hookwise: no seed design, agent or framework is named in src/core
 * (code or comment). Their formats are read in src/compat and the hosts and adapters;
 * the core points to docs/ for the why. Words are matched whole, case-insensitively
 * (`decline` is not Cline).
 */
const FOREIGN = [
  'Claude',
  'claude-code',
  'claude-agent-rs',
  'Anthropic',
  'UseHooks',
  'hookable',
  'seed',
  'seeds',
  'Codex',
  'Copilot',
  'Gemini',
  'OpenCode',
  'Cline',
  'droid',
  'Factory',
  'Cursor',
  'LangChain',
  'OpenAI',
  'AI SDK',
  'ai-sdk',
  'Vercel',
  // The seed designs of ../shared/seeds (docs/coming-from/).
  'WorkflowFramework',
  'Workflow Framework',
  'A3S',
  'shadow agent',
  'agent SDK',
];

describe('the core names no other system', () => {
  const core = files(path.join(src, 'core'));
  const word = new RegExp(`(?<![\\w-])(?:${FOREIGN.map((w) => w.replace(/[-\s]/g, '[-\\s]')).join('|')})(?![\\w-])`, 'i');

  it('checks the core files, and its word list finds what it looks for', () => {
    expect(core.length).toBeGreaterThan(15);
    expect(word.test("as Claude Code's does")).toBe(true);
    expect(word.test('the seed designs')).toBe(true);
    expect(word.test('a UseHooks HookOutcome')).toBe(true);
    expect(word.test('the Vercel AI SDK')).toBe(true);
    expect(word.test('decline')).toBe(false);
    expect(word.test('seeded')).toBe(false);
  });

  it.each(core.map((f) => path.relative(src, f)))('%s names no seed design, agent or framework', (file) => {
    const lines = readFileSync(path.join(src, file), 'utf8').split('\n');
    const named = lines.flatMap((line, i) => (word.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
    expect(named).toEqual([]);
  });
});
