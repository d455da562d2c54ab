// Claude Code 2.1.328 with hookwise's in-process mod (docs/claude-code.md#the-mod): the
// time each tool call adds, against the same Claude Code with no hook at all. Real
// Claude Code, headless, against the loopback mock of the Messages API, which answers at
// once: the gap between two model requests is one tool call (the model's turn, the hooks
// around the call, the command itself, an `echo`). Per run, the median gap after the session's first
// call; each figure is the median of the paired differences over the rounds.
//
// The policy is the one `hookwise init` writes, whose shell guard answers each command
// with its sandboxed line. Running that line costs what the OS sandbox costs, which has
// its own bar (bench/sandbox.mjs); the mod's bar is what the hook adds, as the drop-ins'
// bar is (bench/claude-code.mjs). So each round also runs Claude Code with no hook while
// the model itself sends the very line the policy answers: the mod's added time is taken
// over that run, with the same command running. The other rows say what the sandboxed
// line costs inside Claude Code, the whole difference, and the policy with its sandbox off.
// Run: npm run build && node bench/claude-code-mod.mjs
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENTS, agentBinary, initAgent } from '../test/agents/agents.mjs';

const PAIRS = Number(process.env.HOOKWISE_BENCH_PAIRS ?? 11);
const CALLS = 12;
const agent = AGENTS['claude-code-mod'];
const HOOKWISE = fileURLToPath(new URL('../bin/hookwise.js', import.meta.url));
/** Each call's command, and what it prints (not in its own text, so the model's requests show it ran). */
const COMMAND = 'echo hookwise-bench-$((40 + 2))';
const OUTPUT = 'hookwise-bench-42';

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** The starter policy `init` wrote, with the shell guard's sandbox off. */
function sandboxOff(project) {
  const file = path.join(project, 'hookwise.config.ts');
  const policy = readFileSync(file, 'utf8');
  if (!policy.includes('shellGuard(),')) throw new Error(`${file}: no \`shellGuard(),\` to turn the sandbox off in`);
  writeFileSync(file, policy.replace('shellGuard(),', "shellGuard({ sandbox: 'off' }),"));
}

/** The line the starter policy answers for `command` in this project (`hookwise claude-code`, no resident). */
function sandboxedLine(project, env, command) {
  const input = { session_id: 'bench', cwd: project, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } };
  const r = spawnSync(process.execPath, [HOOKWISE, 'claude-code', '--no-resident'], {
    cwd: project,
    env: { ...env, CLAUDE_PROJECT_DIR: project },
    input: JSON.stringify(input),
    encoding: 'utf8',
  });
  const line = r.status === 0 ? JSON.parse(r.stdout || '{}').hookSpecificOutput?.updatedInput?.command : undefined;
  if (typeof line !== 'string') throw new Error(`the starter policy gave no sandboxed line for \`${command}\`: ${r.stderr || r.stdout}`);
  return line;
}

/**
 * One headless run of CALLS Bash calls; the gaps between its model requests, in ms.
 * `arm`: 'none' (no hook), 'sandboxed' (no hook; the model sends the policy's sandboxed line),
 * 'mod' (the mod, the starter policy) or 'mod, sandbox off'.
 */
async function run(arm) {
  const mock = await agent.startMock();
  const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-bench-mod-'));
  const project = path.join(dir, 'project');
  const home = path.join(dir, 'home');
  mkdirSync(project, { recursive: true });
  mkdirSync(home, { recursive: true });
  spawnSync('git', ['init', '-q'], { cwd: project });
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    HOOKWISE_RESIDENT_DIR: path.join(dir, 'residents'),
    ...agent.setup({ mockUrl: mock.url }),
  };
  try {
    let command = COMMAND;
    if (arm !== 'none') initAgent('claude-code-mod', project, env);
    if (arm === 'mod, sandbox off') sandboxOff(project);
    if (arm === 'sandboxed') {
      // No hook: neither the mod nor the marker that refuses prompts without it. The line is
      // made after, for the folder as it then is (it names what it binds read-only).
      rmSync(path.join(project, '.claude'), { recursive: true, force: true });
      command = sandboxedLine(project, env, command);
    }
    const steps = Array.from({ length: CALLS }, () => agent.shell(command));
    const child = spawn(
      agentBinary('claude-code-mod'),
      [...agent.args(`Do it.\nSCRIPT: ${JSON.stringify(steps)}`, project), '--max-turns', String(CALLS + 2)],
      { cwd: project, env, stdio: 'ignore' },
    );
    await new Promise((resolve) => child.on('close', resolve));
    const requests = mock.modelRequests();
    const at = requests.map((r) => r.at);
    if (at.length !== CALLS + 1) throw new Error(`${arm}: expected ${CALLS + 1} model requests, got ${at.length}`);
    // Every call ran and printed (a sandboxed line that failed would time nothing worth timing).
    const ran = requests.at(-1).raw.split(OUTPUT).length - 1;
    if (ran < CALLS) throw new Error(`${arm}: ${ran} of the ${CALLS} commands printed ${OUTPUT}`);
    return at.slice(1).map((t, i) => t - at[i]);
  } finally {
    await mock.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const ARMS = ['none', 'sandboxed', 'mod', 'mod, sandbox off'];

export async function benchClaudeCodeMod() {
  agentBinary('claude-code-mod');
  const gaps = Object.fromEntries(ARMS.map((arm) => [arm, []]));
  const first = [];
  for (let i = 0; i < PAIRS; i++) {
    const runs = {};
    for (const arm of ARMS) runs[arm] = await run(arm);
    for (const arm of ARMS) gaps[arm].push(median(runs[arm].slice(1)));
    first.push(runs.mod[0] - runs.sandboxed[0]);
  }
  const added = (arm, over) => gaps[arm].map((g, i) => g - gaps[over][i]);
  const row = (name, diffs) => ({ name, text: `${median(diffs).toFixed(1)} ms (rounds: ${diffs.map((d) => d.toFixed(1)).join(', ')})` });
  return [
    { name: `tool call with no hook (median of ${PAIRS} runs × ${CALLS - 1} calls)`, text: `${median(gaps.none).toFixed(1)} ms` },
    row(
      'added per tool call by the mod with the starter policy, over no hook running the same sandboxed command (target <= 25 ms)',
      added('mod', 'sandboxed'),
    ),
    row('the sandboxed command inside Claude Code, no hook (the OS sandbox’s own bar: bench/sandbox.mjs)', added('sandboxed', 'none')),
    row('the mod with the starter policy, over no hook running the plain command (both together)', added('mod', 'none')),
    row('the mod with the starter policy’s sandbox off, over no hook', added('mod, sandbox off', 'none')),
    { name: 'added to the session’s first tool call (the resident starting, the config loading)', text: `${median(first).toFixed(1)} ms` },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await benchClaudeCodeMod()) console.log(`${row.name}: ${row.text}`);
}
