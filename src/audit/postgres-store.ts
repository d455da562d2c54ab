import pg from 'pg';
import { headMac, resolveAuditKey, type AuditKeyOptions, type ResolvedKey } from './anchor.js';
import { GENESIS_HASH, rowHash } from './chain.js';
import { AuditConnectionError } from './errors.js';
import { migratePostgres } from './migrations.js';
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
  /** Connections in the pool. Default 2 (one writer, one for reads). */
  poolSize?: number;
  /** A flush started by the timer or a full batch failed; the records stay buffered. Default: a line on stderr. */
  onError?: (error: Error) => void;
}

interface Waiting {
  record: PendingRecord;
  /** Set for durable records: settled once the batch holding the record commits or fails. */
  settle?: (error?: Error) => void;
}

/** Where the PostgreSQL store and its readers look for the key when none is configured. */
export const POSTGRES_DEFAULT_KEY_FILE = '.hookwise/audit.key';

/**
 * The audit store on PostgreSQL: the records, hash chain and signed heads of the
 * SQLite store, with one chain per stream (a record's `stream`, default its
 * session), so replicas writing different sessions never wait on one head.
 *
 * Batches are one transaction each: lock the heads of the streams in the batch
 * (`FOR UPDATE`, in stream order, so two replicas cannot deadlock), chain the rows
 * in JS, insert them with one multi-row INSERT (unnest of arrays), move the heads,
 * commit. `appendDurable` resolves only after the commit that holds its record,
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
  private writing: Promise<void> | undefined;
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

  /** Connects, migrates the schema, and returns the store. */
  static async open(options: PostgresAuditStoreOptions): Promise<PostgresAuditStore> {
    const target = postgresTarget(options.url, options.schema);
    const key = resolveAuditKey(options, POSTGRES_DEFAULT_KEY_FILE, false);
    const store = new PostgresAuditStore(options, target, key);
    try {
      const client = await store.pool.connect();
      try {
        await migratePostgres(client, target.schema);
      } finally {
        client.release();
      }
    } catch (error) {
      await store.pool.end();
      throw connectError(error, target.shown);
    }
    return store;
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
      if (this.writing === undefined) setImmediate(() => this.flushInBackground());
    });
  }

  /** See ./tool-execution.ts: call before the tool runs; if it rejects, do not run the tool. */
  recordToolExecution(execution: ToolExecution): Promise<void> {
    return this.appendDurable(toolExecutionRecord(execution));
  }

  /** Resolves when everything appended before the call is committed; rejects if a batch fails. */
  async flush(): Promise<void> {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.writing !== undefined || this.buffer.length > 0) {
      if (this.writing !== undefined) await this.writing.catch(() => {});
      else await this.writeNext();
    }
  }

  /** Flushes, then closes the pool. Closing twice is harmless. */
  async close(): Promise<void> {
    if (this.isClosed) return;
    try {
      await this.flush();
    } finally {
      this.isClosed = true;
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
    if (this.isClosed) throw new Error(`audit store ${this.path} is closed; cannot append`);
  }

  private schedule(): void {
    if (this.buffer.length >= this.batchSize) {
      if (this.writing === undefined) this.flushInBackground();
    } else if (this.timer === undefined) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.flushInBackground();
      }, this.flushIntervalMs);
      this.timer.unref();
    }
  }

  private flushInBackground(): void {
    if (this.writing !== undefined || this.buffer.length === 0 || this.isClosed) return;
    this.writeNext().then(
      () => {
        // More arrived meanwhile: keep going while there is a full batch or a durable record waiting.
        if (this.buffer.length >= this.batchSize || this.buffer.some((w) => w.settle)) this.flushInBackground();
        else if (this.buffer.length > 0) this.schedule();
      },
      (error: Error) => {
        this.onError(error);
        if (this.buffer.length > 0 && this.timer === undefined && !this.isClosed) {
          this.timer = setTimeout(() => {
            this.timer = undefined;
            this.flushInBackground();
          }, this.flushIntervalMs);
          this.timer.unref();
        }
      },
    );
  }

  /** Commits one batch. One at a time, so rows reach each chain in the order they were appended. */
  private writeNext(): Promise<void> {
    const batch = this.buffer.splice(0, this.batchSize);
    const writing = this.writeBatch(batch.map((w) => w.record)).then(
      () => {
        this.written += batch.length;
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
    this.writing = writing;
    return writing.finally(() => {
      this.writing = undefined;
    });
  }

  private async writeBatch(batch: PendingRecord[]): Promise<void> {
    const streams = [...new Set(batch.map((r) => r.stream))].sort();
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`INSERT INTO audit_head (stream, seq, hash) SELECT s, 0, $2 FROM unnest($1::text[]) AS s ON CONFLICT (stream) DO NOTHING`, [streams, GENESIS_HASH]);
      const heads = await client.query<{ stream: string; seq: string; hash: string }>(
        'SELECT stream, seq, hash FROM audit_head WHERE stream = ANY($1::text[]) ORDER BY stream FOR UPDATE',
        [streams],
      );
      const tips = new Map(heads.rows.map((h) => [h.stream, { seq: Number(h.seq), hash: h.hash }]));
      const cols: unknown[][] = Array.from({ length: 11 }, () => []);
      for (const r of batch) {
        const tip = tips.get(r.stream)!;
        r.seq = tip.seq + 1;
        const hash = rowHash(tip.hash, r);
        const values = [r.stream, r.seq, r.ts, r.sessionId, r.kind, r.event, r.decision, r.tool, r.data, tip.hash, hash];
        for (let i = 0; i < 11; i++) cols[i]!.push(values[i]);
        tip.seq = r.seq;
        tip.hash = hash;
      }
      await client.query(
        `INSERT INTO audit_log (stream, seq, ts, session_id, kind, event, decision, tool, data, prev_hash, hash)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])`,
        cols,
      );
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
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
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
  if (!/^[A-Za-z_][A-Za-z0-9_$]{0,62}$/.test(chosen)) throw new RangeError(`audit store: schema must be a plain PostgreSQL identifier, got ${JSON.stringify(chosen)}`);
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
    connectionTimeoutMillis: 10_000,
  });
  // An idle connection dropped by the server must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  return pool;
}

/** A connection failure said as the problem to fix. */
export function connectError(error: unknown, shown: string): Error {
  const e = error as NodeJS.ErrnoException & { code?: string };
  if (e?.code === 'ECONNREFUSED' || e?.code === 'ENOTFOUND' || e?.code === 'ETIMEDOUT' || /timeout exceeded when trying to connect/i.test(e?.message ?? '')) {
    return new AuditConnectionError(`cannot reach the PostgreSQL audit store ${shown}: ${e.message}`);
  }
  if (e?.code === '3D000') return new AuditConnectionError(`the PostgreSQL audit store ${shown} names a database that does not exist: ${e.message}`);
  return error instanceof Error ? error : new Error(String(error));
}
