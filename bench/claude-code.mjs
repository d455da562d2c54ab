// `hookwise claude-code` start-up: wall time from spawn to exit, as Claude Code sees it
// on every tool call. A bare `node -e 0` is measured in the same rounds: it is the floor
// on this machine, and the target is a ratio to it (docs/benchmarks.md): the guard
// config (shellGuard() and pathGuard(), PreToolUse for `git status`) within 1.25x,
// median of 20 interleaved runs. Calls are answered by a resident hookwise after the
// first of an identity (docs/claude-code.md#the-resident), as a user's are; the rows
// marked "no resident" are what a first call, or HOOKWISE_RESIDENT=0, costs.
// Run: npm run build && node bench/claude-code.mjs
// HOOKWISE_BENCH_NODE=/path/to/node measures another Node (the floor and start-up costs differ a lot by version).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = path.join(root, 'bin', 'hookwise.js');
const RUNS = 20;
const NODE = process.env.HOOKWISE_BENCH_NODE || process.execPath;

const GIT_STATUS = (dir) =>
  JSON.stringify({
    hook_event_name: 'PreToolUse',
    session_id: 'bench',
    cwd: dir,
    tool_name: 'Bash',
    tool_input: { command: 'git status' },
  });

/** Each drop-in's own input for a `git status` shell call (docs/agents.md). */
const AGENT_INPUTS = {
  codex: GIT_STATUS,
  copilot: GIT_STATUS,
  droid: GIT_STATUS,
  gemini: (dir) =>
    JSON.stringify({
      hook_event_name: 'BeforeTool',
      session_id: 'bench',
      cwd: dir,
      tool_name: 'run_shell_command',
      tool_input: { command: 'git status' },
    }),
  cline: (dir) =>
    JSON.stringify({
      hookName: 'tool_call',
      taskId: 'bench',
      workspaceRoots: [dir],
      tool_call: { id: 'c1', name: 'run_commands', input: { commands: ['git status'] } },
    }),
};
const AGENTS = Object.keys(AGENT_INPUTS);

const INPUT = JSON.stringify({
  hook_event_name: 'PreToolUse',
  session_id: 'bench',
  tool_name: 'Bash',
  tool_input: { command: 'rm -rf build' },
});

/** A project whose node_modules/hookwise is this checkout, with the example config. */
function project(configName) {
  const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-bench-cc-'));
  mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(root, path.join(dir, 'node_modules', 'hookwise'), 'dir');
  symlinkSync('../hookwise/bin/hookwise.js', path.join(dir, 'node_modules', '.bin', 'hookwise'));
  if (configName === 'hookwise.config.ts')
    copyFileSync(path.join(root, 'examples', 'claude-code', 'hookwise.config.ts'), path.join(dir, configName));
  if (configName === 'guards') {
    writeFileSync(
      path.join(dir, 'hookwise.config.mjs'),
      `import { defineConfig } from 'hookwise';\nimport { shellGuard, pathGuard } from 'hookwise/guards';\nexport default defineConfig({ hooks: [shellGuard(), pathGuard()] });\n`,
    );
  }
  if (configName === 'guards, sandbox off') {
    writeFileSync(
      path.join(dir, 'hookwise.config.mjs'),
      `import { defineConfig } from 'hookwise';\nimport { shellGuard, pathGuard } from 'hookwise/guards';\nexport default defineConfig({ hooks: [shellGuard({ sandbox: 'off' }), pathGuard()] });\n`,
    );
  }
  if (configName === 'hookwise.config.mjs') {
    writeFileSync(
      path.join(dir, configName),
      `import { defineConfig, deny } from 'hookwise';\nexport default defineConfig({ hooks: [{ name: 'block-rm', events: 'PreToolUse', matcher: 'Bash', handler: (i) => String(i.tool_input?.command ?? '').includes('rm -rf') ? deny('no') : undefined }] });\n`,
    );
  }
  return dir;
}

/**
 * Every case is spawned RUNS times, round-robin, so a burst of load on the machine
 * hits all cases alike. msPerRun is the best time (the run least disturbed, as
 * bench/harness.mjs does); the median says how typical that is.
 */
function timeAll(cases) {
  const times = cases.map(() => []);
  for (let i = 0; i < RUNS + 2; i++) {
    cases.forEach(({ command = NODE, args, cwd, env = {}, input = '' }, c) => {
      const t0 = performance.now();
      const r = spawnSync(command, args, { cwd, input, env: { ...process.env, ...env } });
      const ms = performance.now() - t0;
      if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
      if (i >= 2) times[c].push(ms);
    });
  }
  return cases.map(({ name }, c) => {
    const sorted = [...times[c]].sort((x, y) => x - y);
    return { name, msPerRun: sorted[0], medianMs: median(times[c]), times: times[c] };
  });
}

const median = (xs) => {
  const sorted = [...xs].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)];
};

/** The median of the per-round ratios (each round ran both, one after the other) and the ratio of the medians. */
function ratioRow(name, a, floor) {
  const perRound = median(a.times.map((t, i) => t / floor.times[i]));
  return {
    name,
    msPerRun: a.medianMs,
    text: `${perRound.toFixed(2)}x per round (medians ${a.medianMs.toFixed(0)} / ${floor.medianMs.toFixed(0)} ms = ${(a.medianMs / floor.medianMs).toFixed(2)}x)`,
  };
}

