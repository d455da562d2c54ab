import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyAudit, verifyAuditTrail } from '../../src/audit/index.js';
import { requirePostgres } from '../support/services.js';
import { tempDir } from './helpers.js';
import { pgSchema } from './pg-schema.js';
import { runWriter } from './writer-process.js';

// Several processes appending to one trail at once, as parallel subagents, several
// agents in one project or a fleet do. Each opens the trail while the others write
// (the open reads the chain's end, the anchor and hookwise's own copy of the head),
// and every record must be there afterwards, in a chain that verifies.

const KEY = 'concurrent-writers-key-0123456789';
const WRITERS = 4;
const RECORDS = 500;
const base = await requirePostgres();
const cleanups: Array<() => void | Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups.splice(0)) await c();
});

function tempState(): { dir: string; env: NodeJS.ProcessEnv } {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return { dir: t.dir, env: { HOOKWISE_AUDIT_KEY: KEY, HOOKWISE_STATE_DIR: path.join(t.dir, 'state') } };
}

/** Every (writer, i) pair exactly once. */
function expectEveryRecord(pairs: Array<{ writer: number; i: number }>, writers: number, records: number): void {
  const seen = new Set(pairs.map((p) => `${p.writer}:${p.i}`));
  expect(pairs.length).toBe(writers * records);
  expect(seen.size).toBe(writers * records);
  for (let w = 0; w < writers; w++) for (const i of [0, records - 1]) expect(seen.has(`${w}:${i}`)).toBe(true);
}

describe('concurrent writers on one SQLite trail', () => {
  for (const mode of ['buffered', 'durable'] as const) {
    it(`${WRITERS} processes × ${RECORDS} ${mode} records: none refused, every record present, verify clean`, async () => {
      const { dir, env } = tempState();
      const db = path.join(dir, 'audit.db');
      const runs = await Promise.all(Array.from({ length: WRITERS }, (_, id) => runWriter(db, id, RECORDS, { mode, env })));
      for (const run of runs) {
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
      }
      const read = new Database(db, { readonly: true });
      const pairs = (read.prepare(`SELECT data FROM audit_log`).pluck().all() as string[]).map((d) => JSON.parse(d));
      read.close();
      expectEveryRecord(pairs, WRITERS, RECORDS);
      const result = verifyAudit(db, { key: KEY, stateDir: env.HOOKWISE_STATE_DIR });
      expect(result.problems).toEqual([]);
      expect(result.headCopy).toBe('checked');
      expect(result.rows).toBe(WRITERS * RECORDS);
    });
  }
});

describe.skipIf(base === undefined)('concurrent writers on one PostgreSQL trail', () => {
  it(`${WRITERS} processes × ${RECORDS} records: every record present, verify clean`, async () => {
    const { env } = tempState();
    const schema = pgSchema(base!, 'concurrent');
    cleanups.push(schema.drop);
    const runs = await Promise.all(Array.from({ length: WRITERS }, (_, id) => runWriter(schema.url, id, RECORDS, { env })));
    for (const run of runs) {
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
    }
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      const { rows } = await client.query<{ data: { writer: number; i: number } }>(`SELECT data FROM "${schema.schema}".audit_log`);
      expectEveryRecord(
        rows.map((r) => (typeof r.data === 'string' ? JSON.parse(r.data) : r.data)),
        WRITERS,
        RECORDS,
      );
    } finally {
      await client.end();
    }
    const result = await verifyAuditTrail(schema.url, { key: KEY, stateDir: env.HOOKWISE_STATE_DIR });
    expect(result.problems).toEqual([]);
    expect(result.headCopy).toBe('checked');
  });
});
