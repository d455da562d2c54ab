import pg from 'pg';
import {
  anchorSaid,
  headMac,
  macMatches,
  readAnchor,
  reanchorRecord,
  resolveAuditKey,
  type AuditKeyOptions,
  type Reanchor,
  type ResolvedKey,
} from './anchor.js';
import { GENESIS_HASH, rowHash } from './chain.js';
import { AuditAfterCommitError, AuditConnectionError, AuditRollbackError, AuditStoreClosedError, AuditStoreOptionError } from './errors.js';
import { userStateDir } from './head-copy.js';
import { migratePostgres } from './migrations.js';
import {
  PostgresHeadCopy,
  ensureTrail,
  postgresCopyPath,
  postgresCopyProblem,
  trailMac,
  trailSigned,
  trailTotal,
} from './postgres-trail.js';
import { freezeRecord, positiveInteger, type PendingRecord } from './record.js';
import { toolExecutionRecord, type ToolExecution } from './tool-execution.js';
import type { AuditRecord, AuditSink } from './types.js';

export interface PostgresAuditStoreOptions extends AuditKeyOptions {
  /** `postgres://user@host:port/db`; a `schema` query parameter picks the schema (default `public`). */
  url: string;
  /** Overrides the URL's `schema` parameter. */
  schema?: string;
  /** Records per transaction. Default 1000. */
  batchSize?: number;
  /** Flush this long after the first buffered record at the latest. Default 50 ms. */
  flushIntervalMs?: number;
  /** Connections in the pool. Default 2 (two batches in flight). */
  poolSize?: number;
  /** A flush started by the timer or a full batch failed; the records stay buffered. Default: a line on stderr. */
  onError?: (error: Error) => void;
  /**
   * Where hookwise keeps its own copy of the trail (./postgres-trail.ts), outside
   * the workspace: default as the SQLite store's (./head-copy.ts); false: none
   * (a rollback to older signed heads, or an older dump restored, goes unseen).
   */
  stateDir?: string | false;
  /**
   * A person re-anchors the trail (`hookwise audit reanchor`): the store opens
   * despite a copy that is ahead or of another trail, appends a `reanchor`
   * record (who, why, what the copy said) and writes the copy anew.
   */
  reanchor?: Reanchor;
}

interface Waiting {
  record: PendingRecord;
  /** Set for durable records: settled once the batch holding the record commits or fails. */
  settle?: (error?: Error) => void;
}

interface Tip {
  seq: number;
  hash: string;
}

/**
 * Batches in flight at once: while one commits, the next is chained and sent, so
 * the client's hashing and the server's inserting overlap.
 */
const PIPELINE = 2;

/** Where the PostgreSQL store and its readers look for the key when none is configured. */
export const POSTGRES_DEFAULT_KEY_FILE = '.hookwise/audit.key';

/**
 * The audit store on PostgreSQL: the records, hash chain and signed heads of the
 * SQLite store, with one chain per stream (a record's `stream`, default its
 * session), so replicas writing different sessions never wait on one head.
 *
 * Batches are one transaction each: chain the rows in JS, move the heads of the
 * streams in the batch, insert the rows with one multi-row INSERT, commit. Two
 * batches are in flight at once (see writeBatch for how they stay in order). `appendDurable` resolves only after the commit that holds its record,
 * so nothing acknowledged is lost when the process is killed; an uncommitted batch
 * leaves nothing behind, and the chain still verifies.
 */
