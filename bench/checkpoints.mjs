// Checkpoints (docs/security.md#undo): what keeping the workspace before a step adds to
// the step's start when nothing changed since the last one, on a 2,000-file workspace
// (target: at most 15 ms at the median) and on a 50,000-file one against `git status`
// there, paired round by round (target: at most 1.5x); and what a step the parser proves
// read-only pays (target: nothing measurable beside the hook's own call).
// Run: npm run build && node bench/checkpoints.mjs
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.HOOKWISE_BENCH_CHECKPOINT_ROUNDS ?? 30);
const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A committed repository of `files` source files in nested folders, a few changed and untracked, node_modules ignored. */
function workspace(files) {
  const ws = mkdtempSync(path.join(tmpdir(), 'hookwise-bench-checkpoints-'));
  for (let i = 0; i < files; i++) {
    const dir = path.join(ws, `pkg${i % 50}`, `mod${i % 13}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `f${i}.ts`), `export const v${i} = ${i};\n`);
  }
  writeFileSync(path.join(ws, '.gitignore'), 'node_modules\n');
  // No background gc packing the 50,000 new objects while the rounds run.
  const git = (...args) =>
    execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', '-c', 'gc.auto=0', ...args], { cwd: ws, stdio: 'pipe' });
  git('init', '-q', '.');
  git('add', '-A');
  git('commit', '-qm', 'bench');
  // As a clone has it: one pack, not a loose object per file.
  git('gc', '-q');
  writeFileSync(path.join(ws, 'pkg0', 'mod0', 'f0.ts'), 'export const changed = 1;\n');
  writeFileSync(path.join(ws, 'untracked.md'), 'notes\n');
  return ws;
}

export async function benchCheckpoints() {
  const { Checkpoints } = await import(pathToFileURL(path.join(root, 'dist/checkpoints/index.js')).href);
  const { HookEngine } = await import(pathToFileURL(path.join(root, 'dist/index.js')).href);
  const { checkpointGuard } = await import(pathToFileURL(path.join(root, 'dist/guards/index.js')).href);
  const rows = [];
  const state = mkdtempSync(path.join(tmpdir(), 'hookwise-bench-checkpoint-state-'));

  const small = workspace(2_000);
  const large = workspace(50_000);
  // An agent's next step comes after the model's turn: the files it wrote have settled
  // (a file changed in the last 2 s is hashed again, ./src/checkpoints/stat-stamp.ts).
  await new Promise((resolve) => setTimeout(resolve, 2_100));
  const store = new Checkpoints(small, { dir: path.join(state, 'small') });
  await store.begin({ session: 'bench', tool: 'Bash', what: 'first' });
  const begins = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = process.hrtime.bigint();
    await store.begin({ session: 'bench', tool: 'Bash', what: `step ${i}` });
    begins.push(ms(t));
  }
  rows.push({
    name: `checkpoint before a step, 2,000-file workspace, nothing changed (median of ${ROUNDS}; target <= 15 ms)`,
    text: `${median(begins).toFixed(1)} ms`,
  });

  // The same workspace with one file edited before each step: git's own walk and hashing.
  const edited = [];
  for (let i = 0; i < ROUNDS; i++) {
    writeFileSync(path.join(small, 'pkg1', 'mod1', 'f1.ts'), `export const edited = ${i};\n`);
    const t = process.hrtime.bigint();
    await store.begin({ session: 'bench', tool: 'Bash', what: `edit ${i}` });
    edited.push(ms(t));
  }
  rows.push({
    name: `checkpoint before a step, 2,000-file workspace, one file edited since the last (median of ${ROUNDS})`,
    text: `${median(edited).toFixed(1)} ms`,
  });

  // A read-only step: the guard's whole PreToolUse against an engine with no hook, the same input.
  const engine = new HookEngine().register(checkpointGuard({ workspace: small }));
  const bare = new HookEngine();
  const input = { session_id: 'bench', tool_name: 'Bash', tool_input: { command: 'ls -la src' }, cwd: small };
  await engine.fire('PreToolUse', input);
  const guarded = [];
  const none = [];
  for (let i = 0; i < ROUNDS * 20; i++) {
    let t = process.hrtime.bigint();
    await engine.fire('PreToolUse', input);
    guarded.push(ms(t));
    t = process.hrtime.bigint();
    await bare.fire('PreToolUse', input);
    none.push(ms(t));
  }
  rows.push({
    name: 'a step the parser proves read-only (`ls -la src`): the guard over no hook (median)',
    text: `+${(median(guarded) - median(none)).toFixed(3)} ms, no checkpoint`,
  });

  const big = new Checkpoints(large, { dir: path.join(state, 'large') });
  await big.begin({ session: 'bench', tool: 'Bash', what: 'first' });
  spawnSync('git', ['status', '--porcelain'], { cwd: large });
  const ratios = [];
  const bigBegins = [];
  const statuses = [];
  for (let i = 0; i < Math.ceil(ROUNDS / 2); i++) {
    let t = process.hrtime.bigint();
    spawnSync('git', ['status', '--porcelain'], { cwd: large, stdio: 'ignore' });
    const status = ms(t);
    t = process.hrtime.bigint();
    await big.begin({ session: 'bench', tool: 'Bash', what: `step ${i}` });
    const begin = ms(t);
    statuses.push(status);
    bigBegins.push(begin);
    ratios.push(begin / status);
  }
  rows.push({
    name: `checkpoint, 50,000-file workspace, nothing changed, over \`git status\` there (median of ${ratios.length} paired rounds; target <= 1.5x)`,
    text: `${median(ratios).toFixed(2)}x (${median(bigBegins).toFixed(0)} ms against ${median(statuses).toFixed(0)} ms)`,
  });
  for (const dir of [small, large, state]) rmSync(dir, { recursive: true, force: true });
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const row of await benchCheckpoints()) console.log(`${row.name}: ${row.text}`);
}
