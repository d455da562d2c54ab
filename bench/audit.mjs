// Audit store throughput: buffered appends (the runtime's path for outcome records),
// durable appends (a tool record committed before the tool runs), and verify.
// Run: npm run build && node bench/audit.mjs
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openAuditStore, verifyAudit } from '../dist/audit/index.js';
import { emptyOutcome } from '../dist/index.js';

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

    // The defaults, as the runtime uses them: batches of 1000 committed as they fill.
    const store = openAuditStore({ path: db });
    rows.push(
      await measure(`append + flush (${records} records, batch 1000)`, records, async () => {
        for (const r of prebuilt) store.append(r);
        await store.flush();
      }),
    );

    // What a caller pays on its own thread per append when nothing is flushed (serialising data).
    const unflushed = openAuditStore({ path: path.join(dir, 'unflushed.db'), batchSize: records + 1, flushIntervalMs: 3_600_000 });
    rows.push(
      await measure(`append alone, no flush (${records} records)`, records, () => {
        for (const r of prebuilt) unflushed.append(r);
      }),
    );
    await unflushed.close();

    rows.push(
      await measure(`appendDurable (${durable} records, one commit each)`, durable, () => {
        for (let i = 0; i < durable; i++) store.appendDurable({ ...prebuilt[i], kind: 'tool' });
      }),
    );
    await store.close();

    rows.push(
      await measure(`verify (${records + durable} rows)`, records + durable, () => {
        const result = verifyAudit(db);
        if (!result.ok || result.rows !== records + durable) throw new Error(`bench database does not verify: ${JSON.stringify(result.problems.slice(0, 3))}`);
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(`${'audit store'.padEnd(48)} ${'records/s'.padStart(10)} ${'per CPU-s'.padStart(10)}`);
  const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');
  const before = load();
  for (const row of await benchAudit()) {
    console.log(`${row.name.padEnd(48)} ${String(row.recordsPerSecond).padStart(10)} ${String(row.cpuRecordsPerSecond).padStart(10)}`);
  }
  // The wall-clock rates drop when other processes share the cores: say how busy the machine was.
  console.log(`load average before ${before}, after ${load()}`);
}
