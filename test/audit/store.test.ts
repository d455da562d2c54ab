import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/audit/canonical-json.js';
import { GENESIS_HASH, rowCanonicalForm, rowHash } from '../../src/audit/chain.js';
import {
  type AuditStore,
  type AuditStoreOptions,
  countAudit,
  defaultAuditPath,
  openAuditStore,
  queryAudit,
  verifyAudit,
} from '../../src/audit/index.js';
import { sampleRecord, tempDir } from './helpers.js';

const cleanups: Array<() => void> = [];
const stores: AuditStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const c of cleanups.splice(0)) c();
});
function setup(options: AuditStoreOptions = {}) {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const file = path.join(t.dir, 'audit.db');
  const store = openAuditStore({ path: file, ...options });
  stores.push(store);
  return { dir: t.dir, file, store };
}

describe('openAuditStore', () => {
  it('writes a hash chain that verifies, row by row as documented', async () => {
    const { file, store } = setup();
    for (let i = 0; i < 25; i++) store.append(sampleRecord(i));
    await store.close();

    const raw = new Database(file, { readonly: true });
    const rows = raw.prepare('SELECT * FROM audit_log ORDER BY seq').all() as Array<Record<string, string | number | null>>;
    raw.close();
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    let prev = GENESIS_HASH;
    for (const [i, r] of rows.entries()) {
      const rec = sampleRecord(i);
      expect(r.data).toBe(canonicalJson(rec.data));
      expect(r.prev_hash).toBe(prev);
      // The canonical form is the canonical JSON of the row's columns, data as an object.
      const fields = {
        seq: r.seq as number,
        ts: rec.ts,
        sessionId: rec.sessionId,
        kind: rec.kind,
        event: rec.event ?? null,
        decision: rec.decision ?? null,
        tool: rec.tool ?? null,
        data: r.data as string,
      };
      expect(rowCanonicalForm(fields)).toBe(
        canonicalJson({
          seq: r.seq,
          ts: rec.ts,
          session_id: rec.sessionId,
          kind: rec.kind,
          event: rec.event ?? null,
          decision: rec.decision ?? null,
          tool: rec.tool ?? null,
          data: rec.data,
        }),
      );
      expect(r.hash).toBe(rowHash(prev, fields));
      prev = r.hash as string;
    }
    expect(verifyAudit(file)).toMatchObject({ ok: true, rows: 25, headHash: prev, problems: [] });
  });

  it('continues the chain when reopened', async () => {
    const { file, store } = setup();
    for (let i = 0; i < 5; i++) store.append(sampleRecord(i));
    await store.close();
    const again = openAuditStore({ path: file });
    stores.push(again);
    for (let i = 5; i < 9; i++) again.append(sampleRecord(i));
    await again.close();
    expect(verifyAudit(file)).toMatchObject({ ok: true, rows: 9 });
    expect(queryAudit(file).map((r) => (r.data as { i: number }).i)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('keeps one chain when two stores write to the same file in turns', async () => {
    const { file, store } = setup();
    const other = openAuditStore({ path: file });
    stores.push(other);
    for (let i = 0; i < 30; i++) {
      (i % 2 ? other : store).append(sampleRecord(i));
      if (i % 7 === 0) await (i % 2 ? store : other).flush();
    }
    await store.close();
    await other.close();
    expect(verifyAudit(file)).toMatchObject({ ok: true, rows: 30 });
  });

  it('refuses UPDATE and DELETE through SQLite triggers', async () => {
    const { file, store } = setup();
    store.append(sampleRecord(0));
    await store.close();
    const raw = new Database(file);
    try {
      expect(() => raw.prepare(`UPDATE audit_log SET decision = 'allow'`).run()).toThrow(/append-only: UPDATE refused/);
      expect(() => raw.prepare('DELETE FROM audit_log').run()).toThrow(/append-only: DELETE refused/);
    } finally {
      raw.close();
    }
    expect(verifyAudit(file).ok).toBe(true);
  });

  it('buffers appends until the batch is full, then writes them in one go', async () => {
    const { file, store } = setup({ batchSize: 10, flushIntervalMs: 60_000 });
    for (let i = 0; i < 9; i++) store.append(sampleRecord(i));
    expect(store.pending).toBe(9);
    expect(countAudit(file)).toBe(0);
    store.append(sampleRecord(9));
    expect(store.pending).toBe(0);
    expect(countAudit(file)).toBe(10);
  });

  it('flushes a partial batch on its own after flushIntervalMs', async () => {
    const { file, store } = setup({ batchSize: 1000, flushIntervalMs: 5 });
    store.append(sampleRecord(0));
    expect(countAudit(file)).toBe(0);
    await waitFor(() => countAudit(file) === 1);
    expect(store.pending).toBe(0);
  });

  it('appendDurable commits before it returns, with what was buffered before it', () => {
    const { file, store } = setup({ batchSize: 1000, flushIntervalMs: 60_000 });
    store.append(sampleRecord(0));
    store.appendDurable(sampleRecord(1, { kind: 'tool', tool: 'Bash' }));
    // Another connection sees both at once: the tool record is on disk before the tool would run.
    const rows = queryAudit(file);
    expect(rows.map((r) => r.kind)).toEqual(['outcome', 'tool']);
    expect(store.lastCommitted?.seq).toBe(2);
  });

  it('records data as it was when appended', async () => {
    const { file, store } = setup();
    const data: Record<string, unknown> = { decision: 'deny' };
    store.append(sampleRecord(0, { data }));
    data.decision = 'allow';
    await store.flush();
    expect(queryAudit(file)[0]!.data).toEqual({ decision: 'deny' });
  });

  it('loses none of 100,000 records', async () => {
    const { file, store } = setup();
    for (let i = 0; i < 100_000; i++) {
      store.append({
        kind: 'outcome',
        ts: '2026-01-01T00:00:00.000Z',
        sessionId: 's',
        event: 'PreToolUse',
        decision: 'allow',
        tool: 'Bash',
        data: { i },
      });
    }
    await store.flush();
    expect(store.committed).toBe(100_000);
    await store.close();
    expect(countAudit(file)).toBe(100_000);
    const raw = new Database(file, { readonly: true });
    const stats = raw.prepare(`SELECT count(DISTINCT json_extract(data, '$.i')) AS n, min(seq) AS lo, max(seq) AS hi FROM audit_log`).get();
    raw.close();
    expect(stats).toEqual({ n: 100_000, lo: 1, hi: 100_000 });
    expect(verifyAudit(file)).toMatchObject({ ok: true, rows: 100_000 });
  });

  it('a failed appendDurable throws and forgets its record, keeping the older ones', async () => {
    const { file, store } = setup({ batchSize: 1000, flushIntervalMs: 60_000, busyTimeoutMs: 0 });
    store.append(sampleRecord(0));
    const locker = new Database(file);
    locker.exec('BEGIN IMMEDIATE');
    try {
      expect(() => store.appendDurable(sampleRecord(1, { kind: 'tool' }))).toThrow(
        /audit database .* is locked by another process \(waited \d+ ms\)/,
      );
      expect(store.pending).toBe(1);
    } finally {
      locker.exec('ROLLBACK');
      locker.close();
    }
    await store.flush();
    expect(queryAudit(file).map((r) => (r.data as { i: number }).i)).toEqual([0]);
  });

  it('a failed background flush is reported once, kept, and written later', async () => {
    const errors: Error[] = [];
    const { file, store } = setup({ batchSize: 2, flushIntervalMs: 60_000, busyTimeoutMs: 0, onError: (e) => errors.push(e) });
    const locker = new Database(file);
    locker.exec('BEGIN IMMEDIATE');
    try {
      for (let i = 0; i < 7; i++) store.append(sampleRecord(i));
      expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/is locked by another process/)]);
      expect(store.pending).toBe(7);
    } finally {
      locker.exec('ROLLBACK');
      locker.close();
    }
    await store.flush();
    expect(verifyAudit(file)).toMatchObject({ ok: true, rows: 7 });
    store.append(sampleRecord(7));
    store.append(sampleRecord(8));
    expect(store.pending).toBe(0);
  });

  it('rejects records it cannot store, naming the field', () => {
    const { store } = setup();
    expect(() => store.append({ ...sampleRecord(0), kind: 'Other kind' })).toThrow(
      `audit record: kind must be 'outcome', 'tool' or another lower-case name (letters, digits, - _ .; up to 32), got "Other kind"`,
    );
    expect(() => store.append({ ...sampleRecord(0), ts: 'yesterday' })).toThrow(
      'audit record: ts must be an ISO 8601 time string, got "yesterday"',
    );
    // A ts is parsed once and remembered: a good one right before must not let a bad one through.
    store.append(sampleRecord(1));
    store.append(sampleRecord(1));
    expect(() => store.append({ ...sampleRecord(1), ts: 'yesterday' })).toThrow('audit record: ts must be an ISO 8601 time string');
    expect(store.pending).toBe(2);
    store.flushSync();
    expect(() => store.append({ ...sampleRecord(0), tool: 3 as unknown as string })).toThrow(
      'audit record: tool must be a string when given, got number',
    );
    expect(() => store.append({ ...sampleRecord(0), data: { n: 1n } })).toThrow('canonical JSON: $.n is a BigInt');
    expect(store.pending).toBe(0);
  });

  it('says clearly when the path is not a database, and checks its options', () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const file = path.join(t.dir, 'notes.txt');
    writeFileSync(file, 'not a database, just some text that is long enough\n'.repeat(30));
    expect(() => openAuditStore({ path: file })).toThrow(`${file} is not a hookwise audit database: file is not a database`);
    expect(() => openAuditStore({ path: path.join(t.dir, 'a.db'), batchSize: 0 })).toThrow(
      'audit store: batchSize must be a whole number from 1 to 2147483647, got 0',
    );
  });

  it('refuses appends once closed', async () => {
    const { file, store } = setup();
    await store.close();
    await store.close();
    expect(() => store.append(sampleRecord(0))).toThrow(`audit store ${file} is closed; cannot append`);
  });
});

