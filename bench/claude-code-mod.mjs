// Claude Code 2.1.328 with hookwise's in-process mod (docs/claude-code.md#the-mod): the
// time each tool call adds, against the same Claude Code with no hook at all. Real
// Claude Code, headless, against the loopback mock of the Messages API, which answers at
// once: the gap between two model requests is one tool call (the model's turn, the hooks
// around the call, the Bash `true` itself). Runs alternate (no hook, mod) in pairs; per
// run, the median gap after the session's first call; the added time is the median of
// the paired differences. The policy is the one `hookwise init` writes; the same policy
// with the shell guard's sandbox off is measured in the same rounds, so the row says
// how much of the added time is the mod and how much the command running in the sandbox.
// Run: npm run build && node bench/claude-code-mod.mjs
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AGENTS, agentBinary, initAgent } from '../test/agents/agents.mjs';

const PAIRS = Number(process.env.HOOKWISE_BENCH_PAIRS ?? 5);
const CALLS = 12;
const agent = AGENTS['claude-code-mod'];

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

/** One headless run of CALLS Bash calls; the gaps between its model requests, in ms. `withMod`: false, true or 'sandbox off'. */
async function run(withMod) {
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
    if (withMod) initAgent('claude-code-mod', project, env);
    if (withMod === 'sandbox off') sandboxOff(project);
    const steps = Array.from({ length: CALLS }, () => agent.shell('true'));
    const child = spawn(
      agentBinary('claude-code-mod'),
      [...agent.args(`Do it.\nSCRIPT: ${JSON.stringify(steps)}`, project), '--max-turns', String(CALLS + 2)],
      {
        cwd: project,
        env,
        stdio: 'ignore',
      },
    );
    await new Promise((resolve) => child.on('close', resolve));
    const at = mock.modelRequests().map((r) => r.at);
    if (at.length !== CALLS + 1) throw new Error(`expected ${CALLS + 1} model requests, got ${at.length}`);
    return at.slice(1).map((t, i) => t - at[i]);
  } finally {
    await mock.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchClaudeCodeMod() {
  agentBinary('claude-code-mod');
  const added = [];
  const unsandboxed = [];
  const first = [];
  const plain = [];
  for (let i = 0; i < PAIRS; i++) {
    const none = await run(false);
    const mod = await run(true);
    const off = await run('sandbox off');
    plain.push(median(none.slice(1)));
    added.push(median(mod.slice(1)) - median(none.slice(1)));
    unsandboxed.push(median(off.slice(1)) - median(none.slice(1)));
    first.push(mod[0] - none[0]);
  }
  return [
    { name: `tool call with no hook (median of ${PAIRS} runs × ${CALLS - 1} calls)`, text: `${median(plain).toFixed(1)} ms` },
    {
      name: 'added per tool call by the mod, after the session’s first (median of paired differences; target <= 25 ms)',
      text: `${median(added).toFixed(1)} ms (pairs: ${added.map((d) => d.toFixed(1)).join(', ')})`,
    },
    {
      name: 'the same with the shell guard’s sandbox off: the mod’s part, without the command running in the sandbox',
      text: `${median(unsandboxed).toFixed(1)} ms (pairs: ${unsandboxed.map((d) => d.toFixed(1)).join(', ')})`,
    },
    { name: 'added to the session’s first tool call (the resident starting, the config loading)', text: `${median(first).toFixed(1)} ms` },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await benchClaudeCodeMod()) console.log(`${row.name}: ${row.text}`);
}
