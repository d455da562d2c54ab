// Replay throughput: an audit trail of 100,000 PreToolUse outcome records replayed
// through a policy of three hooks (a regex deny, a tool-name matcher, a context hook),
// in-process and through the CLI (`hookwise replay <db> --json`, start-up included);
// on SQLite, and on PostgreSQL (HOOKWISE_BENCH_PG, default the local test database)
// when it can be reached. Target: 20,000 events/s or more.
// Run: npm run build && node bench/replay.mjs
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { auditEngine, openAuditStore } from '../dist/audit/index.js';
import { HookEngine, deny } from '../dist/index.js';
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

export async function benchReplay() {
  const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-bench-replay-'));
  const config = path.join(dir, 'policy.mjs');
  writeFileSync(config, POLICY);
  const rows = [];
  try {
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