describe('defaultAuditPath', () => {
  it('is .hookwise/audit.db under the folder, unless HOOKWISE_AUDIT_DB says otherwise', () => {
    expect(defaultAuditPath('/w', {})).toBe(path.join('/w', '.hookwise', 'audit.db'));
    expect(defaultAuditPath('/w', { HOOKWISE_AUDIT_DB: 'logs/a.db' })).toBe(path.join('/w', 'logs', 'a.db'));
    expect(defaultAuditPath('/w', { HOOKWISE_AUDIT_DB: '/abs/a.db' })).toBe('/abs/a.db');
  });

  it('is where openAuditStore writes by default, creating the folder', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const cwd = process.cwd();
    process.chdir(t.dir);
    const before = process.env.HOOKWISE_AUDIT_DB;
    delete process.env.HOOKWISE_AUDIT_DB;
    try {
      const store = openAuditStore();
      stores.push(store);
      store.append(sampleRecord(0));
      await store.close();
      expect(store.path).toBe(path.join(t.dir, '.hookwise', 'audit.db'));
      expect(existsSync(path.join(t.dir, '.hookwise', 'audit.db'))).toBe(true);
    } finally {
      process.chdir(cwd);
      if (before !== undefined) process.env.HOOKWISE_AUDIT_DB = before;
    }
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}

describe('a database written before heads were signed', () => {
  it('is upgraded on open: its head is signed and anchored, and it verifies without a single new row', async () => {
    const t = tempDir();
    try {
      const file = path.join(t.dir, 'audit.db');
      const store = openAuditStore({ path: file, anchor: false });
      for (let i = 0; i < 3; i++) store.append(sampleRecord(i));
      await store.close();
      // As the first release left it: no migration ledger, no mac column, no key, no anchor.
      const raw = new Database(file);
      raw.exec('DROP TABLE schema_migrations; ALTER TABLE audit_head DROP COLUMN mac;');
      raw.close();
      rmSync(path.join(t.dir, 'audit.key'));
      expect(verifyAudit(file, { anchor: false })).toMatchObject({ ok: true, rows: 3, signed: false });

      const upgraded = openAuditStore({ path: file });
      await upgraded.close();
      expect(existsSync(`${file}.head`)).toBe(true);
      expect(verifyAudit(file)).toMatchObject({ ok: true, rows: 3, signed: true, anchored: true, problems: [] });
    } finally {
      t.cleanup();
    }
  });
});
