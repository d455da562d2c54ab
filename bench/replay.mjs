// Replay throughput: first under the starter policy (`hookwise init`'s: the shell guard
// with its OS sandbox, the path and secret guards), 100,000 events of a session's
// calls (2,000 distinct, as sessions repeat themselves; judged once each) and 10,000
// all distinct (every one judged); then an audit trail of 100,000 PreToolUse outcome
// records replayed through a policy of three hooks (a regex deny, a tool-name matcher, a context hook),
// in-process and through the CLI (`hookwise replay <db> --json`, start-up included);
// on SQLite, and on PostgreSQL (HOOKWISE_BENCH_PG, default the local test database)
// when it can be reached. Target: 20,000 events/s or more.
// Run: npm run build && node bench/replay.mjs
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { auditEngine, openAuditStore } from '../dist/audit/index.js';
import { HookEngine, deny } from '../dist/index.js';
import { STARTER_CONFIG } from '../dist/cli/init/starter-config.js';
import { loadJudgingPolicy } from '../dist/cli/replay-policy.js';
import { loadPolicy } from '../dist/policy-test/load-policy.js';
import { replayCalls } from '../dist/replay/replay.js';
import { auditCalls } from '../dist/replay/audit-source.js';

const EVENTS = 100_000;
const KEY = 'b'.repeat(32);
const cli = fileURLToPath(new URL('../bin/hookwise.js', import.meta.url));
const POLICY = `export default { hooks: [
  { name: 'no-rm', events: 'PreToolUse', matcher: { tool: 'Bash', command: '\\\\brm\\\\s+-\\\\w*r' }, handler: () => ({ kind: 'deny', reason: 'no rm -r' }) },
  { name: 'no-web', events: 'PreToolUse', matcher: 'WebFetch', handler: () => ({ kind: 'deny', reason: 'no web' }) },
  { name: 'note', events: 'PreToolUse', matcher: 'Bash', handler: () => undefined },
] };
`;

/** 100,000 fires recorded as a host records them (every tenth an rm -r, refused). */
async function record(target) {
  const store = await openAuditStore(target, { key: KEY, batchSize: 1000 });
  const engine = new HookEngine().register({
    name: 'no-rm',
    events: 'PreToolUse',
    matcher: { tool: 'Bash', command: String.raw`\brm\s+-\w*r` },
    handler: () => deny('no rm -r'),
  });
  auditEngine(engine, store);
  for (let i = 0; i < EVENTS; i++) {
    const command = i % 10 === 0 ? `rm -rf build/${i}` : `ls -la src/${i}`;
    await engine.fire('PreToolUse', { session_id: `s${i % 20}`, tool_name: 'Bash', tool_input: { command }, tool_use_id: `t${i}` });
  }
  await store.flush();
  await store.close();
}

async function inProcess(target, config) {
  const { engine } = await loadPolicy({ files: [config], cwd: path.dirname(config) });
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const summary = await replayCalls(
    engine,
    auditCalls(target, {}),
    { projectDir: path.dirname(config) },
    { difference() {}, problem() {}, skipped() {} },
  );
  const cpu = process.cpuUsage(c0);
  const ms = performance.now() - t0;
  if (summary.calls !== EVENTS || summary.differences !== 0)
    throw new Error(`replay saw ${summary.calls} calls, ${summary.differences} differences`);
  // On a shared, busy machine the wall clock measures the other processes too: CPU time is given beside it.
  return { wall: (EVENTS / ms) * 1000, cpu: EVENTS / ((cpu.user + cpu.system) / 1e6) };
}

function throughCli(target, config) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [cli, 'replay', target, '--json', '--config', config], {
    encoding: 'utf8',
    env: { ...process.env, HOOKWISE_AUDIT_KEY: KEY },
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`hookwise replay exited ${r.status}: ${r.stderr.slice(-500)}`);
  return { wall: (EVENTS / ms) * 1000 };
}

