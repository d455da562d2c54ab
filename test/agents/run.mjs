#!/usr/bin/env node
/**
 * `npm run test:agents`: every case of cases.mjs in every real agent CLI (installed
 * into .cache/ on first use), headless against a loopback mock model, with
 * `hookwise init <agent>` as the only set-up. Exit 1 on any failed check.
 *
 *   node test/agents/run.mjs [--agent codex] [--filter text] [--jobs 2] [--verbose]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AGENTS, agentBinary, initAgent, initArgs, mcpServerFor, repoRoot, runAgent, stopResidents } from './agents.mjs';
import { cases } from './cases.mjs';
import { startMockOpenAI } from './mock-openai.mjs';

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const only = option('--agent');
const filter = option('--filter');
const jobs = Number(option('--jobs') ?? 2);
const verbose = args.includes('--verbose');

const agents = Object.keys(AGENTS).filter((a) => !only || a === only);
for (const a of agents) agentBinary(a);
const work = agents.flatMap((agent) =>
  cases
    .filter((c) => (!filter || c.name.includes(filter)) && (!c.agents || c.agents.includes(agent)) && !c.except?.includes(agent))
    .map((c) => ({ agent, c })),
);

async function runCase({ agent, c }) {
  // Each agent's model API: OpenAI Responses unless its entry names its own mock.
  const mock = await (AGENTS[agent].startMock ?? startMockOpenAI)();
  const dir = mkdtempSync(path.join(tmpdir(), `hookwise-${agent}-`));
  const project = path.join(dir, 'project');
  const home = path.join(dir, 'home');
  mkdirSync(project, { recursive: true });
  mkdirSync(home, { recursive: true });
  spawnSync('git', ['init', '-q'], { cwd: project });
  const mcpServer = c.mcp ? mcpServerFor(project) : undefined;
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    HOOKWISE_RESIDENT_DIR: path.join(dir, 'residents'),
    ...AGENTS[agent].setup({ home, mockUrl: mock.url, project, mcpServer }),
    ...c.env,
  };
  try {
    const extraArgs = (mcpServer && AGENTS[agent].mcp?.({ home, project, server: mcpServer })?.args) || [];
    // The project's state before the agent runs (a commit, uncommitted work): each command must succeed.
    for (const command of c.setup ?? []) {
      const r = spawnSync('bash', ['-c', command], { cwd: project, env: { ...env, ...GIT_IDENTITY }, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`setup \`${command}\` exited ${r.status}: ${r.stderr}`);
    }
    if (c.config) writeFileSync(path.join(project, 'hookwise.config.mjs'), c.config);
    if (!c.withoutHookwise) initAgent(agent, project, env);
    // What happens to the machine after init (a clone's missing state, another project's init): each must succeed.
    for (const command of c.afterInit ?? []) {
      const vars = {
        HOOKWISE_ROOT: repoRoot,
        HOOKWISE_BIN: path.join(repoRoot, 'bin', 'hookwise.js'),
        HOOKWISE_INIT_ARGS: initArgs(agent).join(' '),
      };
      const r = spawnSync('bash', ['-c', command], { cwd: project, env: { ...env, ...GIT_IDENTITY, ...vars }, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`afterInit \`${command}\` exited ${r.status}: ${r.stderr}`);
    }
    // Each session is a run of its own in the same project (a second session reuses what the first left: its resident).
    const sessions = [c.steps, ...(c.nextSession ? [c.nextSession] : [])];
    let run;
    let lastSessionFrom = 0;
    let hung = false;
    for (const steps of sessions) {
      lastSessionFrom = mock.modelRequests().length;
      const prompt = `Do it.\nSCRIPT: ${JSON.stringify(steps.map((s) => stepFor(agent, s, project)))}`;
      run = await runAgent(agent, { project, prompt, env, extraArgs });
      hung ||= run.killed;
    }
    // What a detached hook records may land after the agent exits: waited for, up to settleMs.
    const until = Date.now() + (c.expect.settleMs ?? 0);
    while (Date.now() < until && !(c.expect.present ?? []).every((f) => existsSync(path.join(project, f))))
      await new Promise((r) => setTimeout(r, 250));
    const failures = check(c.expect, { agent, project, mock, env, lastSessionFrom, output: run.output });
    // A run killed at the time limit did nothing and refused nothing: what its files say proves nothing either way.
    if (hung) failures.unshift('the agent was killed at the time limit: it never finished, so nothing here was shown');
    return { failures, run, requests: mock.modelRequests().length };
  } finally {
    await mock.close();
    stopResidents(env);
    rmSync(dir, { recursive: true, force: true });
  }
}

const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.com',
};

/** One script step as the agent's own tool call. */
function stepFor(agent, s, project) {
  const a = AGENTS[agent];
  if (s.shell) return a.shell(s.shell);
  if (s.shells) return a.shells(s.shells);
  if (s.edit) return a.edit(s.edit[0], s.edit[1], s.edit[2], project);
  if (s.mcp) return a.mcpStep?.(s.mcp[0], s.mcp[1]) ?? { name: `@mcp:${s.mcp[0]}`, args: s.mcp[1] };
  return a.write(s.write[0], s.write[1], project);
}