export async function benchClaudeCode() {
  const residents = mkdtempSync(path.join(tmpdir(), 'hookwise-bench-residents-'));
  const dirs = [residents];
  const previous = { on: process.env.HOOKWISE_RESIDENT, dir: process.env.HOOKWISE_RESIDENT_DIR };
  process.env.HOOKWISE_RESIDENT = '1';
  process.env.HOOKWISE_RESIDENT_DIR = path.join(residents, 'r');
  try {
    const empty = project(null);
    const mjs = project('hookwise.config.mjs');
    const ts = project('hookwise.config.ts');
    dirs.push(empty, mjs, ts);
    const hook = (dir, env = {}) => ({ cwd: dir, input: INPUT, env: { CLAUDE_PROJECT_DIR: dir, ...env } });
    const direct = `const m = await import(${JSON.stringify(pathToFileURL(path.join(root, 'dist', 'cli', 'commands', 'claude-code.js')).href)}); process.exitCode = await m.runClaudeCode([]);`;
    // The TypeScript config is transpiled once here, so the cached case measures a cache hit.
    spawnSync(NODE, [bin, 'claude-code'], { ...hook(ts), env: { ...process.env, CLAUDE_PROJECT_DIR: ts } });
    const guards = project('guards');
    // The same guards answering without the sandboxed line: what the wrap itself costs a drop-in.
    const unwrapped = project('guards, sandbox off');
    dirs.push(guards, unwrapped);
    const rows = timeAll([
      { name: "node -e 0 (the floor: Node's own start-up)", args: ['-e', '0'] },
      {
        name: 'claude-code, shellGuard() + pathGuard(), PreToolUse `git status`',
        args: [bin, 'claude-code'],
        cwd: guards,
        input: GIT_STATUS(guards),
        env: { CLAUDE_PROJECT_DIR: guards },
      },
      {
        name: 'the same, no resident (a first call; HOOKWISE_RESIDENT=0)',
        args: [bin, 'claude-code'],
        cwd: guards,
        input: GIT_STATUS(guards),
        env: { CLAUDE_PROJECT_DIR: guards, HOOKWISE_RESIDENT: '0' },
      },
      {
        name: 'the same through npx (`npx hookwise claude-code`, hookwise installed)',
        command: 'npx',
        args: ['hookwise', 'claude-code'],
        cwd: guards,
        input: GIT_STATUS(guards),
        env: { CLAUDE_PROJECT_DIR: guards },
      },
      { name: 'hookwise --version', args: [bin, '--version'] },
      { name: 'claude-code, no config in the project', args: [bin, 'claude-code'], ...hook(empty) },
      { name: 'claude-code, hookwise.config.mjs (deny)', args: [bin, 'claude-code'], ...hook(mjs) },
      {
        name: 'claude-code, hookwise.config.ts, transpiled config cached, no resident',
        args: [bin, 'claude-code'],
        ...hook(ts, { HOOKWISE_RESIDENT: '0' }),
      },
      {
        name: 'runClaudeCode() directly (no commander), hookwise.config.ts cached',
        args: ['--input-type=module', '-e', direct],
        ...hook(ts),
      },
      {
        name: 'claude-code, hookwise.config.ts, no cache (jiti every run), no resident',
        args: [bin, 'claude-code'],
        ...hook(ts, { HOOKWISE_NO_CACHE: '1', HOOKWISE_RESIDENT: '0' }),
      },
      {
        name: "codex, shellGuard({ sandbox: 'off' }) + pathGuard(), PreToolUse `git status` (no wrap)",
        args: [bin, 'codex'],
        cwd: unwrapped,
        input: AGENT_INPUTS.codex(unwrapped),
      },
      // The other agents' drop-ins (docs/agents.md): the same resident path, the project found from the input's cwd.
      ...AGENTS.map((agent) => ({
        name: `${agent}, shellGuard() + pathGuard(), PreToolUse \`git status\``,
        args: [bin, agent],
        cwd: guards,
        input: AGENT_INPUTS[agent](guards),
      })),
    ]);
    const [floor, guarded] = rows;
    const agents = rows.slice(-AGENTS.length);
    const noWrap = rows[rows.length - AGENTS.length - 1];
    return [
      ...rows.map((r) => ({ ...r, text: `${r.medianMs.toFixed(1)} ms median (best ${r.msPerRun.toFixed(1)} ms)` })),
      ratioRow('guard config vs node -e 0 (target: 1.25x)', guarded, floor),
      ...agents.map((r, i) => ratioRow(`${AGENTS[i]} guard config vs node -e 0 (target: 1.25x)`, r, floor)),
      ratioRow('codex, sandbox off, vs node -e 0 (what the drop-in costs without the wrap)', noWrap, floor),
      ratioRow('codex with the sandbox wrap vs without (same rounds)', agents[0], noWrap),
    ];
  } finally {
    spawnSync(NODE, [bin, 'residents', '--stop', '--all'], { env: process.env });
    for (const [name, value] of [
      ['HOOKWISE_RESIDENT', previous.on],
      ['HOOKWISE_RESIDENT_DIR', previous.dir],
    ])
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await benchClaudeCode()) console.log(`${row.name}: ${row.text}`);
}
