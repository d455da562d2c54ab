/**
 * A fleet under load: 3 `hookwise serve` replicas sharing one Redis (budgets, rate
 * limits) and an audit trail, 200 concurrent sessions of PreToolUse/PostToolUse
 * (autocannon, bounded in time, 67/67/66 connections per replica, one session per
 * connection). Checks: no acknowledged audit record lost or duplicated, every chain
 * verifies, the shared budget count is exact. Then again with one replica SIGKILLed
 * half-way: the same guarantees for everything acknowledged.
 *
 * The audit trail is one PostgreSQL store shared by the replicas (a fresh schema per
 * run, dropped afterwards; HOOKWISE_BENCH_PG, default the local test database). When
 * PostgreSQL cannot be reached, each replica gets its own SQLite file instead, and the
 * row says so.
 *
 *   node bench/fleet.mjs            (needs Redis on 127.0.0.1:6379 or HOOKWISE_TEST_REDIS)
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { percentile, startListening, stop } from './serve.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const REDIS = process.env.HOOKWISE_TEST_REDIS || 'redis://127.0.0.1:6379';
const REPLICAS = 3;
const TOKEN = 'fleet-token-0123456789abcdef';
// One signing key for the fleet, as a deployment would share it (docs/fleet.md): heads are signed and verified.
const AUDIT_KEY = 'fleet-audit-key-0123456789abcdef';
const PG = process.env.HOOKWISE_BENCH_PG || 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh schema on the shared PostgreSQL, or null when it does not answer. */
async function freshPostgresSchema(name) {
  const client = new pg.Client({ connectionString: PG, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
    await client.query(`CREATE SCHEMA ${name}`);
    return `${PG}${PG.includes('?') ? '&' : '?'}schema=${name}`;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

async function dropPostgresSchema(name) {
  const client = new pg.Client({ connectionString: PG });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
  await client.end();
}

export async function benchFleet({ durationS = Number(process.env.HOOKWISE_BENCH_FLEET_S ?? 10), kill = false } = {}) {
  const dir = path.join(root, '.tmp', `bench-fleet-${kill ? 'kill' : 'steady'}`);
  rmSync(dir, { recursive: true, force: true });
  const project = path.join(dir, 'project');
  mkdirSync(path.join(project, 'src'), { recursive: true });
  writeFileSync(
    path.join(dir, 'policy.config.mjs'),
    `import { defineConfig } from 'hookwise';\nimport { shellGuard, pathGuard, secretGuard, budgetGuard } from 'hookwise/guards';\n` +
      `export default defineConfig({ hooks: [budgetGuard({ maxToolCalls: 1_000_000 }), shellGuard(), pathGuard(), secretGuard()] });\n`,
  );
  const tokenSha256 = createHash('sha256').update(TOKEN).digest('hex');
  writeFileSync(path.join(dir, 'tenants.json'), JSON.stringify({ tenants: [{ name: 'fleet', tokenSha256, config: 'policy.config.mjs' }] }));
  const prefix = `hookwise-bench-${process.pid}-${Date.now()}:`;
  const pgSchema = `bench_fleet_${process.pid}_${kill ? 'kill' : 'steady'}`;
  const sharedAudit = await freshPostgresSchema(pgSchema);
  const audits = Array.from({ length: REPLICAS }, (_, i) => sharedAudit ?? path.join(dir, `audit-${i}.db`));

  const replicas = [];
  for (let i = 0; i < REPLICAS; i++) {
    replicas.push(
      await startListening(
        [
          path.join(root, 'bin', 'hookwise.js'),
          'serve',
          '--port',
          '0',
          '--tenants',
          path.join(dir, 'tenants.json'),
          '--counters',
          REDIS,
          '--counters-prefix',
          prefix,
          '--audit',
          audits[i],
          '--no-watch',
        ],
        { cwd: dir, env: { ...process.env, HOOKWISE_AUDIT_KEY: AUDIT_KEY } },
      ),
    );
  }

  const acked = new Map(); // tool_use_id:event -> replica
  const times = [];
  const sent = { pre: 0, post: 0 };
  let ackedPre = 0;
  let failures = 0;
  let nextSession = 0;
  let nextCall = 0;
  const body = (context, event) => {
    const input = {
      session_id: context.session,
      transcript_path: '/dev/null',
      cwd: project,
      permission_mode: 'default',
      hook_event_name: event,
      tool_name: 'Bash',
      tool_input: { command: 'git status' },
      tool_use_id: context.call,
    };
    if (event === 'PostToolUse') input.tool_response = { stdout: 'On branch main', stderr: '', interrupted: false };
    return JSON.stringify(input);
  };
  const run = (replica, i, connections) => {
    const instance = autocannon({
      url: `${replica.url}/v1/claude-code`,
      connections,
      duration: durationS,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      requests: [
        {
          setupRequest: (req, context) => {
            context.session ??= `session-${nextSession++}`;
            context.call = `call-${nextCall++}`;
            sent.pre++;
            return { ...req, body: body(context, 'PreToolUse') };
          },
          onResponse: (status, _body, context) => {
            if (status === 200) {
              ackedPre++;
              acked.set(`${context.call}:PreToolUse`, i);
            }
          },
        },
        {
          setupRequest: (req, context) => {
            sent.post++;
            return { ...req, body: body(context, 'PostToolUse') };
          },
          onResponse: (status, _body, context) => {
            if (status === 200) acked.set(`${context.call}:PostToolUse`, i);
          },
        },
      ],
    });
    instance.on('response', (_c, status, _b, ms) => (status === 200 ? times.push(ms) : failures++));
    return instance;
  };
  const started = Date.now();
  const split = [67, 67, 66];
  const loads = replicas.map((r, i) => run(r, i, split[i]));
  let killedAt;
  if (kill) {
    await new Promise((r) => setTimeout(r, (durationS * 1000) / 2));
    replicas[1].child.kill('SIGKILL');
    killedAt = Date.now() - started;
  }
  const results = await Promise.all(loads);
  const elapsedS = (Date.now() - started) / 1000;
  const codes = await Promise.all(replicas.map((r) => stop(r.child)));

  // The trail: every acknowledged record present exactly once, every chain verifies.
  const { queryAuditTrail, verifyAuditTrail } = await import(path.join(root, 'dist', 'audit', 'index.js'));
  const seen = new Map();
  let chainsOk = true;
  let rows = 0;
  let preRows = 0;
  for (const file of new Set(audits)) {
    chainsOk &&= (await verifyAuditTrail(file, { key: AUDIT_KEY })).ok;
    for (const row of await queryAuditTrail(file)) {
      rows++;
      if (row.event === 'PreToolUse') preRows++;
      const key = `${row.data.input?.tool_use_id}:${row.event}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
  }
  const duplicated = [...seen.values()].filter((n) => n > 1).length;
  const lost = [...acked.keys()].filter((k) => !seen.has(k)).length;

  // The budget: Redis counted every acknowledged PreToolUse, once.
  const { Redis } = await import('ioredis');
  const redis = new Redis(REDIS);
  let counted = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}tenant:fleet:budget:*:toolCalls`, 'COUNT', 1000);
    cursor = next;
    for (const v of keys.length ? await redis.mget(...keys) : []) counted += Number(v);
  } while (cursor !== '0');
  const stale = [];
  cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    stale.push(...keys);
  } while (cursor !== '0');
  if (stale.length) await redis.del(...stale);
  await redis.quit();
  rmSync(dir, { recursive: true, force: true });
  if (sharedAudit) await dropPostgresSchema(pgSchema);

  times.sort((a, b) => a - b);
  return {
    name:
      (kill ? `3 replicas, 200 sessions, replica 2 SIGKILLed at ${(killedAt / 1000).toFixed(1)} s` : '3 replicas, 200 sessions') +
      (sharedAudit ? ', one PostgreSQL trail' : `, one SQLite file per replica (PostgreSQL not reachable at ${PG})`),
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    answered: times.length,
    failures: failures + results.reduce((n, r) => n + r.errors + r.timeouts, 0),
    recordsPerSecond: rows / elapsedS,
    rows,
    acked: acked.size,
    lost,
    duplicated,
    chainsOk,
    ackedPre,
    sentPre: sent.pre,
    preRows,
    budgetCounted: counted,
    // Every PreToolUse a replica answered is in its trail (the answer waits for the commit), so
    // the count must equal the trail's; a killed replica may have counted a call it never answered.
    budgetExact: kill ? counted >= preRows && counted <= sent.pre : counted === preRows,
    exitCodes: codes,
  };
}

export const describeFleetRow = (r) => [
  r.name,
  `p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms; ${r.answered.toLocaleString('en-US')} answers, ${r.failures} failed; ` +
    `${Math.round(r.recordsPerSecond).toLocaleString('en-US')} records/s; acknowledged ${r.acked}, lost ${r.lost}, duplicated ${r.duplicated}, chains ${r.chainsOk ? 'verify' : 'BROKEN'}; ` +
    `budget counted ${r.budgetCounted} for ${r.preRows} PreToolUse in the trail (${r.ackedPre} acknowledged to the load generator before it stopped, ${r.sentPre} sent): ${r.budgetExact ? 'exact' : 'WRONG'}`,
];

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const only = process.argv[2];
  if (only !== 'kill') console.log(describeFleetRow(await benchFleet()).join(': '));
  if (only !== 'steady') console.log(describeFleetRow(await benchFleet({ kill: true })).join(': '));
}

/** For bench/run.mjs: both runs, or none (with one line saying why) when Redis is not reachable. */
export async function benchFleetRuns() {
  const { Redis } = await import('ioredis');
  const probe = new Redis(REDIS, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => {});
  try {
    await probe.connect();
    await probe.quit();
  } catch {
    console.log(`fleet: skipped, Redis is not reachable at ${REDIS} (start redis-server, or set HOOKWISE_TEST_REDIS)`);
    return [];
  }
  return [await benchFleet(), await benchFleet({ kill: true })];
}
