/**
 * Issue 23, finding 3, on PostgreSQL: a tail cut off a stream with the old signed
 * head put back, and an older dump restored (a replay). Both attacks run for real
 * on a real PostgreSQL schema (triggers disabled, rows deleted, `pg_dump` and
 * `psql`); `hookwise audit verify` (built CLI, spawned) reports them, the next
 * store refuses to write, and only `hookwise audit reanchor` (a person, recorded
 * in the chain) moves on. Two writers in two processes sharing one state folder
 * are not refused, and a trail verified where there is no copy says so.
 */
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { AuditRollbackError } from '../../src/audit/errors.js';
import { openAuditStore, type AuditRecord } from '../../src/audit/index.js';
import { postgresTarget } from '../../src/audit/postgres-store.js';
import { postgresCopyPath } from '../../src/audit/postgres-trail.js';
import { requirePostgres } from '../support/services.js';
import { repoRoot, runCli } from '../cli/run-cli.js';
import { pgSchema, pgTamper } from './pg-schema.js';
import { slack } from '../support/slack.js';

const base = await requirePostgres();
const KEY = 'pg-rollback-key-0123456789abcdef';
const DIST_AUDIT = pathToFileURL(path.join(repoRoot, 'dist', 'audit', 'index.js')).href;
const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-pg-rollback-'));
const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const drop of drops.splice(0)) await drop();
  rmSync(dir, { recursive: true, force: true });
});

const record = (stream: string, n: number): AuditRecord => ({
  kind: 'custom',
  ts: new Date().toISOString(),
  sessionId: stream,
  data: { n },
});
const cli = (args: string[], env: Record<string, string> = {}) =>
  runCli(args, { cwd: dir, env: { HOOKWISE_AUDIT_KEY: KEY, ...env }, unset: ['HOOKWISE_AUDIT_DB', 'HOOKWISE_AUDIT_KEY_FILE'] });

function schema(label: string) {
  const s = pgSchema(base!, label);
  drops.push(s.drop);
  return s;
}

async function query<T extends pg.QueryResultRow>(schemaName: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: base, options: `-c search_path=${schemaName}` });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** Writes `rows` records, one commit each, to each stream; returns each stream's signed head after each of its commits. */
async function write(url: string, rows: Record<string, number>): Promise<Map<string, Array<{ seq: string; hash: string; mac: string }>>> {
  const schemaName = new URL(url).searchParams.get('schema')!;
  const store = await openAuditStore(url, { key: KEY });
  const heads = new Map<string, Array<{ seq: string; hash: string; mac: string }>>();
  for (const [stream, count] of Object.entries(rows)) {
    for (let i = 1; i <= count; i++) {
      await store.appendDurable(record(stream, i));
      const [head] = await query<{ seq: string; hash: string; mac: string }>(
        schemaName,
        'SELECT seq, hash, mac FROM audit_head WHERE stream = $1',
        [stream],
      );
      heads.set(stream, [...(heads.get(stream) ?? []), head!]);
    }
  }
  await store.close();
  return heads;
}

const copyOf = (url: string, stateDir = process.env.HOOKWISE_STATE_DIR!) => {
  const target = postgresTarget(url);
  return JSON.parse(readFileSync(postgresCopyPath(stateDir, target.connectionString, target.schema), 'utf8')) as {
    seq: number;
    hash: string;
  };
};

