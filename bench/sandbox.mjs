// The OS sandbox (docs/security.md#the-os-sandbox): what it adds to a command's start,
// as the median of paired runs of the same command with and without it (target: at most
// 15 ms over `bash -c true`), and what wrapping costs the hook per call in a workspace of
// 2,000 files. Each round also runs bubblewrap with nothing but `--ro-bind / /`: that is
// the floor no construction of the sandbox goes below on this machine, and the rows say
// what the sandbox adds over both.
// Run: npm run build && node bench/sandbox.mjs
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const PAIRS = Number(process.env.HOOKWISE_BENCH_SANDBOX_PAIRS ?? 40);

function workspace(files) {
  const ws = mkdtempSync(path.join(tmpdir(), 'hookwise-bench-sandbox-'));
  for (let i = 0; i < files; i++) {
    const dir = path.join(ws, `pkg${i % 40}`, `mod${i % 7}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `f${i}.ts`), 'export {};\n');
  }
  mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
  writeFileSync(path.join(ws, '.git', 'config'), '[core]\n');
  writeFileSync(path.join(ws, '.env'), 'X=1\n');
  // As in a checkout made earlier: a folder changed in the last 2 s is read again on every call (walk.ts).
  const minuteAgo = Date.now() / 1000 - 60;
  const backdate = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) backdate(path.join(dir, e.name));
    utimesSync(dir, minuteAgo, minuteAgo);
  };
  backdate(ws);
  return ws;
}

const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchSandbox() {
  const { HookEngine } = await import(pathToFileURL(path.join(root, 'dist/index.js')).href);
  const { shellGuard } = await import(pathToFileURL(path.join(root, 'dist/guards/index.js')).href);
  const { detectSandbox } = await import(pathToFileURL(path.join(root, 'dist/sandbox/index.js')).href);
  const found = detectSandbox();
  if (!found.ok) return [{ name: 'the OS sandbox', text: `not measured: ${found.why}` }];
  const ws = workspace(2000);
  try {
    const boxed = new HookEngine().register(shellGuard({ workspace: ws }));
    const plain = new HookEngine().register(shellGuard({ workspace: ws, sandbox: 'off' }));
    const input = { tool_name: 'Bash', tool_input: { command: 'true' }, cwd: ws };
    const line = (await boxed.fire('PreToolUse', input)).updatedInput.command;
    const floor = `${found.program} --ro-bind / / /bin/true`;
    const run = (cmd) => {
      const t = process.hrtime.bigint();
      const r = spawnSync('/bin/bash', ['-c', cmd], { cwd: ws, stdio: 'ignore' });
      if (r.status !== 0) throw new Error(`bench: ${cmd.slice(0, 60)} exited ${r.status}`);
      return ms(t);
    };
    run(line);
    run(floor);
    const bare = [];
    const bwrap = [];
    const added = [];
    const overBwrap = [];
    for (let i = 0; i < PAIRS; i++) {
      const b = run('true');
      const f = run(floor);
      const s = run(line);
      bare.push(b);
      bwrap.push(f - b);
      added.push(s - b);
      overBwrap.push(s - f);
    }
    const hook = async (engine) => {
      for (let i = 0; i < 5; i++) await engine.fire('PreToolUse', input);
      const times = [];
      for (let i = 0; i < 30; i++) {
        const t = process.hrtime.bigint();
        await engine.fire('PreToolUse', input);
        times.push(ms(t));
      }
      return median(times);
    };
    const withWrap = await hook(boxed);
    const withoutWrap = await hook(plain);
    const addedMedian = median(added);
    return [
      { name: '`bash -c true`, no sandbox (floor)', text: `${median(bare).toFixed(1)} ms` },
      {
        name: `bubblewrap alone (\`bwrap --ro-bind / / /bin/true\`), added over \`bash -c true\` (median of ${PAIRS} rounds)`,
        text: `${median(bwrap).toFixed(1)} ms`,
      },
      {
        name: `added by the sandbox to a command's start, over \`bash -c true\` (median of ${PAIRS} paired runs; target <= 15 ms)`,
        text: `${addedMedian.toFixed(1)} ms ${addedMedian <= 15 ? '(met)' : '(NOT met)'}`,
      },
      { name: 'added by the sandbox over bubblewrap alone (the same rounds)', text: `${median(overBwrap).toFixed(1)} ms` },
      { name: 'shell guard per call, sandbox off (2,000-file workspace)', text: `${withoutWrap.toFixed(2)} ms` },
      { name: 'shell guard per call, with the sandbox wrap', text: `${withWrap.toFixed(2)} ms` },
    ];
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const row of await benchSandbox()) console.log(`${row.name}: ${row.text}`);
}
