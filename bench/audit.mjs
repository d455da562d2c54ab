// Audit store throughput: buffered appends (the runtime's path for outcome records),
// durable appends (a tool record committed before the tool runs), and verify; on
// SQLite, with the anchor file and without it (its cost, measured side by side); on
// PostgreSQL (HOOKWISE_BENCH_PG, default the local test database) batched and with
// many concurrent durable callers.
// Run: npm run build && node bench/audit.mjs
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { openAuditStore, verifyAudit, verifyAuditTrail } from '../dist/audit/index.js';
import { emptyOutcome } from '../dist/core/outcome.js';

/** A record shaped like what auditEngine writes for a PreToolUse fire. */
function outcomeRecord(i) {
  return {
    kind: 'outcome',
    ts: new Date().toISOString(),
    sessionId: `bench-${i % 4}`,
    event: 'PreToolUse',
    decision: i % 10 === 0 ? 'deny' : 'allow',
    tool: 'Bash',
    data: {
      ...emptyOutcome('PreToolUse'),
      decision: i % 10 === 0 ? 'deny' : 'allow',
      blocked: i % 10 === 0,
      reason: i % 10 === 0 ? 'rm -rf is not allowed' : null,
      hooks: [{ name: 'no-rm-rf', status: 'ok', result: 'allow', durationMs: 0.04, error: null }],
      input: { tool_name: 'Bash', tool_input: { command: `ls -la src/${i}` }, tool_use_id: `toolu_${i}` },
    },
  };
}

function rate(count, ms) {
  return Math.round(count / (ms / 1000));
}

/**
 * Times `fn` by the wall clock and by this process's CPU time. On a shared, busy
 * machine the wall-clock rate drops with the load; the CPU rate (records per
 * CPU-second, all threads counted) is what one free core would sustain.
 */
async function measure(name, count, fn) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await fn();
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { name, recordsPerSecond: rate(count, wallMs), cpuRecordsPerSecond: rate(count, (used.user + used.system) / 1000) };
}

