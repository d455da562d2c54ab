import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type pg from 'pg';
import { headMac, readAnchor, writeAnchor, type Head } from './anchor.js';
import { copyFits, ensureHeadCopyDir, headCopyPath, postgresIdentity } from './head-copy.js';

/**
 * A PostgreSQL trail against hookwise's own copy of it (./head-copy.ts). The
 * trail has one chain per stream and replicas write them at once, so the copy
 * cannot be one head. It is a count instead: the sum of every stream's head seq.
 * Every row written moves one head by one, so the sum only grows; cutting rows
 * off a stream and putting back an older signed head, or restoring an older
 * dump, makes it fall. A forged head that would make up for it needs the audit
 * key. Summing takes no lock, so writers of different streams still never wait
 * on one another.
 *
 * The copy is `{ stream: "*", seq: <the sum>, hash: <the trail id> }`. The trail
 * id is random, made by the first store to open the schema, signed, and kept in
 * `audit_trail`: a schema dropped and made again, or another database put in its
 * place, holds another id.
 */
export const TRAIL_STREAM = '*';

export interface PostgresTrail {
  id: string;
  mac: string | null;
}

/** HMAC-SHA256 of a trail id. */
export function trailMac(key: Buffer, id: string): string {
  return createHmac('sha256', key).update(`hookwise-audit-trail:v1\n${id}`).digest('hex');
}

/** Whether the trail id carries the key's signature (an unsigned one does not). */
export function trailSigned(key: Buffer, trail: PostgresTrail): boolean {
  if (typeof trail.mac !== 'string' || !/^[0-9a-f]{64}$/.test(trail.mac)) return false;
  return timingSafeEqual(Buffer.from(trail.mac, 'hex'), Buffer.from(trailMac(key, trail.id), 'hex'));
}

/** The trail's id, made (and signed, with a key) by the first store to open the schema. */
export async function ensureTrail(client: pg.PoolClient, key: Buffer | undefined): Promise<PostgresTrail> {
  const id = randomUUID();
  await client.query('INSERT INTO audit_trail (id, trail_id, mac) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING', [
    id,
    key ? trailMac(key, id) : null,
  ]);
  return (await readTrail(client))!;
}

/** The trail's id; undefined for a schema from before trail ids (or one whose row was removed). */
export async function readTrail(client: pg.PoolClient): Promise<PostgresTrail | undefined> {
  const table = await client.query(
    `SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'audit_trail'`,
  );
  if ((table.rowCount ?? 0) === 0) return undefined;
  const row = await client.query<{ trail_id: string; mac: string | null }>('SELECT trail_id, mac FROM audit_trail WHERE id = 1');
  const first = row.rows[0];
  return first && { id: first.trail_id, mac: first.mac };
}

/** The sum of every stream's head seq: how far the trail has come. */
export async function trailTotal(client: pg.PoolClient): Promise<number> {
  const { rows } = await client.query<{ total: string }>('SELECT coalesce(sum(seq), 0)::text AS total FROM audit_head');
  return Number(rows[0]!.total);
}

/** The copy's file for a PostgreSQL trail in the state folder `stateDir`. */
export function postgresCopyPath(stateDir: string, connectionString: string, schema: string): string {
  return headCopyPath(stateDir, postgresIdentity(connectionString, schema));
}

/** The trail against hookwise's copy: undefined when the copy fits (level or behind, same trail), else what is wrong. */
export function postgresCopyProblem(copy: Head, file: string, trailId: string | undefined, total: number): string | undefined {
  if (copy.stream !== TRAIL_STREAM) return `hookwise's own copy ${file} is not the copy of a PostgreSQL trail`;
  if (trailId !== undefined && copyFits(copy, total, () => trailId)) return undefined;
  if (copy.hash !== trailId)
    return `hookwise's own copy ${file} was written for trail ${copy.hash}, but the schema holds ${trailId === undefined ? 'no trail id' : `trail ${trailId}`}: another trail is in its place (the schema dropped and made again, or another database restored there)`;
  const gone = copy.seq - total;
  return `the streams' heads add up to ${total} but hookwise's own copy ${file} says ${copy.seq}: ${gone} committed row${gone === 1 ? ' is' : 's are'} gone (cut off a stream with an older signed head put back, or an older dump restored: a replay)`;
}

/**
 * Keeps the copy of one trail as a store writes it: the sum read when the store
 * opened plus the rows it has committed since, which is never more than the
 * trail holds (other writers only add to it); and never less than what another
 * process on this machine wrote there.
 */
export class PostgresHeadCopy {
  private base: number;
  private added = 0;

  constructor(
    readonly file: string,
    private readonly trailId: string,
    total: number,
    private readonly key: Buffer | undefined,
  ) {
    this.base = total;
    ensureHeadCopyDir(file);
  }

  /** After a commit of `rows` rows. */
  committed(rows: number): void {
    this.added += rows;
    this.write(false);
  }

  /** Writes the copy; with `replace` (a re-anchoring, from a fresh sum), whatever it said before. */
  write(replace: boolean, total?: number): void {
    if (total !== undefined) {
      this.base = total;
      this.added = 0;
    }
    let seq = this.base + this.added;
    const on = replace ? undefined : readAnchor(this.file);
    if (on && !('error' in on) && on.stream === TRAIL_STREAM && on.hash === this.trailId && on.seq > seq) seq = on.seq;
    const mac = this.key ? headMac(this.key, TRAIL_STREAM, seq, this.trailId) : null;
    writeAnchor(this.file, { stream: TRAIL_STREAM, seq, hash: this.trailId, mac }, false);
  }
}