export class PostgresAuditStore implements AuditSink {
  /** The URL without its password, for messages. */
  readonly path: string;
  readonly schema: string;
  private readonly pool: pg.Pool;
  private readonly key: ResolvedKey | undefined;
  private readonly batchSize: number;
  private readonly flushIntervalMs: number;
  private readonly onError: (error: Error) => void;
  private buffer: Waiting[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** Batches sent and not yet settled (at most PIPELINE). */
  private readonly inFlight = new Set<Promise<void>>();
  /** The head of each stream as this store last chained it (sent, maybe not yet committed). */
  private readonly tips = new Map<string, Tip>();
  /** The highest seq this store committed on each stream: a head found below it was put back. */
  private readonly floor = new Map<string, number>();
  /** hookwise's own copy of the trail, or undefined when off. */
  private copy: PostgresHeadCopy | undefined;
  private isClosed = false;
  private written = 0;

  private constructor(options: PostgresAuditStoreOptions, target: PostgresTarget, key: ResolvedKey | undefined) {
    this.path = target.shown;
    this.schema = target.schema;
    this.key = key;
    this.batchSize = positiveInteger(options.batchSize ?? 1000, 'batchSize');
    this.flushIntervalMs = positiveInteger(options.flushIntervalMs ?? 50, 'flushIntervalMs');
    this.onError = options.onError ?? ((error) => process.stderr.write(`hookwise: audit flush to ${this.path} failed: ${error.message}\n`));
    this.pool = newPool(target, options.poolSize ?? 2);
  }

  /** Connects, migrates the schema, checks the trail against hookwise's own copy of it, and returns the store. */
  static async open(options: PostgresAuditStoreOptions): Promise<PostgresAuditStore> {
    const target = postgresTarget(options.url, options.schema);
    const key = resolveAuditKey(options, POSTGRES_DEFAULT_KEY_FILE, false);
    const store = new PostgresAuditStore(options, target, key);
    let said: Record<string, unknown> | undefined;
    try {
      const client = await store.pool.connect();
      try {
        await migratePostgres(client, target.schema);
        said = await store.checkTrail(client, target, options);
      } finally {
        client.release();
      }
    } catch (error) {
      await store.pool.end();
      throw connectError(error, target.shown);
    }
    if (options.reanchor) {
      try {
        await store.appendDurable(reanchorRecord(options.reanchor, said!));
        const client = await store.pool.connect();
        try {
          store.copy?.write(true, await trailTotal(client));
        } finally {
          client.release();
        }
      } catch (error) {
        await store.close().catch(() => {});
        throw error;
      }
    }
    return store;
  }

  /**
   * Refuses a trail that is behind hookwise's own copy of it, or another trail in
   * its place (a rollback, a replay), and one whose id was rewritten; then brings
   * the copy up to the trail. No copy yet (first use on this machine): the trail
   * is taken as it is. Returns what the copy said, for a re-anchoring.
   */
  private async checkTrail(
    client: pg.PoolClient,
    target: PostgresTarget,
    options: PostgresAuditStoreOptions,
  ): Promise<Record<string, unknown>> {
    const trail = await ensureTrail(client, this.key?.key);
    if (this.key && !trailSigned(this.key.key, trail)) {
      if (trail.mac !== null && !options.reanchor)
        throw new AuditRollbackError(
          this.path,
          `its trail id (audit_trail) is not signed with the audit key from ${this.key.source}: it was rewritten outside the store, or written with another key`,
        );
      // Made by a store without a key, or vouched for by a person re-anchoring: signed now.
      await client.query('UPDATE audit_trail SET mac = $1 WHERE id = 1', [trailMac(this.key.key, trail.id)]);
    }
    const stateDir = options.stateDir ?? userStateDir();
    if (stateDir === false) return { trail: trail.id, chainEnd: await trailTotal(client) };
    const file = postgresCopyPath(stateDir, target.connectionString, target.schema);
    // The copy first, then the trail: another writer updates its copy only after its rows are
    // committed, so read in this order the trail is never behind the copy unless rows are gone.
    const copy = options.reanchor ? undefined : readAnchor(file);
    const total = await trailTotal(client);
    const said = { headCopy: anchorSaid(file), trail: trail.id, chainEnd: total };
    if (!options.reanchor) {
      if (copy !== undefined && 'error' in copy) throw new AuditRollbackError(this.path, copy.error);
      const problem = copy && postgresCopyProblem(copy, file, trail.id, total);
      if (problem) throw new AuditRollbackError(this.path, problem);
    }
    this.copy = new PostgresHeadCopy(file, trail.id, total, this.key?.key);
    if (!options.reanchor) this.writeCopy(() => this.copy!.write(false));
    return said;
  }

  /**
   * With other writers at work, the copy counts only this store's rows on top of
   * the sum it opened with: on close, the trail's whole sum (never less than the
   * copy already says) keeps it close to the trail for the next store to open.
   */
  private async catchUpCopy(): Promise<void> {
    if (!this.copy) return;
    try {
      const client = await this.pool.connect();
      try {
        const total = await trailTotal(client);
        this.writeCopy(() => this.copy!.write(false, total));
      } finally {
        client.release();
      }
    } catch (error) {
      this.onError(
        new AuditAfterCommitError(`cannot read the trail's heads to bring hookwise's own copy up to date: ${(error as Error).message}`),
      );
    }
  }

  /** The copy may lag the trail, never lead it: a failed write is reported, the rows stay committed. */
  private writeCopy(write: () => void): void {
    try {
      write();
    } catch (error) {
      this.onError(new AuditAfterCommitError(`cannot write hookwise's own copy ${this.copy?.file}: ${(error as Error).message}`));
    }
  }

  /** Buffers one record; it is committed with the next batch (`flush()` resolves when it is). */
  append(record: AuditRecord): void {
    this.assertOpen();
    this.buffer.push({ record: freezeRecord(record) });
    this.schedule();
  }

  /** Appends and resolves once the record is committed; rejects (and drops the record) if its batch fails. */
  appendDurable(record: AuditRecord): Promise<void> {
    this.assertOpen();
    const frozen = freezeRecord(record);
    return new Promise<void>((resolve, reject) => {
      this.buffer.push({ record: frozen, settle: (error) => (error ? reject(error) : resolve()) });
      // Durable records arriving together share one commit: wait a turn for the others, not a timer.
      setImmediate(() => this.pump());
    });
  }

  /** See ./tool-execution.ts: call before the tool runs; if it rejects, do not run the tool. */
  recordToolExecution(execution: ToolExecution): Promise<void> {
    return this.appendDurable(toolExecutionRecord(execution));
  }

  /** The audit key heads are signed with (the approvals store signs with it too); undefined without one. */
  get auditKey(): Buffer | undefined {
    return this.key?.key;
  }

  /** Resolves when everything appended before the call is committed; rejects if a batch fails. */
  async flush(): Promise<void> {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    let failure: Error | undefined;
    while (failure === undefined && (this.buffer.length > 0 || this.inFlight.size > 0)) {
      while (this.buffer.length > 0 && this.inFlight.size < PIPELINE) {
        this.dispatch().catch((error: Error) => (failure ??= error));
      }
      await Promise.race([...this.inFlight].map((p) => p.catch(() => {})));
    }
    if (failure) throw failure;
  }

  /** Flushes, then closes the pool. Closing twice is harmless. */
  async close(): Promise<void> {
    if (this.isClosed) return;
    try {
      await this.flush();
      await this.catchUpCopy();
    } finally {
      this.isClosed = true;
      await Promise.all([...this.inFlight].map((p) => p.catch(() => {})));
      await this.pool.end();
    }
  }

  get closed(): boolean {
    return this.isClosed;
  }

  get pending(): number {
    return this.buffer.length;
  }

  get committed(): number {
    return this.written;
  }

  private assertOpen(): void {
    if (this.isClosed) throw new AuditStoreClosedError(`audit store ${this.path} is closed; cannot append`);
  }

  private schedule(): void {
    if (this.buffer.length >= this.batchSize) this.pump();
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.pump(true);
      }, this.flushIntervalMs);
      this.timer.unref();
    }
  }

  /** Starts batches while there is room in the pipeline: full ones, or any when a durable record waits or the timer fired. */
  private pump(timerFired = false): void {
    if (this.isClosed) return;
    while (this.inFlight.size < PIPELINE && this.buffer.length > 0) {
      const ready = timerFired || this.buffer.length >= this.batchSize || this.buffer.some((w) => w.settle);
      if (!ready) break;
      this.dispatch().then(
        () => (this.buffer.length > 0 ? this.schedule() : undefined),
        (error: Error) => {
          this.onError(error);
          if (this.buffer.length > 0 && this.timer === undefined && !this.isClosed) {
            this.timer = setTimeout(() => {
              this.timer = undefined;
              this.pump(true);
            }, this.flushIntervalMs);
            this.timer.unref();
          }
        },
      );
    }
  }

  /** Sends one batch. Rows get their seq and hash now, in the order batches are sent. */
  private dispatch(): Promise<void> {
    const batch = this.buffer.splice(0, this.batchSize);
    const writing = this.writeBatch(batch.map((w) => w.record)).then(
      () => {
        this.written += batch.length;
        for (const w of batch) this.floor.set(w.record.stream, Math.max(this.floor.get(w.record.stream) ?? 0, w.record.seq ?? 0));
        if (this.copy) this.writeCopy(() => this.copy!.committed(batch.length));
        for (const w of batch) w.settle?.();
      },
      (error: unknown) => {
        const failure = connectError(error, this.path);
        // Durable callers are told and will not run their tool: drop theirs. Keep the rest, in order, for a retry.
        for (const w of batch) w.settle?.(failure);
        this.buffer = batch.filter((w) => !w.settle).concat(this.buffer);
        throw failure;
      },
    );
    this.inFlight.add(writing);
    const done = () => this.inFlight.delete(writing);
    writing.then(done, done);
    return writing;
  }

  /**
   * Optimistic first: the rows are chained from the heads this store last wrote,
   * and the transaction moves each head only if it is still where we left it (a
   * batch sent just before ours commits first: the update waits for its lock). If
   * another writer moved a head meanwhile, the batch is chained again under
   * `FOR UPDATE` locks taken in stream order.
   */
  private async writeBatch(batch: PendingRecord[]): Promise<void> {
    const streams = [...new Set(batch.map((r) => r.stream))].sort();
    const known = streams.every((s) => this.tips.has(s));
    const expected = known ? streams.map((s) => ({ stream: s, ...this.tips.get(s)! })) : undefined;
    const rows = expected ? this.chain(batch, this.tips) : undefined;
    // This batch's own tips, taken now: by the time it has a connection, the next batch
    // may have been chained and moved `this.tips` further (the head must stop at ours).
    const targets = new Map(streams.map((s) => [s, this.tips.get(s)!]));
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      if (expected && rows && (await this.moveHeads(client, expected, targets))) {
        await this.insertRows(client, rows);
      } else {
        await this.writeLocked(client, batch, streams);
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      // What is committed is unknown now: read the heads again next time.
      this.tips.clear();
      throw error;
    } finally {
      client.release();
    }
  }

  /** Seq and hash for each row, from `tips`, which move along. */
  private chain(batch: PendingRecord[], tips: Map<string, Tip>): unknown[] {
    const rows: unknown[] = [];
    for (const r of batch) {
      const tip = tips.get(r.stream)!;
      r.seq = tip.seq + 1;
      const hash = rowHash(tip.hash, r);
      rows.push({
        stream: r.stream,
        seq: r.seq,
        ts: r.ts,
        session_id: r.sessionId,
        kind: r.kind,
        event: r.event,
        decision: r.decision,
        tool: r.tool,
        data: r.data,
        prev_hash: tip.hash,
        hash,
      });
      tips.set(r.stream, { seq: r.seq, hash });
    }
    return rows;
  }

  /** Moves every head from where this store left it to this batch's tip; false if any was moved by someone else. */
  private async moveHeads(
    client: pg.PoolClient,
    from: Array<{ stream: string; seq: number; hash: string }>,
    targets: Map<string, Tip>,
  ): Promise<boolean> {
    const key = this.key?.key;
    const heads = from.map((f) => {
      const to = targets.get(f.stream)!;
      return {
        stream: f.stream,
        old_seq: f.seq,
        old_hash: f.hash,
        seq: to.seq,
        hash: to.hash,
        mac: key ? headMac(key, f.stream, to.seq, to.hash) : null,
      };
    });
    try {
      const moved = await client.query<{ n: string }>(
        `WITH v AS (SELECT * FROM json_to_recordset($1::json) AS v(stream text, old_seq bigint, old_hash text, seq bigint, hash text, mac text)),
         fresh AS (INSERT INTO audit_head (stream, seq, hash, mac) SELECT stream, seq, hash, mac FROM v WHERE old_seq = 0 ON CONFLICT (stream) DO NOTHING RETURNING 1),
         moved AS (UPDATE audit_head AS h SET seq = v.seq, hash = v.hash, mac = v.mac FROM v
                   WHERE h.stream = v.stream AND v.old_seq > 0 AND h.seq = v.old_seq AND h.hash = v.old_hash RETURNING 1)
         SELECT (SELECT count(*) FROM fresh) + (SELECT count(*) FROM moved) AS n`,
        [JSON.stringify(heads)],
      );
      if (Number(moved.rows[0]!.n) === heads.length) return true;
    } catch (error) {
      // Two writers locking the same heads in another order: PostgreSQL broke the tie; take the locked path.
      if ((error as { code?: string }).code !== '40P01') throw error;
      await client.query('ROLLBACK');
      await client.query('BEGIN');
      return false;
    }
    await client.query('ROLLBACK');
    await client.query('BEGIN');
    return false;
  }

  /** The batch chained from heads read under lock. */
  private async writeLocked(client: pg.PoolClient, batch: PendingRecord[], streams: string[]): Promise<void> {
    await client.query(
      `INSERT INTO audit_head (stream, seq, hash) SELECT s, 0, $2 FROM unnest($1::text[]) AS s ON CONFLICT (stream) DO NOTHING`,
      [streams, GENESIS_HASH],
    );
    const heads = await client.query<{ stream: string; seq: string; hash: string; mac: string | null }>(
      'SELECT stream, seq, hash, mac FROM audit_head WHERE stream = ANY($1::text[]) ORDER BY stream FOR UPDATE',
      [streams],
    );
    await this.checkHeads(client, heads.rows, streams);
    const tips = new Map(heads.rows.map((h) => [h.stream, { seq: Number(h.seq), hash: h.hash }]));
    await this.insertRows(client, this.chain(batch, tips));
    const key = this.key?.key;
    const moved = streams.map((s) => {
      const tip = tips.get(s)!;
      return [s, tip.seq, tip.hash, key ? headMac(key, s, tip.seq, tip.hash) : null] as const;
    });
    await client.query(
      `UPDATE audit_head AS h SET seq = v.seq, hash = v.hash, mac = v.mac
       FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[]) AS v(stream, seq, hash, mac) WHERE h.stream = v.stream`,
      [moved.map((m) => m[0]), moved.map((m) => m[1]), moved.map((m) => m[2]), moved.map((m) => m[3])],
    );
    for (const [s, tip] of tips) this.tips.set(s, tip);
  }

  /**
   * Under the heads' locks, before chaining on: each stream's last row must be its
   * head, signed with the key, and not behind what this store committed there.
   * Else rows were added or cut behind the store's back, or an older head put
   * back; chaining on would vouch for them.
   */
  private async checkHeads(
    client: pg.PoolClient,
    heads: Array<{ stream: string; seq: string; hash: string; mac: string | null }>,
    streams: string[],
  ): Promise<void> {
    const last = await client.query<{ stream: string; seq: string; hash: string }>(
      'SELECT DISTINCT ON (stream) stream, seq, hash FROM audit_log WHERE stream = ANY($1::text[]) ORDER BY stream, seq DESC',
      [streams],
    );
    const lastOf = new Map(last.rows.map((r) => [r.stream, { seq: Number(r.seq), hash: r.hash }]));
    for (const h of heads) {
      const head = { stream: h.stream, seq: Number(h.seq), hash: h.hash, mac: h.mac };
      const row = lastOf.get(h.stream);
      const at = `stream ${JSON.stringify(h.stream)}`;
      if (head.seq === 0 && !row) continue;
      if (!row || row.seq !== head.seq || row.hash !== head.hash)
        throw new AuditRollbackError(
          this.path,
          `the last row of ${at} (seq ${row?.seq ?? 0}) is not the head the audit store last wrote (seq ${head.seq}): rows were added or removed outside the store`,
        );
      if (this.key && !macMatches(this.key.key, head))
        throw new AuditRollbackError(this.path, `the head of ${at} is not signed with the audit key: it was rewritten outside the store`);
      const committed = this.floor.get(h.stream) ?? 0;
      if (head.seq < committed)
        throw new AuditRollbackError(
          this.path,
          `the head of ${at} is at seq ${head.seq} but this store committed up to seq ${committed}: rows were cut off and an older head put back`,
        );
    }
  }

  /** One JSON parameter for the whole batch: JSON.stringify is native, far cheaper than pg escaping eleven arrays. */
  private async insertRows(client: pg.PoolClient, rows: unknown[]): Promise<void> {
    await client.query(
      `INSERT INTO audit_log (stream, seq, ts, session_id, kind, event, decision, tool, data, prev_hash, hash)
       SELECT * FROM json_to_recordset($1::json) AS r(stream text, seq bigint, ts text, session_id text, kind text, event text, decision text, tool text, data text, prev_hash text, hash text)`,
      [JSON.stringify(rows)],
    );
  }
}

