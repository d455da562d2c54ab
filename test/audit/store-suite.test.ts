import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  auditCoverage,
  openAuditStore,
  queryAuditTrail,
  verifyAuditTrail,
  type AnyAuditStore,
  type AuditRecord,
} from '../../src/audit/index.js';
import { requirePostgres } from '../support/services.js';
import { sampleRecord, tamper, tempDir } from './helpers.js';
import { pgSchema, pgTamper } from './pg-schema.js';

/**
 * One suite, both stores: what a caller relies on (the chain, signed heads,
 * durable appends, tampering caught, tool executions and coverage) must not
 * depend on which store it writes to.
 */
const KEY = 'suite-key-0123456789abcdef';
const pgUrl = await requirePostgres();

interface Backend {
  /** A fresh, empty store target (a file, or a URL with its own schema). */
  fresh(): string;
  /** Removes the last row of the session's chain and rewrites the head to match, as an attacker with database access would. */
  cutLastRow(target: string, sessionId: string): Promise<void>;
  /** Edits the data of the row at `seq` in the session's chain. */
  editRow(target: string, sessionId: string, seq: number): Promise<void>;
}

const cleanups: Array<() => void | Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const sqlite: Backend = {
  fresh() {
    const t = tempDir();
    cleanups.push(t.cleanup);
    return path.join(t.dir, 'audit.db');
  },
  async cutLastRow(file) {
    tamper(file, 'DELETE FROM audit_log WHERE seq = (SELECT max(seq) FROM audit_log)');
    tamper(
      file,
      'UPDATE audit_head SET seq = (SELECT max(seq) FROM audit_log), hash = (SELECT hash FROM audit_log ORDER BY seq DESC LIMIT 1)',
    );
  },
  async editRow(file, _session, seq) {
    tamper(file, `UPDATE audit_log SET data = json_set(data, '$.reason', 'nothing to see') WHERE seq = ?`, seq);
  },
};

const postgres: Backend = {
  fresh() {
    const s = pgSchema(pgUrl!, 'suite');
    cleanups.push(s.drop);
    return s.url;
  },
  async cutLastRow(url, sessionId) {
    const schema = new URL(url).searchParams.get('schema')!;
    await pgTamper(pgUrl!, schema, 'DELETE FROM audit_log WHERE stream = $1 AND seq = (SELECT max(seq) FROM audit_log WHERE stream = $1)', [
      sessionId,
    ]);
    await pgTamper(
      pgUrl!,
      schema,
      'UPDATE audit_head SET seq = l.seq, hash = l.hash FROM (SELECT seq, hash FROM audit_log WHERE stream = $1 ORDER BY seq DESC LIMIT 1) AS l WHERE audit_head.stream = $1',
      [sessionId],
    );
  },
  async editRow(url, sessionId, seq) {
    const schema = new URL(url).searchParams.get('schema')!;
    await pgTamper(
      pgUrl!,
      schema,
      `UPDATE audit_log SET data = replace(data, '"reason":"', '"reason":"nothing to see ') WHERE stream = $1 AND seq = $2`,
      [sessionId, seq],
    );
  },
};

const backends: Array<[string, Backend | undefined]> = [
  ['SQLite', sqlite],
  ['PostgreSQL', pgUrl ? postgres : undefined],
];

