import { writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { rowHash } from '../../src/audit/chain.js';
import { AuditDatabaseFormatError, AuditDatabaseMissingError, openAuditStore, verifyAudit } from '../../src/audit/index.js';
import { sampleRecord, tamper, tempDir } from './helpers.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A database of `n` records: seq k holds sampleRecord(k - 1). */
async function chain(n = 10): Promise<string> {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const file = path.join(t.dir, 'audit.db');
  const store = openAuditStore({ path: file });
  for (let i = 0; i < n; i++) store.append(sampleRecord(i));
  await store.close();
  return file;
}

describe('verifyAudit', () => {
  it('passes an untouched chain, an empty one too', async () => {
    expect(verifyAudit(await chain(10))).toMatchObject({ ok: true, rows: 10, problems: [] });
    expect(verifyAudit(await chain(0))).toMatchObject({ ok: true, rows: 0, problems: [] });
  });

  it('names an edited row', async () => {
    const file = await chain();
    tamper(file, `UPDATE audit_log SET decision = 'ask' WHERE seq = 4`);
    const result = verifyAudit(file);
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([
      {
        seq: 4,
        kind: 'edited',
        event: 'PreToolUse',
        tool: 'Read',
        message: 'seq 4 (PreToolUse, tool Read, session session-1) was edited: its hash does not match its content',
      },
    ]);
  });

  it('catches a change that keeps the JSON meaning of data', async () => {
    const file = await chain();
    tamper(file, `UPDATE audit_log SET data = ' ' || data WHERE seq = 2`);
    expect(verifyAudit(file).problems.map((p) => [p.seq, p.kind])).toEqual([[2, 'edited']]);
  });

  it('names the row rewritten with a fresh hash, through the broken link after it', async () => {
    const file = await chain();
    const raw = new Database(file, { readonly: true });
    const row = raw.prepare('SELECT * FROM audit_log WHERE seq = 5').get() as Record<string, string | number>;
    raw.close();
    const forged = rowHash(row.prev_hash as string, {
      seq: 5,
      ts: row.ts as string,
      sessionId: row.session_id as string,
      kind: row.kind as string,
      event: row.event as string,
      decision: 'allow',
      tool: row.tool as string,
      data: row.data as string,
    });
    tamper(file, `UPDATE audit_log SET decision = 'allow', hash = ? WHERE seq = 5`, forged);
    const result = verifyAudit(file);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatchObject({ seq: 5, kind: 'broken-link' });
    expect(result.problems[0]!.message).toMatch(/^seq 5 \(Stop, session session-0\) was rewritten or replaced: seq 6 /);
  });

  it('names a deleted row', async () => {
    const file = await chain();
    tamper(file, 'DELETE FROM audit_log WHERE seq = 6');
    expect(verifyAudit(file).problems).toEqual([
      {
        seq: 6,
        kind: 'deleted',
        event: 'PreToolUse',
        tool: 'Bash',
        message: 'row 6 is missing: the chain resumes at seq 7 (PreToolUse, tool Bash, session session-0)',
      },
    ]);
  });

  it('names several deleted rows, at the start and at the end too', async () => {
    const file = await chain();
    tamper(file, 'DELETE FROM audit_log WHERE seq IN (1, 2, 5, 6, 7, 10)');
    expect(verifyAudit(file).problems.map((p) => [p.seq, p.kind, p.message.split(':')[0]])).toEqual([
      [1, 'deleted', 'rows 1-2 are missing'],
      [5, 'deleted', 'rows 5-7 are missing'],
      [10, 'deleted', 'row 10 is missing from the end'],
      // The anchor beside the database says the chain ended at 10 too.
      [10, 'rolled-back', 'the chain ends at seq 9 but the anchor says 10'],
      // And so does hookwise's own copy of the head, kept outside the workspace.
      [10, 'rolled-back', expect.stringMatching(/^the chain ends at seq 9 but hookwise's own copy \S+ says 10$/)],
    ]);
  });

  it('names two swapped rows as reordered', async () => {
    const file = await chain();
    tamper(file, 'UPDATE audit_log SET seq = -1 WHERE seq = 3');
    tamper(file, 'UPDATE audit_log SET seq = 3 WHERE seq = 7');
    tamper(file, 'UPDATE audit_log SET seq = 7 WHERE seq = -1');
    const result = verifyAudit(file);
    expect(result.ok).toBe(false);
    expect(result.problems.map((p) => [p.seq, p.kind, p.message])).toEqual([
      [3, 'reordered', 'seq 3 (PreToolUse, tool Bash, session session-0) was moved: it was written as seq 7'],
      [7, 'reordered', 'seq 7 (PreToolUse, tool Bash, session session-0) was moved: it was written as seq 3'],
    ]);
  });

  it('catches rows added behind the store’s back', async () => {
    const file = await chain(3);
    tamper(
      file,
      `INSERT INTO audit_log SELECT seq + 1, ts, session_id, kind, event, decision, tool, data, hash, hash FROM audit_log WHERE seq = 3`,
    );
    const kinds = verifyAudit(file).problems.map((p) => [p.seq, p.kind]);
    expect(kinds).toContainEqual([4, 'edited']);
    expect(kinds).toContainEqual([4, 'broken-link']);
  });

  it('gives clear errors for a missing file and a foreign one', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const missing = path.join(t.dir, 'nope.db');
    expect(() => verifyAudit(missing)).toThrow(AuditDatabaseMissingError);
    expect(() => verifyAudit(missing)).toThrow(`no audit database at ${missing}`);
    const text = path.join(t.dir, 'notes.txt');
    writeFileSync(text, 'hello, this is not SQLite at all, just text long enough to matter\n'.repeat(20));
    expect(() => verifyAudit(text)).toThrow(AuditDatabaseFormatError);
    const other = path.join(t.dir, 'other.db');
    new Database(other).exec('CREATE TABLE x (a)').close();
    expect(() => verifyAudit(other)).toThrow(`${other} is not a hookwise audit database: it has no audit_log table`);
  });
});
