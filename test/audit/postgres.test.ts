import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAuditStore, queryAuditTrail, verifyAuditTrail, type AnyAuditStore } from '../../src/audit/index.js';
import { repoRoot, runCli } from '../cli/run-cli.js';
import { requirePostgres } from '../support/services.js';
import { sampleRecord, tempDir } from './helpers.js';
import { pgSchema } from './pg-schema.js';

// The PostgreSQL store beyond the shared suite: replicas on one chain, a writer
// killed mid-batch, migrations, and `hookwise audit --audit postgres://...`.

const KEY = 'postgres-test-key-0123456789';
const base = await requirePostgres();
const DIST_AUDIT = pathToFileURL(path.join(repoRoot, 'dist', 'audit', 'index.js')).href;

describe.skipIf(base === undefined)('PostgreSQL audit store', () => {
  const schema = pgSchema(base ?? 'postgres://unused', 'pgstore');
  let dir: string;
  let cleanup: () => void;
  beforeAll(() => {
    ({ dir, cleanup } = tempDir());
  });
  afterAll(async () => {
    cleanup();
    await schema.drop();
  });
  const url = () => schema.url;

  it('two stores writing the same stream at once build one unbroken chain, and migrate once', async () => {
    const [a, b] = await Promise.all([
      openAuditStore(url(), { key: KEY, batchSize: 25 }),
      openAuditStore(url(), { key: KEY, batchSize: 25 }),
    ]);
    try {
      const writes: Promise<void>[] = [];
      for (let i = 0; i < 300; i++) {
        const store: AnyAuditStore = i % 2 === 0 ? a : b;
        const record = sampleRecord(i, { sessionId: 'shared', stream: 'tenant-a/shared' });
        if (i % 10 === 0) writes.push(store.appendDurable!(record) as Promise<void>);
        else store.append(record);
      }
      await Promise.all([...writes, a.flush(), b.flush()]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    const result = await verifyAuditTrail(url(), { key: KEY });
    expect(result).toMatchObject({ ok: true, streams: 1, problems: [] });
    const rows = await queryAuditTrail(url(), { sessionId: 'shared' });
    expect(rows).toHaveLength(300);
    expect(rows.map((r) => r.stream)).toEqual(Array(300).fill('tenant-a/shared'));
    expect(new Set(rows.map((r) => (r.data as { i: number }).i)).size).toBe(300);

    const client = new pg.Client({ connectionString: base, options: `-c search_path=${schema.schema}` });
    await client.connect();
    try {
      const ledger = await client.query('SELECT version, name FROM schema_migrations ORDER BY version');
      expect(ledger.rows).toEqual([
        { version: 1, name: 'audit log and heads, one chain per stream' },
        { version: 2, name: 'approvals' },
        { version: 3, name: 'signed approvals' },
        { version: 4, name: 'trail id' },
      ]);
      // Two stores opened the schema at once: one trail id, made by the first.
      expect((await client.query('SELECT count(*)::int AS n FROM audit_trail')).rows).toEqual([{ n: 1 }]);
      // The append-only triggers refuse edits made through SQL.
      await expect(client.query('DELETE FROM audit_log')).rejects.toThrow(/append-only: DELETE refused/);
      await expect(client.query('TRUNCATE audit_log')).rejects.toThrow(/append-only: TRUNCATE refused/);
    } finally {
      await client.end();
    }
  });

  it('a batch waiting for a connection moves the heads to its own tips, not to those of the batch chained after it', async () => {
    // One connection: the second batch in flight waits for it while the first commits,
    // and the third is chained meanwhile. Each head must stop where its batch ends.
    const tight = pgSchema(base!, 'tight');
    try {
      const store = await openAuditStore(tight.url, { key: KEY, poolSize: 1, batchSize: 7 });
      // Known heads first, so every later batch is chained optimistically from them.
      for (let i = 0; i < 3; i++) store.append(sampleRecord(i, { sessionId: `s${i}` }));
      await store.flush();
      for (let i = 3; i < 700; i++) store.append(sampleRecord(i, { sessionId: `s${i % 3}` }));
      await store.close();
      const result = await verifyAuditTrail(tight.url, { key: KEY });
      expect(result.problems).toEqual([]);
      expect(result).toMatchObject({ ok: true, streams: 3, rows: 700 });
    } finally {
      await tight.drop();
    }
  });

  it('a writer SIGKILLed mid-batch loses nothing it acknowledged and leaves chains that verify', async () => {
    const killed = pgSchema(base!, 'killed');
    try {
      const script = path.join(dir, 'pg-writer.mjs');
      writeFileSync(
        script,
        `import { openAuditStore } from ${JSON.stringify(DIST_AUDIT)};
const store = await openAuditStore(${JSON.stringify(killed.url)}, { key: ${JSON.stringify(KEY)}, batchSize: 200 });
let i = 0;
const one = () => {
  const n = i++;
  const record = { kind: n % 4 === 0 ? 'tool' : 'outcome', ts: new Date().toISOString(), sessionId: 's' + (n % 4), data: { n } };
  if (n % 4 !== 0) { store.append(record); return Promise.resolve(); }
  return store.appendDurable(record).then(() => process.stdout.write(n + '\\n'));
};
// Many calls in flight at once, as a busy replica has.
const lanes = Array.from({ length: 64 }, async () => { for (;;) await one(); });
await Promise.all(lanes);
`,
      );
      const acked = await new Promise<number[]>((resolve, reject) => {
        const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          if (out.split('\n').length > 2000) child.kill('SIGKILL');
        });
        child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
        child.on('error', reject);
        child.on('close', (_code, signal) =>
          signal === 'SIGKILL' ? resolve(out.split('\n').slice(0, -1).map(Number)) : reject(new Error(`writer ended by itself: ${err}`)),
        );
      });
      expect(acked.length).toBeGreaterThanOrEqual(2000);
      const result = await verifyAuditTrail(killed.url, { key: KEY });
      expect(result.problems).toEqual([]);
      // One chain per session: s0 to s3.
      expect(result.streams).toBe(4);
      const stored = new Set((await queryAuditTrail(killed.url, { kind: 'tool' })).map((r) => (r.data as { n: number }).n));
      const lost = acked.filter((n) => !stored.has(n));
      expect(lost).toEqual([]);
    } finally {
      await killed.drop();
    }
  });

  it('hookwise audit list, export, verify and coverage take --audit postgres://...', async () => {
    const cli = pgSchema(base!, 'cli');
    try {
      const store = await openAuditStore(cli.url, { key: KEY });
      for (let i = 0; i < 6; i++) store.append(sampleRecord(i, { sessionId: 'cli', kind: 'outcome' }));
      store.append({
        kind: 'outcome',
        ts: new Date().toISOString(),
        sessionId: 'cli',
        event: 'PreToolUse',
        decision: 'allow',
        tool: 'Bash',
        data: { input: { tool_use_id: 'u1' } },
      });
      await store.recordToolExecution({ sessionId: 'cli', toolName: 'Bash', toolInput: { command: 'ls' }, toolUseId: 'u1' });
      await store.close();
      const env = { HOOKWISE_AUDIT_KEY: KEY };
      const run = (args: string[]) => runCli(args, { cwd: dir, env, unset: ['HOOKWISE_AUDIT_DB'] });

      const list = await run(['audit', 'list', '--audit', cli.url, '--json']);
      expect(list.code).toBe(0);
      expect((JSON.parse(list.stdout) as Array<{ seq: number; stream: string }>).map((r) => [r.stream, r.seq])).toEqual(
        Array.from({ length: 8 }, (_, i) => ['cli', i + 1]),
      );
      const exported = await run(['audit', 'export', '--audit', cli.url, '--kind', 'tool']);
      expect(
        exported.stdout
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l).data.tool_use_id),
      ).toEqual(['u1']);
      const verify = await run(['audit', 'verify', '--audit', cli.url]);
      expect(verify.stdout).toBe(
        `ok: 8 rows, chain intact (${cli.url}, head ${(await verifyAuditTrail(cli.url, { key: KEY })).headHash.slice(0, 16)})\n`,
      );
      expect(verify.code).toBe(0);
      const coverage = await run(['audit', 'coverage', '--audit', cli.url]);
      expect(coverage.stdout).toBe(`ok: 1 of 1 tool execution allowed by a PreToolUse outcome (${cli.url})\n`);
      expect(coverage.code).toBe(0);

      const unreachable = await run(['audit', 'verify', '--audit', 'postgres://postgres@127.0.0.1:1/test']);
      expect(unreachable.code).toBe(1);
      expect(unreachable.stderr).toMatch(
        /^hookwise: cannot reach the PostgreSQL audit store postgres:\/\/postgres@127\.0\.0\.1:1\/test: connect ECONNREFUSED/,
      );
      const empty = await run(['audit', 'list', '--audit', `${base}?schema=hw_nothing_here`]);
      expect(empty.code).toBe(1);
      expect(empty.stderr).toBe(
        `hookwise: ${base}?schema=hw_nothing_here is not a hookwise audit store: schema hw_nothing_here has no audit_log table\n`,
      );
    } finally {
      await cli.drop();
    }
  });
});