describe.each(backends.filter(([, b]) => b !== undefined) as Array<[string, Backend]>)('audit store on %s', (_name, backend) => {
  const stores: AnyAuditStore[] = [];
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
  });
  async function open(target: string): Promise<AnyAuditStore> {
    const store = await openAuditStore(target, { key: KEY, flushIntervalMs: 20 });
    stores.push(store);
    return store;
  }
  const record = (i: number, sessionId = 'session-0', overrides: Partial<AuditRecord> = {}) => sampleRecord(i, { sessionId, ...overrides });

  it('writes a chain that verifies, with signed heads, and reads back what was appended', async () => {
    const target = backend.fresh();
    const store = await open(target);
    for (let i = 0; i < 30; i++) store.append(record(i, `session-${i % 3}`));
    await store.close();
    const result = await verifyAuditTrail(target, { key: KEY });
    expect(result).toMatchObject({ ok: true, rows: 30, signed: true, problems: [] });
    const rows = await queryAuditTrail(target);
    expect(rows.map((r) => (r.data as { i: number }).i).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    // Each session's records in the order they were appended.
    const session1 = await queryAuditTrail(target, { sessionId: 'session-1' });
    expect(session1.map((r) => (r.data as { i: number }).i)).toEqual([1, 4, 7, 10, 13, 16, 19, 22, 25, 28]);
  });

  it('a durable append is committed when it returns, before any flush or close', async () => {
    const target = backend.fresh();
    const store = await open(target);
    store.append(record(0));
    await store.appendDurable!(record(1, 'session-0', { kind: 'tool' }));
    // A separate reader sees both: the durable record and everything appended before it.
    const rows = await queryAuditTrail(target);
    expect(rows.map((r) => [r.kind, (r.data as { i: number }).i])).toEqual([
      ['outcome', 0],
      ['tool', 1],
    ]);
  });

  it('keeps appending to the chain when reopened', async () => {
    const target = backend.fresh();
    const first = await open(target);
    for (let i = 0; i < 4; i++) first.append(record(i));
    await first.close();
    const again = await open(target);
    for (let i = 4; i < 7; i++) again.append(record(i));
    await again.close();
    expect(await verifyAuditTrail(target, { key: KEY })).toMatchObject({ ok: true, rows: 7 });
    expect((await queryAuditTrail(target)).map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('catches an edited row', async () => {
    const target = backend.fresh();
    const store = await open(target);
    for (let i = 0; i < 5; i++) store.append(record(i));
    await store.close();
    await backend.editRow(target, 'session-0', 3);
    const result = await verifyAuditTrail(target, { key: KEY });
    expect(result.ok).toBe(false);
    expect(result.problems.map((p) => [p.kind, p.seq])).toEqual([['edited', 3]]);
  });

  it('catches the last row cut off with the head rewritten to match: the head is not signed with the key', async () => {
    const target = backend.fresh();
    const store = await open(target);
    for (let i = 0; i < 5; i++) store.append(record(i));
    await store.close();
    await backend.cutLastRow(target, 'session-0');
    const result = await verifyAuditTrail(target, { key: KEY });
    expect(result.ok).toBe(false);
    expect(result.problems).toContainEqual(
      expect.objectContaining({
        kind: 'forged-head',
        seq: 4,
        message: expect.stringMatching(/head.* \(seq 4\) is not signed with the audit key/),
      }),
    );
  });

  it('says a signed head cannot be checked without the key, and that a wrong key does not match', async () => {
    const target = backend.fresh();
    const store = await open(target);
    store.append(record(0));
    await store.close();
    const keyless = await verifyAuditTrail(target, { keyFile: undefined, key: undefined, anchor: true });
    // The test environment has no HOOKWISE_AUDIT_KEY and no key file beside the store.
    expect(keyless.ok).toBe(false);
    expect(keyless.problems[0]).toMatchObject({ kind: 'anchor', message: expect.stringMatching(/signed but no audit key was found/) });
    // One signed head (PostgreSQL's one stream) alone: a wrong key and a rewritten head look the same.
    const wrong = await verifyAuditTrail(target, { key: 'another-key-0123456789', anchor: false });
    expect(wrong.problems[0]).toMatchObject({ kind: 'forged-head' });
  });

  it('a wrong key is a key mismatch naming where the key came from, not tampering', async () => {
    const target = backend.fresh();
    const store = await open(target);
    store.append(record(0, 'session-a'));
    store.append(record(1, 'session-b'));
    await store.close();
    // Every signed head (SQLite: head and anchor; PostgreSQL: one per stream) fails, the rows check out.
    const wrong = await verifyAuditTrail(target, { key: 'another-key-0123456789' });
    expect(wrong.ok).toBe(false);
    expect(wrong.problems).toEqual([
      expect.objectContaining({
        kind: 'key-mismatch',
        message: expect.stringMatching(
          /^none of the 2 signed heads matches the audit key from the key option, .*a key mismatch, not tampering/,
        ),
      }),
    ]);
    // The key that signs them is one verify can find: it says which.
    const t = tempDir();
    cleanups.push(t.cleanup);
    const keyFile = path.join(t.dir, 'right.key');
    writeFileSync(keyFile, KEY, { mode: 0o600 });
    const named = await verifyAuditTrail(target, { key: 'another-key-0123456789', keyFile });
    expect(named.problems).toEqual([
      expect.objectContaining({
        kind: 'key-mismatch',
        message: `the heads are signed with the audit key from the key file ${keyFile} (--key-file), not with the one verify used, from the key option: a key mismatch, not tampering; verify with the key file ${keyFile} (--key-file)`,
      }),
    ]);
    expect(JSON.stringify(named.problems)).not.toContain('another-key');
  });

  it('records tool executions, and coverage names the ones no PreToolUse allowed', async () => {
    const target = backend.fresh();
    const store = await open(target);
    const pre = (id: string, decision: string | null, extra: Record<string, unknown> = {}) =>
      store.append({
        kind: 'outcome',
        ts: new Date().toISOString(),
        sessionId: 's',
        event: 'PreToolUse',
        decision,
        tool: 'Bash',
        data: { decision, blocked: decision === 'deny', stop: false, ...extra, input: { tool_name: 'Bash', tool_use_id: id } },
      });
    pre('call-1', 'allow');
    await store.recordToolExecution({ sessionId: 's', toolName: 'Bash', toolInput: { command: 'ls' }, toolUseId: 'call-1', host: 'test' });
    pre('call-2', 'deny');
    await store.recordToolExecution({ sessionId: 's', toolName: 'Bash', toolInput: { command: 'rm -rf /' }, toolUseId: 'call-2' });
    await store.recordToolExecution({ sessionId: 's', toolName: 'Bash', toolInput: { command: 'ls' }, toolUseId: 'call-1' });
    pre('call-3', null);
    await store.recordToolExecution({ sessionId: 's', toolName: 'Bash', toolInput: {}, toolUseId: 'call-3' });
    await store.recordToolExecution({ sessionId: 'other', toolName: 'Bash', toolInput: {}, toolUseId: 'call-3' });
    await store.close();

    const rows = await queryAuditTrail(target, { kind: 'tool', sessionId: 's' });
    expect(rows[0]!.data).toEqual({ tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'call-1', host: 'test' });
    const coverage = await auditCoverage(target);
    expect(coverage).toMatchObject({ executions: 5, covered: 2 });
    expect(coverage.uncovered.map((u) => [u.sessionId, u.toolUseId, u.why])).toEqual([
      ['s', 'call-2', expect.stringMatching(/^PreToolUse refused tool_use_id call-2 \(seq \d+: deny\), yet the tool ran$/)],
      ['s', 'call-1', 'no PreToolUse outcome allowed tool_use_id call-1 in session s before it ran'],
      ['other', 'call-3', 'no PreToolUse outcome allowed tool_use_id call-3 in session other before it ran'],
    ]);
    expect(await verifyAuditTrail(target, { key: KEY })).toMatchObject({ ok: true, rows: 8 });
  });

  it('stores other record kinds in the chain, and refuses kinds that are not lower-case names', async () => {
    const target = backend.fresh();
    const store = await open(target);
    store.append({ kind: 'approval', ts: new Date().toISOString(), sessionId: 's', data: { state: 'pending', tool_use_id: 'x' } });
    expect(() => store.append({ kind: 'Approval!', ts: new Date().toISOString(), sessionId: 's', data: {} })).toThrow(
      /kind must be 'outcome', 'tool' or another lower-case name/,
    );
    await store.close();
    expect((await queryAuditTrail(target, { kind: 'approval' })).map((r) => r.data)).toEqual([{ state: 'pending', tool_use_id: 'x' }]);
    expect(await verifyAuditTrail(target, { key: KEY })).toMatchObject({ ok: true, rows: 1 });
  });
});
