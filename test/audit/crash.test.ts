import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readAnchor, writeAnchor } from '../../src/audit/anchor.js';
import { openAuditStore, verifyAudit } from '../../src/audit/index.js';
import { tempDir } from './helpers.js';
import { runWriter } from './writer-process.js';

// A durable writer SIGKILLed at a random point of its loop (inside a commit, between
// the commit and the anchors, in the anchor's write, or between records): the trail
// must verify, the last record whole or absent, and the next writer must go on.
// bench/audit-crash.mjs runs the same with 50 kills.

const KEY = 'crash-test-key-0123456789abcdef';
const KILLS = 10;
const cleanups: Array<() => void> = [];
afterAll(() => {
  for (const c of cleanups.splice(0)) c();
});

describe('a durable writer killed mid-write', () => {
  it(`${KILLS} SIGKILLs: every trail verifies, holds every acknowledged record, and takes the next writer`, async () => {
    for (let k = 0; k < KILLS; k++) {
      const t = tempDir();
      cleanups.push(t.cleanup);
      const db = path.join(t.dir, 'audit.db');
      const env = { HOOKWISE_AUDIT_KEY: KEY, HOOKWISE_STATE_DIR: path.join(t.dir, 'state') };
      // Kill after a different number of commits each time, so the kill lands at different points of a write.
      const run = await runWriter(db, k, 100_000, { mode: 'durable', env, killAfter: 10 + k * 7 });
      expect(run.signal).toBe('SIGKILL');
      const result = verifyAudit(db, { key: KEY, stateDir: env.HOOKWISE_STATE_DIR });
      expect(result.problems).toEqual([]);
      // Every record the writer was told is committed is there.
      expect(result.rows).toBeGreaterThanOrEqual(run.committed);
      // A new writer opens the trail, appends, and it still verifies.
      const next = openAuditStore({ path: db, key: KEY, stateDir: env.HOOKWISE_STATE_DIR });
      next.appendDurable({ kind: 'outcome', ts: new Date().toISOString(), sessionId: 'after', data: { after: true } });
      next.closeSync();
      const after = verifyAudit(db, { key: KEY, stateDir: env.HOOKWISE_STATE_DIR });
      expect(after.problems).toEqual([]);
      expect(after.rows).toBe(result.rows + 1);
    }
  });
});

describe('an anchor rewritten in place', () => {
  const head = { stream: '', seq: 7, hash: 'a'.repeat(64), mac: 'b'.repeat(64) };
  it('has one length whatever it holds: no truncate follows a write, so a kill cannot leave an old tail', () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const file = path.join(t.dir, 'audit.db.head');
    writeAnchor(file, { ...head, committing: { seq: 6, hash: 'c'.repeat(64) } }, false);
    const withMark = statSync(file).size;
    writeAnchor(file, head, false);
    expect(statSync(file).size).toBe(withMark);
    expect(readAnchor(file)).toEqual(head);
  });

  it('reads the record up to its newline: an older, longer record left behind it does not make it unreadable', () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const file = path.join(t.dir, 'audit.db.head');
    // What a writer of the older format left when killed between its write and its truncate.
    writeAnchor(file, { ...head, committing: { seq: 6, hash: 'c'.repeat(64) } }, false);
    const old = readFileSync(file, 'utf8');
    const shorter = `${JSON.stringify({ format: 'hookwise-audit-anchor/1', ...head, seq: 8 })}\n`;
    writeFileSync(file, shorter + old.slice(shorter.length).replace(/^ +/, 'x'));
    expect(readAnchor(file)).toEqual({ ...head, seq: 8 });
  });
});