function check(expect, { agent, project, mock, env, lastSessionFrom, output }) {
  const failures = [];
  // The refusal's reason, shown or sent to the model; an agent that never shows a hook's reason must show the refusal its own way.
  if (expect.refusedSaying) {
    const said = output.includes(expect.refusedSaying) || mock.modelRequests().some((r) => r.raw.includes(expect.refusedSaying));
    const shown = AGENTS[agent].refusalShownAs?.test(output) || (AGENTS[agent].refusedPromptUnseen && mock.modelRequests().length === 0);
    if (!said && !shown) failures.push(`"${expect.refusedSaying}" was neither shown nor sent to the model`);
  }
  for (const [f, text] of Object.entries(expect.contains ?? {})) {
    const body = existsSync(path.join(project, f)) ? readFileSync(path.join(project, f), 'utf8') : '(missing)';
    if (!body.includes(text)) failures.push(`${f} holds ${JSON.stringify(body.slice(0, 80))}, not ${JSON.stringify(text)}: work was lost`);
  }
  for (const [f, count] of Object.entries(expect.lines ?? {})) {
    const body = existsSync(path.join(project, f)) ? readFileSync(path.join(project, f), 'utf8') : '';
    const lines = body.split('\n').filter(Boolean).length;
    if (lines !== count)
      failures.push(`${f} holds ${lines} lines, not ${count}: an event was answered ${lines > count ? 'twice' : 'never'}`);
  }
  for (const f of expect.absent ?? []) if (existsSync(path.join(project, f))) failures.push(`${f} exists: the refused call ran`);
  for (const f of expect.present ?? [])
    if (!existsSync(path.join(project, f))) failures.push(`${f} is missing: the allowed call did not run`);
  const requests = mock.modelRequests();
  for (const text of expect.seen ?? []) if (!requests.some((r) => r.raw.includes(text))) failures.push(`"${text}" never reached the model`);
  for (const text of expect.unseen ?? []) if (requests.some((r) => r.raw.includes(text))) failures.push(`"${text}" reached the model`);
  for (const text of expect.seenLast ?? [])
    if (!requests.slice(lastSessionFrom).some((r) => r.raw.includes(text)))
      failures.push(`"${text}" never reached the model in the last session`);
  if (expect.maxModelRequests !== undefined && requests.length > expect.maxModelRequests)
    failures.push(`${requests.length} model requests: the agent was kept going`);
  if (expect.undone) {
    // Back to before the destructive step: `undo --to`, since the steps after it are undone too.
    const hookwise = (...a) =>
      spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'hookwise.js'), ...a], { cwd: project, env, encoding: 'utf8' });
    const steps = JSON.parse(hookwise('timeline', '--json').stdout || '[]');
    const lossy = steps.find((s) => s.lost?.length);
    if (!lossy) failures.push(`no step with a loss in the timeline (${steps.length} steps)`);
    else {
      const r = hookwise('undo', '--to', String(lossy.n));
      if (r.status !== 0) failures.push(`hookwise undo exited ${r.status}: ${r.stderr.trim()}`);
    }
    for (const [f, text] of Object.entries(expect.undone)) {
      const body = existsSync(path.join(project, f)) ? readFileSync(path.join(project, f), 'utf8') : '(missing)';
      if (!body.includes(text))
        failures.push(`after hookwise undo ${f} holds ${JSON.stringify(body.slice(0, 80))}, not ${JSON.stringify(text)}`);
    }
  }
  if (expect.audited) {
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'hookwise.js'), 'audit', 'export'], {
      cwd: project,
      env: { ...env, HOOKWISE_AUDIT_DB: path.join(project, env.HOOKWISE_AUDIT_DB) },
      encoding: 'utf8',
    });
    const rows = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    if (!rows.some((row) => row.event === 'PreToolUse' && JSON.stringify(row).includes(expect.audited)))
      failures.push(`no PreToolUse record of ${expect.audited} in the audit trail (${rows.length} records; ${r.stderr.trim()})`);
  }
  return failures;
}

const results = [];
let next = 0;
async function worker() {
  while (next < work.length) {
    const item = work[next++];
    const r = await runCase(item);
    results.push({ ...item, ...r });
    const ok = r.failures.length === 0;
    process.stdout.write(`${ok ? 'pass' : 'FAIL'}  [${item.agent} ${AGENTS[item.agent].version}] ${item.c.name}\n`);
    for (const f of r.failures) process.stdout.write(`      ${f}\n`);
    if (!ok || verbose)
      process.stdout.write(
        `      (exit ${r.run.code}${r.run.signal ? ` ${r.run.signal}` : ''}, ${r.requests} model requests)\n${
          verbose || !ok
            ? r.run.output
                .split('\n')
                .slice(-25)
                .map((l) => `      | ${l}`)
                .join('\n')
            : ''
        }\n`,
      );
  }
}
await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
const failed = results.filter((r) => r.failures.length > 0);
for (const agent of agents) {
  const mine = results.filter((r) => r.agent === agent);
  process.stdout.write(
    `${AGENTS[agent].label} ${AGENTS[agent].version}: ${mine.length - mine.filter((r) => r.failures.length).length} of ${mine.length} cases pass\n`,
  );
}
process.exitCode = failed.length === 0 ? 0 : 1;