describe.skipIf(!base)('PostgreSQL: a cut tail cannot be laundered', () => {
  it(
    'a stream cut with its old signed head put back: verify fails, the next writer refuses, only reanchor moves on',
    async () => {
      const s = schema('cut');
      const heads = await write(s.url, { s: 6, t: 2 });
      const old = heads.get('s')![3]!;
      // The attack: drop the append-only trigger, delete the tail, restore the genuinely signed head of seq 4.
      await pgTamper(base!, s.schema, `DELETE FROM audit_log WHERE stream = 's' AND seq > 4`);
      await pgTamper(base!, s.schema, `UPDATE audit_head SET seq = $1, hash = $2, mac = $3 WHERE stream = 's'`, [
        old.seq,
        old.hash,
        old.mac,
      ]);

      // The chains alone agree with themselves: every link and every signature checks out.
      const chainsOnly = await cli(['audit', 'verify', '--audit', s.url, '--no-anchor']);
      expect(chainsOnly.stdout).toMatch(/^ok: 6 rows, 2 streams, chain intact/);

      const verify = await cli(['audit', 'verify', '--audit', s.url]);
      expect(verify.code).toBe(1);
      expect(verify.stdout).toMatch(
        /^rolled-back seq 7: the streams' heads add up to 6 but hookwise's own copy \S+ says 8: 2 committed rows are gone \(cut off a stream with an older signed head put back, or an older dump restored: a replay\)\n/,
      );

      // On main, this writer chained on from the old head and verify then said ok.
      await expect(openAuditStore(s.url, { key: KEY })).rejects.toThrow(AuditRollbackError);
      await expect(openAuditStore(s.url, { key: KEY })).rejects.toThrow(/heads add up to 6 but hookwise's own copy \S+ says 8/);
      expect(Number((await query<{ n: string }>(s.schema, 'SELECT count(*) AS n FROM audit_log'))[0]!.n)).toBe(6);

      const reanchor = await cli([
        'audit',
        'reanchor',
        '--audit',
        s.url,
        '--reason',
        'rows 5-6 of s lost in the incident of 17:00',
        '--as',
        'alice',
      ]);
      expect(reanchor).toMatchObject({
        code: 0,
        stdout: `re-anchored ${s.url} at its present heads as alice: rows 5-6 of s lost in the incident of 17:00\n`,
      });
      expect((await cli(['audit', 'verify', '--audit', s.url])).stdout).toMatch(/^ok: 7 rows, 3 streams, chain intact/);
      const [logged] = JSON.parse((await cli(['audit', '--audit', s.url, '--kind', 'reanchor', '--json'])).stdout) as Array<{
        data: Record<string, unknown>;
      }>;
      const [trail] = await query<{ trail_id: string }>(s.schema, 'SELECT trail_id FROM audit_trail');
      expect(logged!.data).toMatchObject({
        by: 'alice',
        reason: 'rows 5-6 of s lost in the incident of 17:00',
        headCopy: { seq: 8, hash: trail!.trail_id },
        trail: trail!.trail_id,
        chainEnd: 6,
      });
      expect(copyOf(s.url)).toMatchObject({ seq: 7, hash: trail!.trail_id });
      // And writers go on from there.
      await write(s.url, { s: 1 });
      expect((await cli(['audit', 'verify', '--audit', s.url])).stdout).toMatch(/^ok: 8 rows, 3 streams, chain intact/);
    },
    slack(120_000),
  );

  it(
    'a head put back while a writer is running: the writer refuses to chain on from it',
    async () => {
      const s = schema('live');
      const heads = await write(s.url, { s: 3 });
      const failures: Error[] = [];
      const store = await openAuditStore(s.url, { key: KEY, onError: (e) => failures.push(e) });
      await store.appendDurable(record('s', 4));
      const old = heads.get('s')![1]!;
      await pgTamper(base!, s.schema, `DELETE FROM audit_log WHERE stream = 's' AND seq > 2`);
      await pgTamper(base!, s.schema, `UPDATE audit_head SET seq = $1, hash = $2, mac = $3 WHERE stream = 's'`, [
        old.seq,
        old.hash,
        old.mac,
      ]);
      await expect(store.appendDurable(record('s', 5))).rejects.toThrow(
        /the head of stream "s" is at seq 2 but this store committed up to seq 4: rows were cut off and an older head put back/,
      );
      await store.close();
      expect(failures.map((e) => e.message)).toEqual([expect.stringMatching(/was rolled back: the head of stream "s" is at seq 2/)]);
      expect(Number((await query<{ n: string }>(s.schema, 'SELECT count(*) AS n FROM audit_log'))[0]!.n)).toBe(2);
    },
    slack(60_000),
  );
});

describe.skipIf(!base)('PostgreSQL: the trail id', () => {
  it(
    'a trail id rewritten to match another copy: not signed with the key, so verify names it and the store refuses',
    async () => {
      const s = schema('trailid');
      await write(s.url, { s: 2 });
      await pgTamper(base!, s.schema, `UPDATE audit_trail SET trail_id = 'someone-elses'`);
      const verify = await cli(['audit', 'verify', '--audit', s.url]);
      expect(verify.code).toBe(1);
      expect(verify.stdout).toMatch(/^forged-head seq 0: the trail id someone-elses \(audit_trail\) is not signed with the audit key/);
      await expect(openAuditStore(s.url, { key: KEY })).rejects.toThrow(/its trail id \(audit_trail\) is not signed with the audit key/);
    },
    slack(60_000),
  );
});

describe.skipIf(!base)('PostgreSQL: a replayed dump is detected', () => {
  it(
    'an older pg_dump of the schema restored: verify fails and the store refuses',
    async () => {
      const s = schema('replay');
      await write(s.url, { s: 3, t: 1 });
      const dump = path.join(dir, `${s.schema}.sql`);
      execFileSync('pg_dump', ['--dbname', base!, '--schema', s.schema, '--file', dump]);
      await write(s.url, { s: 3, u: 2 });
      // The old dump put back in place of the schema, as a restore from backup would.
      await s.drop();
      execFileSync('psql', ['--dbname', base!, '--quiet', '--set', 'ON_ERROR_STOP=1', '--file', dump], { stdio: 'pipe' });

      const verify = await cli(['audit', 'verify', '--audit', s.url]);
      expect(verify.code).toBe(1);
      expect(verify.stdout).toMatch(
        /^rolled-back seq 5: the streams' heads add up to 4 but hookwise's own copy \S+ says 9: 5 committed rows are gone/,
      );
      await expect(openAuditStore(s.url, { key: KEY })).rejects.toThrow(/heads add up to 4 but hookwise's own copy \S+ says 9.*a replay/);
    },
    slack(120_000),
  );

  it(
    'the schema dropped and made again: another trail is in its place, and the writer refuses',
    async () => {
      const s = schema('again');
      await write(s.url, { s: 2 });
      await s.drop();
      await expect(openAuditStore(s.url, { key: KEY })).rejects.toThrow(
        /was written for trail \S+, but the schema holds trail \S+: another trail is in its place/,
      );
      const verify = await cli(['audit', 'verify', '--audit', s.url]);
      expect(verify.code).toBe(1);
      expect(verify.stdout).toMatch(/rolled-back seq \d+: hookwise's own copy \S+ was written for trail/);
    },
    slack(60_000),
  );
});

/** A writer in its own process (built dist): opens, writes when told (or at once), closes. */
function writer(url: string, name: string, rows: number, waitForGo: boolean) {
  const script = path.join(dir, `writer-${name}.mjs`);
  writeFileSync(
    script,
    `import { openAuditStore } from ${JSON.stringify(DIST_AUDIT)};
const store = await openAuditStore(${JSON.stringify(url)}, { key: ${JSON.stringify(KEY)}, onError: (e) => { process.stderr.write(e.message + '\\n'); process.exitCode = 3; } });
process.stdout.write('open\\n');
if (${waitForGo}) await new Promise((resolve) => process.stdin.once('data', resolve));
for (let i = 0; i < ${rows}; i++) {
  const record = (stream) => ({ kind: 'custom', ts: new Date().toISOString(), sessionId: stream, data: { i } });
  await store.appendDurable(record(${JSON.stringify(name)}));
  await store.appendDurable(record('shared'));
}
await store.close();
`,
  );
  const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const opened = new Promise<void>((resolve) =>
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('open\n')) resolve();
    }),
  );
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const done = new Promise<{ code: number | null; err: string }>((resolve) => child.on('close', (code) => resolve({ code, err })));
  return { opened, done, go: () => child.stdin.end('go\n') };
}

