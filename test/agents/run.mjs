#!/usr/bin/env node
/**
 * `npm run test:agents`: every case of cases.mjs in every real agent CLI (installed
 * into .cache/ on first use), headless against a loopback mock model, with
 * `hookwise init <agent>` as the only set-up. Exit 1 on any failed check.
 *
 *   node test/agents/run.mjs [--agent codex] [--filter text] [--jobs 2] [--verbose]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AGENTS, agentBinary, initAgent, repoRoot, runAgent, stopResidents } from './agents.mjs';
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
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    HOOKWISE_RESIDENT_DIR: path.join(dir, 'residents'),
    ...AGENTS[agent].setup({ home, mockUrl: mock.url, project }),
    ...c.env,
  };
  try {
    if (c.config) writeFileSync(path.join(project, 'hookwise.config.mjs'), c.config);
    if (!c.withoutHookwise) initAgent(agent, project, env);
    const steps = c.steps.map((s) =>
      s.shell
        ? AGENTS[agent].shell(s.shell)
        : s.shells
          ? AGENTS[agent].shells(s.shells)
          : AGENTS[agent].write(s.write[0], s.write[1], project),
    );
    const prompt = `Do it.\nSCRIPT: ${JSON.stringify(steps)}`;
    const run = await runAgent(agent, { project, prompt, env });
    const failures = check(c.expect, { project, mock, env });
    return { failures, run, requests: mock.modelRequests().length };
  } finally {
    await mock.close();
    stopResidents(env);
    rmSync(dir, { recursive: true, force: true });
  }
}

function check(expect, { project, mock, env }) {
  const failures = [];
  for (const f of expect.absent ?? []) if (existsSync(path.join(project, f))) failures.push(`${f} exists: the refused call ran`);
  for (const f of expect.present ?? [])
    if (!existsSync(path.join(project, f))) failures.push(`${f} is missing: the allowed call did not run`);
  const requests = mock.modelRequests();
  for (const text of expect.seen ?? []) if (!requests.some((r) => r.raw.includes(text))) failures.push(`"${text}" never reached the model`);
  if (expect.maxModelRequests !== undefined && requests.length > expect.maxModelRequests)
    failures.push(`${requests.length} model requests: the agent was kept going`);
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
