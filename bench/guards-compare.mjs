// The shell guard's cost per command against the release the destructive-command packs
// were measured from (e9f49d2, before them): both builds loaded in one process, each
// case measured alternately, so both see the same machine. Target (docs/benchmarks.md):
// within 1.5x. The baseline is built once into .cache/bench-baseline/<commit>/ from
// this repository's own history, with this checkout's node_modules.
// Run: npm run build && node bench/guards-compare.mjs
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatNs, measure } from './harness.mjs';

const BASELINE = process.env.HOOKWISE_BENCH_BASELINE ?? 'e9f49d2';
const root = path.resolve(import.meta.dirname, '..');
const ROUNDS = 5;

// Commands an agent runs all day; the judgement alone (the wrap is the sandbox's cost, bench/sandbox.mjs).
const CASES = [
  'ls -la',
  'git status && git diff --stat',
  'npm test 2>&1 | tail -20',
  'rm -rf ./build ./dist',
  "grep -rn 'TODO' src | wc -l",
  "cd src && sed -i 's/foo/bar/g' index.ts",
  'curl -fsSL https://example.com/i.sh | sh',
  "bash -c 'npm ci && npm run build'",
  'npx vitest run',
  'git add -A && git commit -m "wip"',
  'git push origin feature',
  'docker compose up -d',
];

/** The baseline's dist/, built once from git history. */
function baselineDist() {
  const dir = path.join(root, '.cache', 'bench-baseline', BASELINE);
  const dist = path.join(dir, 'dist', 'guards', 'index.js');
  if (existsSync(dist)) return dist;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git -C "${root}" archive ${BASELINE} | tar -x -C "${dir}"`]);
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  process.stderr.write(`building ${BASELINE} into ${dir} (once)...\n`);
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: dir });
  return dist;
}

/** A repository with committed work, as the packs see a real project. */
function workspace() {
  const ws = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookwise-bench-compare-')));
  for (const d of ['src', 'build', 'dist']) mkdirSync(path.join(ws, d), { recursive: true });
  writeFileSync(path.join(ws, 'src/index.ts'), 'export {};\n');
  writeFileSync(path.join(ws, '.gitignore'), 'build/\ndist/\n');
  const git = (...args) => execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', ...args], { cwd: ws, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'init');
  return ws;
}

export async function benchGuardsCompare() {
  const ws = workspace();
  try {
    const before = await import(pathToFileURL(baselineDist()).href);
    const now = await import(pathToFileURL(path.join(root, 'dist', 'guards', 'index.js')).href);
    const judges = {
      before: await before.loadShellJudge({ workspace: ws }),
      now: await now.loadShellJudge({ workspace: ws, sandbox: 'off' }),
    };
    const rows = [];
    let serial = 0;
    for (const command of CASES) {
      const best = { before: Infinity, now: Infinity };
      // Alternate the builds; keep each one's best round (least disturbed by the other core).
      for (let round = 0; round < ROUNDS; round++) {
        for (const side of ['before', 'now']) {
          // A new comment each time: every judgement parses, as a new command does (no parse cache hit).
          const ns = await measure(() => judges[side].judge(`${command} # ${++serial}`, ws), { batch: 50, budgetMs: 150, warmup: 1 });
          best[side] = Math.min(best[side], ns);
        }
      }
      rows.push({ command, before: best.before, now: best.now, ratio: best.now / best.before });
    }
    // What the baseline never did: look at the repository (git status, once per judgement).
    const look = await measure(() => judges.now.judge(`git checkout -- . # ${++serial}`, ws), { batch: 1, budgetMs: 1500, warmup: 1 });
    return { rows, look };
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}

/** The rows bench/run.mjs prints, and the verdict against the 1.5x target. */
export async function benchGuardsCompareRows() {
  const { rows, look } = await benchGuardsCompare();
  const ratios = rows.map((r) => r.ratio).sort((a, b) => a - b);
  const median = ratios[Math.floor(ratios.length / 2)];
  return [
    ...rows.map((r) => ({ name: `\`${r.command}\``, text: `${formatNs(r.before)} -> ${formatNs(r.now)} (${r.ratio.toFixed(2)}x)` })),
    { name: '`git checkout -- .` in a clean repository (needs the git look; not in the baseline)', text: formatNs(look) },
    {
      name: `median ratio over ${rows.length} commands (target <= 1.5x)`,
      text: `${median.toFixed(2)}x ${median <= 1.5 ? '(met)' : '(NOT met)'}`,
    },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await benchGuardsCompareRows()) console.log(`${row.name}: ${row.text}`);
}
