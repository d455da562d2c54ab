// The time a user feels per Bash call in a real Claude Code session (issue 37): Claude
// Code 2.1.328, headless, against the loopback mock of the Messages API, which asks for
// CALLS Bash calls of a trivial command and answers at once. Each round runs one session
// of each configuration, interleaved (the order rotates per round):
//
//   none       no hook, the plain command: the floor everything is measured against;
//   sandboxed  no hook, the model itself sends the line the starter policy answers for the
//              command (what the OS sandbox costs inside Claude Code, with no hook);
//   settings   `hookwise init claude-code`: settings hooks, a process per hook call
//              (answered by the resident after the session's first);
//   mod        `hookwise init claude-code --mod`: the in-process mod and its resident;
//   serve      `hookwise init claude-code --serve`: http hooks to a running `hookwise serve`.
//
// A call is timed from the mock's side: from the moment the answer asking for the tool
// left to the moment the next request (carrying the tool's result) arrived. Per session,
// the median over the calls after the first; per configuration, the median over rounds of
// its difference from `none` in the same round. The session's fixed cost is its wall time
// (spawn to exit) less CALLS typical calls, against `none`'s: start-up, the first call's
// extra, the end of the session.
//
// The bar (issue 37): with the sandboxed line included, against `none`, at most 25 ms per
// call through the mod or serve, 100 ms through settings hooks; the mod's fixed cost per
// session at most 300 ms; reported at load 2 and load 6. The load is made here: bounded
// busy loops (each ends by itself after LOOP_LIMIT_MS, and is killed by its pid when the
// measurement ends) added to what the machine already runs, up to the target.
//
// Run: npm run build && node bench/claude-code-calls.mjs [load ...]   (default: 2 6)
// HOOKWISE_BENCH_ROUNDS (default 5), HOOKWISE_BENCH_ARMS (comma list), HOOKWISE_BENCH_LOADS.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENTS, agentBinary, repoRoot } from '../test/agents/agents.mjs';

const ROUNDS = Number(process.env.HOOKWISE_BENCH_ROUNDS ?? 5);
const CALLS = 10;
const ALL_ARMS = ['none', 'long', 'sandboxed', 'settings', 'mod', 'serve'];
const ARMS = process.env.HOOKWISE_BENCH_ARMS ? process.env.HOOKWISE_BENCH_ARMS.split(',') : ALL_ARMS;
const LOOP_LIMIT_MS = 20 * 60_000;
const agent = AGENTS['claude-code-mod'];
const HOOKWISE = fileURLToPath(new URL('../bin/hookwise.js', import.meta.url));
/** Each call's command, and what it prints (not in its own text, so the model's requests show it ran). */
// A command the checkpoint guard proves read-only (printf): no checkpoint is taken for it. HOOKWISE_BENCH_COMMAND
// names another; `echo hookwise-bench-$((40 + 2))` is not proven read-only, and each call then takes a checkpoint.
const COMMAND = process.env.HOOKWISE_BENCH_COMMAND ?? "printf 'hookwise-bench-%s\\n' 42";
const OUTPUT = 'hookwise-bench-42';
const TOKEN = 'bench-token-0123456789abcdef0123';

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const load1 = () => os.loadavg()[0];