export async function benchAudit({ records = 200_000, durable = 5_000 } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-bench-audit-'));
  const rows = [];
  try {
    const db = path.join(dir, 'audit.db');
    const prebuilt = Array.from({ length: records }, (_, i) => outcomeRecord(i));

    // Anchoring off: the peer that shows what the anchor file costs.
    const bare = openAuditStore({ path: path.join(dir, 'bare.db'), anchor: false, key: KEY });
    rows.push(
      await measure(`append + flush, no anchor file (${records} records, batch 1000)`, records, async () => {
        for (const r of prebuilt) bare.append(r);
        await bare.flush();
      }),
    );
    await bare.close();

    // The defaults, as the runtime uses them: batches of 1000 committed as they fill, each anchored.
    const store = openAuditStore({ path: db, key: KEY });
    rows.push(
      await measure(`append + flush (${records} records, batch 1000)`, records, async () => {
        for (const r of prebuilt) store.append(r);
        await store.flush();
      }),
    );

    // What a caller pays on its own thread per append when nothing is flushed (serialising data).
    const unflushed = openAuditStore({
      path: path.join(dir, 'unflushed.db'),
      batchSize: records + 1,
      flushIntervalMs: 3_600_000,
      key: KEY,
    });
    rows.push(
      await measure(`append alone, no flush (${records} records)`, records, () => {
        for (const r of prebuilt) unflushed.append(r);
      }),
    );
    await unflushed.close();

    rows.push(
      await measure(`appendDurable (${durable} records, one commit + anchor each)`, durable, () => {
        for (let i = 0; i < durable; i++) store.appendDurable({ ...prebuilt[i], kind: 'tool' });
      }),
    );
    await store.close();

    rows.push(
      await measure(`verify (${records + durable} rows)`, records + durable, () => {
        const result = verifyAudit(db, { key: KEY });
        if (!result.ok || result.rows !== records + durable)
          throw new Error(`bench database does not verify: ${JSON.stringify(result.problems.slice(0, 3))}`);
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  rows.push(...(await benchPostgres(records)));
  rows.push(...(await benchConcurrentWriters()));
  return rows;
}

const WRITER = fileURLToPath(new URL('../test/fixtures/audit/writer.mjs', import.meta.url));

/** Runs `writers` writer processes of `count` records each into `target` at once; resolves to the wall time in ms. */
async function writeConcurrently(target, writers, count, env) {
  const start = performance.now();
  await Promise.all(
    Array.from(
      { length: writers },
      (_, id) =>
        new Promise((resolve, reject) => {
          const child = spawn(process.execPath, [WRITER, target, String(count), String(id)], {
            stdio: ['ignore', 'ignore', 'pipe'],
            env: { ...process.env, ...env },
          });
          let stderr = '';
          child.stderr.on('data', (d) => (stderr += d));
          child.on('close', (code) =>
            code === 0 && stderr === '' ? resolve() : reject(new Error(`writer ${id} failed (${code}): ${stderr}`)),
          );
        }),
    ),
  );
  return performance.now() - start;
}

/**
 * 8 processes × 5,000 records into one trail at once (parallel subagents, a fleet),
 * on SQLite and PostgreSQL; the floor is one process writing the same 40,000
 * records alone, in the same run. Each trail must hold every record and verify.
 */
export async function benchConcurrentWriters({ writers = 8, each = 5_000 } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-bench-writers-'));
  const env = { HOOKWISE_AUDIT_KEY: KEY, HOOKWISE_STATE_DIR: path.join(dir, 'state') };
  const total = writers * each;
  const rows = [];
  const row = (name, ms) => ({ name, recordsPerSecond: rate(total, ms), cpuRecordsPerSecond: Number.NaN });
  const check = (result, what) => {
    if (!result.ok || result.rows !== total)
      throw new Error(`${what}: ${result.rows} of ${total} rows, problems ${JSON.stringify(result.problems.slice(0, 3))}`);
  };
  try {
    const alone = path.join(dir, 'alone.db');
    rows.push(row(`SQLite, 1 writer process × ${total} records (floor)`, await writeConcurrently(alone, 1, total, env)));
    check(verifyAudit(alone, { key: KEY, stateDir: env.HOOKWISE_STATE_DIR }), 'the floor trail');
    const shared = path.join(dir, 'shared.db');
    rows.push(row(`SQLite, ${writers} writer processes × ${each} records, one trail`, await writeConcurrently(shared, writers, each, env)));
    check(verifyAudit(shared, { key: KEY, stateDir: env.HOOKWISE_STATE_DIR }), 'the shared SQLite trail');
    const base = process.env.HOOKWISE_BENCH_PG || 'postgres://postgres@127.0.0.1:5432/test';
    const admin = new pg.Client({ connectionString: base, connectionTimeoutMillis: 5000 });
    try {
      await admin.connect();
    } catch {
      return rows;
    }
    const schema = `hw_bench_writers_${process.pid}`;
    const url = `${base}${base.includes('?') ? '&' : '?'}schema=${schema}`;
    try {
      rows.push(
        row(`PostgreSQL, ${writers} writer processes × ${each} records, one trail`, await writeConcurrently(url, writers, each, env)),
      );
      check(await verifyAuditTrail(url, { key: KEY, stateDir: env.HOOKWISE_STATE_DIR }), 'the shared PostgreSQL trail');
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

const KEY = 'bench-audit-key-0123456789abcdef';

/** user + system CPU time of a process, in ms, from /proc (Linux; NaN elsewhere). */
function serverCpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/** The same records on PostgreSQL, in a schema of their own, dropped afterwards. */
async function benchPostgres(records) {
  const base = process.env.HOOKWISE_BENCH_PG || 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `hw_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: base, connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
  } catch (error) {
    return [
      {
        name: `PostgreSQL not reachable at ${base} (${error.message}): set HOOKWISE_BENCH_PG`,
        recordsPerSecond: 0,
        cpuRecordsPerSecond: 0,
      },
    ];
  }
  // application_name finds the store's server processes, whose CPU time is counted too (below).
  const url = `${base}${base.includes('?') ? '&' : '?'}schema=${schema}&application_name=${schema}`;
  const rows = [];
  try {
    const prebuilt = Array.from({ length: records }, (_, i) => outcomeRecord(i));
    const store = await openAuditStore(url, { key: KEY });
    const backends = async () =>
      (await admin.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [schema])).rows.map((r) => r.pid);
    const before = new Map((await backends()).map((pid) => [pid, serverCpuMs(pid)]));
    const batched = await measure(`PostgreSQL append + flush (${records} records, batch 1000, 4 streams)`, records, async () => {
      for (const r of prebuilt) store.append(r);
      await store.flush();
    });
    rows.push(batched);
    // The server processes' CPU time too: on free cores, the slower of client and server sets the pace
    // (two batches are in flight, so they overlap); on one core, their sum does.
    let serverMs = 0;
    for (const pid of await backends()) serverMs += serverCpuMs(pid) - (before.get(pid) ?? 0);
    if (serverMs > 0) {
      const clientMs = records / (batched.cpuRecordsPerSecond / 1000);
      const row = (name, ms) => ({ name, recordsPerSecond: rate(records, ms), cpuRecordsPerSecond: rate(records, ms) });
      rows.push(row('... per CPU-second of the PostgreSQL server processes', serverMs));
      rows.push(row('... per CPU-second of client and server together (one core)', clientMs + serverMs));
    }
    // Durable records from many callers at once (a replica serving many sessions) share commits.
    const durable = 20_000;
    const callers = 64;
    let next = 0;
    rows.push(
      await measure(`PostgreSQL appendDurable (${durable} records, ${callers} concurrent callers)`, durable, async () => {
        await Promise.all(
          Array.from({ length: callers }, async () => {
            while (next < durable) await store.appendDurable({ ...prebuilt[next++], kind: 'tool' });
          }),
        );
      }),
    );
    await store.close();
    rows.push(
      await measure(`PostgreSQL verify (${records + durable} rows)`, records + durable, async () => {
        const result = await verifyAuditTrail(url, { key: KEY });
        if (!result.ok || result.rows !== records + durable)
          throw new Error(`bench database does not verify: ${JSON.stringify(result.problems.slice(0, 3))}`);
      }),
    );
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(`${'audit store'.padEnd(48)} ${'records/s'.padStart(10)} ${'per CPU-s'.padStart(10)}`);
  const load = () =>
    loadavg()
      .map((n) => n.toFixed(2))
      .join(' ');
  const before = load();
  for (const row of await benchAudit()) {
    console.log(
      `${row.name.padEnd(48)} ${String(row.recordsPerSecond).padStart(10)} ${(Number.isNaN(row.cpuRecordsPerSecond) ? '-' : String(row.cpuRecordsPerSecond)).padStart(10)}`,
    );
  }
  // The wall-clock rates drop when other processes share the cores: say how busy the machine was.
  console.log(`load average before ${before}, after ${load()}`);
}
