/**
 * Issue 23, finding 3: a cut tail laundered by deleting the anchor and letting
 * the next writer anchor anew, and an old database put back with its old anchor
 * (a replay). Both attacks are run for real on a real SQLite trail; `hookwise
 * audit verify` (spawned) reports them, the next store refuses to write, and
 * only `hookwise audit reanchor` (a person, recorded in the chain) moves on.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { AuditRollbackError } from '../../src/audit/errors.js';
import { AuditStore } from '../../src/audit/store.js';
import { runCli } from '../cli/run-cli.js';
import { slack } from '../support/slack.js';

const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-laundering-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const record = (n: number) => ({ kind: 'custom', ts: new Date().toISOString(), sessionId: 's', data: { n } });
const cli = (args: string[]) => runCli(args, { unset: ['HOOKWISE_AUDIT_DB', 'HOOKWISE_AUDIT_KEY', 'HOOKWISE_AUDIT_KEY_FILE'] });

/** A trail of `rows` rows, written by the real store one commit each; returns the signed head after each commit. */
function trail(name: string, rows: number): { file: string; heads: Array<{ seq: number; hash: string; mac: string }> } {
  const file = path.join(dir, name, 'audit.db');
  const store = new AuditStore({ path: file });
  const heads: Array<{ seq: number; hash: string; mac: string }> = [];
  const db = new Database(file, { readonly: true });
  for (let i = 1; i <= rows; i++) {
    store.appendDurable(record(i));
    heads.push(db.prepare('SELECT seq, hash, mac FROM audit_head').get() as { seq: number; hash: string; mac: string });
  }
  db.close();
  store.closeSync();
  return { file, heads };
}

describe('a cut tail cannot be laundered', () => {
  it(
    'tail cut, old signed head restored, anchor deleted: verify fails, the next writer refuses, only reanchor moves on',
    async () => {
      const { file, heads } = trail('cut', 6);
      const old = heads[3]!;
      const db = new Database(file);
      db.exec('DROP TRIGGER audit_log_no_delete; DELETE FROM audit_log WHERE seq > 4');
      db.prepare('UPDATE audit_head SET seq = ?, hash = ?, mac = ?').run(old.seq, old.hash, old.mac);
      db.close();
      rmSync(`${file}.head`);

      const verify = await cli(['audit', 'verify', '--db', file]);
      expect(verify.code).toBe(1);
      expect(verify.stdout).toContain(`anchor seq 4: no anchor file ${file}.head`);
      expect(verify.stdout).toMatch(
        /rolled-back seq 5: the chain ends at seq 4 but hookwise's own copy \S+ says 6: rows 5-6 were committed and are gone/,
      );

      // On main, this writer anchored the cut chain anew and verify then said ok.
      expect(() => new AuditStore({ path: file })).toThrow(AuditRollbackError);
      expect(() => new AuditStore({ path: file })).toThrow(/its anchor \S+ is missing .*hookwise audit verify/);
      expect(existsSync(`${file}.head`)).toBe(false);
      expect((await cli(['audit', 'verify', '--db', file])).code).toBe(1);

      const reanchor = await cli([
        'audit',
        'reanchor',
        '--db',
        file,
        '--reason',
        'rows 5-6 lost in the incident of 17:00',
        '--as',
        'alice',
      ]);
      expect(reanchor).toMatchObject({
        code: 0,
        stdout: `re-anchored ${file} at seq 5 as alice: rows 5-6 lost in the incident of 17:00\n`,
      });
      const after = await cli(['audit', 'verify', '--db', file]);
      expect(after.stdout).toMatch(/^ok: 5 rows, chain intact/);
      const [logged] = JSON.parse((await cli(['audit', '--db', file, '--kind', 'reanchor', '--json'])).stdout) as Array<{
        data: Record<string, unknown>;
      }>;
      expect(logged!.data).toMatchObject({
        by: 'alice',
        reason: 'rows 5-6 lost in the incident of 17:00',
        anchor: 'missing',
        headCopy: { seq: 6 },
        chainEnd: 4,
      });
      expect((await cli(['audit', 'reanchor', '--db', file, '--reason', ' '])).code).toBe(1);
    },
    slack(120_000),
  );

  it(
    'an anchor put back from an older copy is refused too: the chain goes on past it',
    async () => {
      const { file } = trail('older-anchor', 2);
      const saved = path.join(dir, 'older-anchor', 'saved.head');
      copyFileSync(`${file}.head`, saved);
      const store = new AuditStore({ path: file });
      store.appendDurable(record(3));
      store.closeSync();
      copyFileSync(saved, `${file}.head`);
      expect(() => new AuditStore({ path: file })).toThrow(
        /the chain goes on to seq 3 but the anchor \S+ says 2: it is older than the chain/,
      );
      const verify = await cli(['audit', 'verify', '--db', file]);
      expect(verify.code).toBe(1);
      expect(verify.stdout).toContain('anchor seq 3: the chain goes on to seq 3 but the anchor says 2');
    },
    slack(60_000),
  );
});

describe('a replayed database is detected', () => {
  it(
    'an old database put back with its old, genuinely signed anchor: verify fails and the store refuses',
    async () => {
      const { file } = trail('replay', 3);
      const saved = path.join(dir, 'replay', 'saved');
      copyFileSync(file, `${saved}.db`);
      copyFileSync(`${file}.head`, `${saved}.head`);
      const store = new AuditStore({ path: file });
      for (const n of [4, 5, 6]) store.appendDurable(record(n));
      store.closeSync();
      // The old pair is consistent on its own: the chain and its anchor agree at seq 3.
      copyFileSync(`${saved}.db`, file);
      copyFileSync(`${saved}.head`, `${file}.head`);
      for (const side of ['-wal', '-shm']) rmSync(`${file}${side}`, { force: true });

      const verify = await cli(['audit', 'verify', '--db', file]);
      expect(verify.code).toBe(1);
      expect(verify.stdout).toMatch(
        /rolled-back seq 4: the chain ends at seq 3 but hookwise's own copy \S+ says 6: rows 4-6 were committed and are gone .*a replay/,
      );
      expect(() => new AuditStore({ path: file })).toThrow(/hookwise's own copy \S+ says 6.*a replay/);
    },
    slack(60_000),
  );
});