function hookwise(args, project, env, input) {
  const r = spawnSync(process.execPath, [HOOKWISE, ...args], {
    cwd: project,
    env: { ...env, CLAUDE_PROJECT_DIR: project },
    input,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`hookwise ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** The line the starter policy answers for `command` in this project (`hookwise claude-code`, no resident). */
function sandboxedLine(project, env, command) {
  const input = { session_id: 'bench', cwd: project, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } };
  const out = hookwise(['claude-code', '--no-resident'], project, env, JSON.stringify(input));
  const line = JSON.parse(out || '{}').hookSpecificOutput?.updatedInput?.command;
  if (typeof line !== 'string') throw new Error(`the starter policy gave no sandboxed line for \`${command}\`: ${out}`);
  return line;
}

/**
 * The long line the sealed one stands for (src/sandbox/sealed-line.ts): its script with the
 * command in place, as hookwise answered before lines were sealed. The same sandbox, only longer.
 */
function longLine(sealed, command) {
  const file = /__hw_f=(?:'([^']*)'|([^;\s]+));/.exec(sealed);
  if (file === null) return sealed;
  const script = readFileSync(file[1] ?? file[2], 'utf8');
  const quoted = `'${command.replace(/'/g, `'\\''`)}'`;
  if (!script.includes('"$__hw_cmd"')) throw new Error(`${file[1] ?? file[2]}: no "$__hw_cmd" to put the command in`);
  return script.replace('"$__hw_cmd"', quoted);
}

/** `hookwise serve` for the project on a free port; the settings' http entries pointed at it. */
async function startServe(project, env) {
  const child = spawn(process.execPath, [HOOKWISE, 'serve', '--port', '0'], {
    cwd: project,
    env: { ...env, HOOKWISE_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`hookwise serve exited ${code}: ${err}`)));
  });
  const file = path.join(project, '.claude', 'settings.json');
  const settings = readFileSync(file, 'utf8');
  if (!settings.includes('http://127.0.0.1:8787')) throw new Error(`${file}: no http entry to hookwise serve`);
  writeFileSync(file, settings.replaceAll('http://127.0.0.1:8787', url));
  return child;
}

/**
 * A project set up for configuration `arm`, as a user's is: hookwise installed, `hookwise
 * init` run once, and a first session already run in it (not measured): a user's sessions
 * start in a project that had one before (the TypeScript config transpiled, the mod's
 * resident knowing what the policy listens to).
 */
async function prepare(arm) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hw-calls-'));
  const project = path.join(dir, 'project');
  const home = path.join(dir, 'home');
  mkdirSync(path.join(project, 'node_modules'), { recursive: true });
  mkdirSync(home, { recursive: true });
  spawnSync('git', ['init', '-q'], { cwd: project });
  // The project installs hookwise (this checkout), as a user's does: the settings entries run it from node_modules.
  symlinkSync(repoRoot, path.join(project, 'node_modules', 'hookwise'));
  writeFileSync(path.join(project, 'package.json'), '{"private":true,"devDependencies":{"hookwise":"*"}}\n');
  const env = { PATH: process.env.PATH, HOME: home, HOOKWISE_RESIDENT_DIR: path.join(dir, 'r') };
  const ctx = { arm, dir, project, env, command: COMMAND, serve: undefined };
  if (arm === 'sandboxed' || arm === 'long') {
    hookwise(['init', 'claude-code'], project, env);
    // No hook at all: the line is made for the folder as it then is (it names what it binds read-only).
    rmSync(path.join(project, '.claude'), { recursive: true, force: true });
    ctx.command = sandboxedLine(project, env, COMMAND);
    if (arm === 'long') ctx.command = longLine(ctx.command, COMMAND);
  } else if (arm === 'settings') hookwise(['init', 'claude-code'], project, env);
  else if (arm === 'mod') hookwise(['init', 'claude-code', '--mod'], project, env);
  else if (arm === 'serve') {
    hookwise(['init', 'claude-code', '--serve'], project, env);
    ctx.serve = await startServe(project, env);
    ctx.env = { ...env, HOOKWISE_TOKEN: TOKEN };
  }
  await session(ctx);
  return ctx;
}

/** Everything a prepared configuration started ends, each by its pid: the server, residents, network proxies. */
async function finish(ctx) {
  ctx.serve?.kill();
  await ctx.mock?.close();
  spawnSync(process.execPath, [HOOKWISE, 'residents', '--stop', '--all'], { env: ctx.env });
  const ps = spawnSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).stdout;
  for (const line of ps.split('\n')) {
    const [pid, ...args] = line.trim().split(' ');
    if (args.join(' ').includes(ctx.dir) && Number(pid) !== process.pid) {
      try {
        process.kill(Number(pid), 'SIGTERM');
      } catch {}
    }
  }
  rmSync(ctx.dir, { recursive: true, force: true });
}

/** One headless session of CALLS Bash calls in a prepared configuration: its call times and wall time, in ms. */
async function session(ctx) {
  // One mock per configuration, as a user's sessions talk to one API: its address is in the hooks' environment,
  // and a resident serves one environment (docs/claude-code.md#the-resident).
  ctx.mock ??= await agent.startMock();
  const mock = ctx.mock;
  const seen = mock.modelRequests().length;
  const env = { ...ctx.env, ...agent.setup({ mockUrl: mock.url }) };
  const steps = Array.from({ length: CALLS }, () => agent.shell(ctx.command));
  const started = performance.now();
  const child = spawn(
    agentBinary('claude-code-mod'),
    [...agent.args(`Do it.\nSCRIPT: ${JSON.stringify(steps)}`, ctx.project), '--max-turns', String(CALLS + 2)],
    { cwd: ctx.project, env, stdio: 'ignore' },
  );
  await new Promise((resolve) => child.on('close', resolve));
  const wall = performance.now() - started;
  const requests = mock.modelRequests().slice(seen);
  if (requests.length !== CALLS + 1) throw new Error(`${ctx.arm}: expected ${CALLS + 1} model requests, got ${requests.length}`);
  // Every call ran and printed (a line that failed would time nothing worth timing).
  const ran = requests.at(-1).raw.split(OUTPUT).length - 1;
  if (ran < CALLS) throw new Error(`${ctx.arm}: ${ran} of the ${CALLS} commands printed ${OUTPUT}`);
  const calls = requests.slice(1).map((r, i) => r.at - requests[i].answered);
  return { calls, wall, beforeFirst: requests[0].at - started, afterLast: started + wall - requests.at(-1).answered };
}

export { prepare, session, finish };

/**
 * How many processes want a CPU now: /proc/stat's procs_running, sampled over a second
 * (less this sampler). The one-minute load average lags: read after other work ended, it
 * still counts that work, and the top-up below fell short of its target.
 */
async function runnableNow() {
  const samples = [];
  for (let i = 0; i < 20; i++) {
    const m = /^procs_running (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
    if (m === null) return load1();
    samples.push(Number(m[1]) - 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return median(samples);
}

/**
 * Busy loops that bring the load to about `target` (what already runs counts); each ends
 * by itself. The sessions being measured keep about one process busy themselves (Claude
 * Code, its shell, the hooks): counted as one.
 */
const SESSIONS_OWN_LOAD = 1;
async function loadTo(target) {
  const loops = [];
  const count = Math.max(0, Math.round(target - SESSIONS_OWN_LOAD - (await runnableNow())));
  for (let i = 0; i < count; i++) {
    loops.push(
      spawn(process.execPath, ['-e', `const end = Date.now() + ${LOOP_LIMIT_MS}; while (Date.now() < end);`], { stdio: 'ignore' }),
    );
  }
  // The 1-minute load average follows in about a minute.
  if (count > 0) await new Promise((resolve) => setTimeout(resolve, 45_000));
  return {
    count,
    stop: () => {
      for (const loop of loops) if (loop.pid !== undefined && loop.exitCode === null) process.kill(loop.pid, 'SIGKILL');
    },
  };
}

/** The rows for one target load. */
export async function measureAtLoad(target) {
  agentBinary('claude-code-mod');
  const loops = await loadTo(target);
  const loads = [];
  const per = Object.fromEntries(ARMS.map((arm) => [arm, { gap: [], fixed: [], first: [] }]));
  const ready = {};
  try {
    for (const arm of ARMS) ready[arm] = await prepare(arm);
    for (let round = 0; round < ROUNDS; round++) {
      const order = ARMS.map((_, i) => ARMS[(i + round) % ARMS.length]);
      for (const arm of order) {
        loads.push(load1());
        const { calls, wall } = await session(ready[arm]);
        const gap = median(calls.slice(1));
        per[arm].gap.push(gap);
        per[arm].fixed.push(wall - CALLS * gap);
        per[arm].first.push(calls[0] - gap);
      }
    }
  } finally {
    for (const ctx of Object.values(ready)) await finish(ctx);
    loops.stop();
  }
  const added = (arm, key) => per[arm][key].map((v, i) => v - per.none[key][i]);
  const spread = (xs) => `${Math.min(...xs).toFixed(1)} to ${Math.max(...xs).toFixed(1)}`;
  return {
    target,
    loops: loops.count,
    load: [Math.min(...loads), Math.max(...loads)],
    none: median(per.none.gap),
    arms: ARMS.filter((a) => a !== 'none').map((arm) => {
      const perCall = added(arm, 'gap');
      const fixed = added(arm, 'fixed');
      return {
        arm,
        perCall: median(perCall),
        perCallSpread: spread(perCall),
        fixed: median(fixed),
        fixedSpread: spread(fixed),
        first: median(added(arm, 'first')),
      };
    }),
  };
}

const BAR = { long: undefined, sandboxed: undefined, settings: 100, mod: 25, serve: 25 };
const NAMES = {
  long: 'the sandboxed line, long (the sandbox script in the line, as before it was sealed), no hook',
  sandboxed: 'the sandboxed line, sealed (short), no hook',
  settings: 'settings hooks (`init claude-code`)',
  mod: 'the mod (`init claude-code --mod`)',
  serve: '`hookwise serve` (`init claude-code --serve`)',
};

/** For `npm run bench`: one row per configuration and load. */
export async function benchClaudeCodeCalls(targets = (process.env.HOOKWISE_BENCH_LOADS ?? '2,6').split(',').map(Number)) {
  const rows = [];
  for (const target of targets) {
    const m = await measureAtLoad(target);
    const at = `load ${m.load.map((l) => l.toFixed(1)).join('-')} (target ${m.target}, ${m.loops} busy loops)`;
    rows.push({
      name: `${at}: a Bash call with no hook (median of ${ROUNDS} sessions × ${CALLS - 1} calls)`,
      text: `${m.none.toFixed(1)} ms`,
    });
    for (const a of m.arms) {
      const bar = BAR[a.arm];
      const verdict =
        a.arm === 'mod' ? ` (bars: ${bar} ms per call, 300 ms per session)` : bar === undefined ? '' : ` (bar: ${bar} ms per call)`;
      rows.push({
        name: `${at}: ${NAMES[a.arm]}, over no hook running the plain command${verdict}`,
        text: `+${a.perCall.toFixed(1)} ms per call (rounds ${a.perCallSpread}); +${a.fixed.toFixed(0)} ms per session (rounds ${a.fixedSpread}; first call +${a.first.toFixed(0)} ms over a later one)`,
      });
    }
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const targets = process.argv.slice(2).map(Number);
  for (const row of await benchClaudeCodeCalls(targets.length > 0 ? targets : undefined)) console.log(`${row.name}: ${row.text}`);
}