export interface PostgresTarget {
  connectionString: string;
  schema: string;
  /** The URL without its password. */
  shown: string;
}

/** Splits hookwise's `schema` parameter off the URL (PostgreSQL does not know it). */
export function postgresTarget(url: string, schema?: string): PostgresTarget {
  const parsed = new URL(url);
  const fromUrl = parsed.searchParams.get('schema') ?? undefined;
  parsed.searchParams.delete('schema');
  const chosen = schema ?? fromUrl ?? 'public';
  if (!/^[A-Za-z_][A-Za-z0-9_$]{0,62}$/.test(chosen))
    throw new AuditStoreOptionError(`audit store: schema must be a plain PostgreSQL identifier, got ${JSON.stringify(chosen)}`);
  const shown = new URL(parsed.href);
  if (shown.password) shown.password = '***';
  if (chosen !== 'public') shown.searchParams.set('schema', chosen);
  return { connectionString: parsed.href, schema: chosen, shown: shown.href };
}

export function newPool(target: PostgresTarget, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: target.connectionString,
    max,
    options: `-c search_path=${target.schema}`,
    connectionTimeoutMillis: 30_000,
  });
  // An idle connection dropped by the server must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  return pool;
}

/** A connection failure said as the problem to fix. */
export function connectError(error: unknown, shown: string): Error {
  const e = error as NodeJS.ErrnoException & { code?: string };
  if (
    e?.code === 'ECONNREFUSED' ||
    e?.code === 'ENOTFOUND' ||
    e?.code === 'ETIMEDOUT' ||
    /timeout exceeded when trying to connect/i.test(e?.message ?? '')
  ) {
    return new AuditConnectionError(`cannot reach the PostgreSQL audit store ${shown}: ${e.message}`);
  }
  if (e?.code === '3D000')
    return new AuditConnectionError(`the PostgreSQL audit store ${shown} names a database that does not exist: ${e.message}`);
  // plain Error: a thrown value that is not an Error, passed on as one
  return error instanceof Error ? error : new Error(String(error));
}