describe.skipIf(!base)('PostgreSQL: legitimate writers are not refused', () => {
  it(
    'two processes on one schema and one state folder, one of them opened long before it writes: no refusal, and the copy catches up',
    async () => {
      const s = schema('two');
      await write(s.url, { s: 2 });
      // A opens (and reads the sum) first, then waits while B and C write 60 rows each.
      const a = writer(s.url, 'a', 20, true);
      await a.opened;
      const b = writer(s.url, 'b', 30, false);
      const c = writer(s.url, 'c', 30, false);
      expect(await b.done).toEqual({ code: 0, err: '' });
      expect(await c.done).toEqual({ code: 0, err: '' });
      a.go();
      expect(await a.done).toEqual({ code: 0, err: '' });

      // Each writer puts two records per round: one on its own stream, one on `shared`.
      const total = 2 + 2 * 20 + 2 * 30 + 2 * 30;
      const verify = await cli(['audit', 'verify', '--audit', s.url]);
      expect(verify).toMatchObject({ code: 0 });
      expect(verify.stdout).toMatch(new RegExp(`^ok: ${total} rows, 5 streams, chain intact \\([^)]*, head [0-9a-f]{16}\\)\\n$`));
      // The last to close read the whole sum: the copy is level with the trail, and the next store opens.
      expect(copyOf(s.url).seq).toBe(total);
      const next = await openAuditStore(s.url, { key: KEY });
      await next.close();
    },
    slack(120_000),
  );

  it(
    'a trail verified where this user has no copy (another machine or user) is checked against its chains only, and says so',
    async () => {
      const s = schema('elsewhere');
      await write(s.url, { s: 3 });
      const elsewhere = mkdtempSync(path.join(dir, 'other-user-state-'));
      const verify = await cli(['audit', 'verify', '--audit', s.url], { HOOKWISE_STATE_DIR: elsewhere });
      expect(verify).toMatchObject({ code: 0 });
      expect(verify.stdout).toMatch(
        /^ok: 3 rows, chain intact \([^)]*\) \(no copy of this trail in this user's state folder \(another machine or user\): checked against its chains only, so older signed heads put back would go unseen here\)\n$/,
      );
      const json = JSON.parse((await cli(['audit', 'verify', '--audit', s.url, '--json'], { HOOKWISE_STATE_DIR: elsewhere })).stdout) as {
        headCopy: string;
      };
      expect(json.headCopy).toBe('missing');
      // Where the copy is, verify says nothing of the kind.
      expect((await cli(['audit', 'verify', '--audit', s.url])).stdout).not.toContain('no copy');
      // A writer there takes the trail as it is and starts a copy of its own.
      const store = await openAuditStore(s.url, { key: KEY, stateDir: elsewhere });
      await store.appendDurable(record('s', 4));
      await store.close();
      expect(copyOf(s.url, elsewhere).seq).toBe(4);
    },
    slack(60_000),
  );
});