async function pgReachable(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The calls of a coding session: shell commands the starter policy allows (run in the
 * OS sandbox) and refuses, reads and edits inside and outside the project. `distinct`
 * of them, each recorded once through the starter policy with its sandbox on, exactly
 * as a host records it (the call as received, the sandbox line beside it).
 */
function sessionCall(i) {
  const n = i % 97;
  const shell = [
    `ls -la src/m${n}`,
    `cat src/m${n}/index.ts`,
    'git status',
    `git diff src/m${n}`,
    `npm test -- m${n}`,
    `grep -rn "TODO" src/m${n}`,
    `rm -rf /tmp/../etc/m${n}`,
    `npm run deploy -- --prod m${n}`,
  ];
  const k = Math.floor(i / 97) % (shell.length + 3);
  if (k < shell.length) return { tool_name: 'Bash', tool_input: { command: `${shell[k]}${i >= 1000 ? ` #${i}` : ''}` } };
  if (k === shell.length) return { tool_name: 'Read', tool_input: { file_path: `src/m${n}/f${i}.ts` } };
  if (k === shell.length + 1)
    return { tool_name: 'Edit', tool_input: { file_path: `src/m${n}/f${i}.ts`, old_string: 'a', new_string: 'b' } };
  return { tool_name: 'Read', tool_input: { file_path: `/etc/m${i}` } };
}

/** A trail of `events` PreToolUse records cycling through `distinct` calls recorded under the starter policy. */
async function recordStarter(target, project, distinct, events) {
  const { engine } = await loadPolicy({ files: [path.join(project, 'hookwise.config.mjs')], cwd: project });
  const recorded = [];
  auditEngine(engine, { append: (r) => recorded.push(r) });
  for (let i = 0; i < distinct; i++) {
    const call = sessionCall(i);
    await engine.fire('PreToolUse', { session_id: `s${i % 20}`, cwd: project, ...call, tool_use_id: `t${i}` });
  }
  const sandboxed = recorded.filter((r) => r.data.hooks.some((h) => h.sandboxed === true)).length;
  if (sandboxed === 0) throw new Error('no call was run in the OS sandbox: is bubblewrap installed?');
  const store = await openAuditStore(target, { key: KEY, batchSize: 1000 });
  for (let i = 0; i < events; i++) {
    const r = recorded[i % distinct];
    store.append({ ...r, data: { ...r.data, input: { ...r.data.input, tool_use_id: `t${i}` } } });
  }
  await store.close();
  return sandboxed;
}

/** 100,000 events under the starter policy (src/cli/init/starter-config.ts), judged as replay judges. */
export async function starterRows(dir) {
  const project = path.join(dir, 'starter');
  mkdirSync(project, { recursive: true });
  const dist = (p) => pathToFileURL(fileURLToPath(new URL(`../dist/${p}`, import.meta.url))).href;
  writeFileSync(
    path.join(project, 'hookwise.config.mjs'),
    STARTER_CONFIG.replace("from 'hookwise'", `from '${dist('index.js')}'`).replace(
      "from 'hookwise/guards'",
      `from '${dist('guards/index.js')}'`,
    ),
  );
  const rows = [];
  for (const [events, distinct] of [
    [EVENTS, 2_000],
    [10_000, 10_000],
  ]) {
    const db = path.join(dir, `starter-${distinct}.db`);
    const sandboxed = await recordStarter(db, project, distinct, events);
    const { engine } = await loadJudgingPolicy({ files: [path.join(project, 'hookwise.config.mjs')], cwd: project });
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const summary = await replayCalls(engine, auditCalls(db, {}), { projectDir: project }, { difference() {}, problem() {}, skipped() {} });
    const cpu = process.cpuUsage(c0);
    const ms = performance.now() - t0;
    if (summary.calls !== events || summary.differences !== 0)
      throw new Error(`starter replay saw ${summary.calls} calls, ${summary.differences} differences`);
    rows.push({
      name: `starter policy, ${events.toLocaleString('en-US')} events (${distinct.toLocaleString('en-US')} distinct calls, ${sandboxed} of them sandboxed when recorded), in-process`,
      wall: (events / ms) * 1000,
      cpu: events / ((cpu.user + cpu.system) / 1e6),
    });
  }
  return rows;
}

export async function benchReplay() {
  const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-bench-replay-'));
  const config = path.join(dir, 'policy.mjs');
  writeFileSync(config, POLICY);
  const rows = [];
  try {
    rows.push(...(await starterRows(dir)));
    const db = path.join(dir, 'audit.db');
    await record(db);
    rows.push({ name: `SQLite trail, ${EVENTS.toLocaleString('en-US')} events, in-process`, ...(await inProcess(db, config)) });
    rows.push({
      name: `SQLite trail, ${EVENTS.toLocaleString('en-US')} events, \`hookwise replay\` (start-up included)`,
      ...throughCli(db, config),
    });
    const base = process.env.HOOKWISE_BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
    if (await pgReachable(base)) {
      const schema = `hw_bench_replay_${process.pid}`;
      const url = new URL(base);
      url.searchParams.set('schema', schema);
      try {
        await record(url.href);
        rows.push({
          name: `PostgreSQL trail, ${EVENTS.toLocaleString('en-US')} events, \`hookwise replay\``,
          ...throughCli(url.href, config),
        });
      } finally {
        const client = new pg.Client({ connectionString: base });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows.map((r) => ({ ...r, text: describeRate(r) }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await benchReplay()) console.log(`${r.name}: ${describeRate(r)} (target >= 20,000)`);
}

/** `N events/s` by the wall clock, and by CPU time where measured. */
export function describeRate(r) {
  const n = (x) => Math.round(x).toLocaleString('en-US');
  return `${n(r.wall)} events/s${r.cpu !== undefined ? ` (${n(r.cpu)} events/s of CPU time)` : ''}`;
}
