import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { canonicalJson } from './canonical-json.js';
import { GENESIS_HASH, rowHash, type ChainedFields } from './chain.js';
import { AuditDatabaseFormatError, AuditRecordError } from './errors.js';
import { defaultAuditPath } from './paths.js';
import { createSchema } from './schema.js';
import { forgetStoreAtExit } from './shutdown.js';
import type { AuditRecord, AuditSink } from './types.js';

export interface AuditStoreOptions {
  /** Default: `defaultAuditPath()` (`$HOOKWISE_AUDIT_DB`, else `.hookwise/audit.db`). */
  path?: string;
  /** Flush when this many records are buffered. Default 1000. */
  batchSize?: number;
  /** Flush this long after the first buffered record at the latest. Default 50 ms. */
  flushIntervalMs?: number;
  /**
   * SQLite `synchronous` in WAL mode. `normal` (default): a committed batch survives
   * the process being killed; `full`: it also survives a power cut, at an fsync per batch.
   */
  synchronous?: 'normal' | 'full';
  /** How long a write waits for another process holding the database's write lock. Default 5000 ms. */
  busyTimeoutMs?: number;
  /** A flush started by the timer or a full batch failed; the records stay buffered. Default: a line on stderr. */
  onError?: (error: Error) => void;
}

/** A record waiting to be written: its data already frozen as canonical JSON; seq is set as it is written. */
type PendingRecord = ChainedFields;

interface Tip {
  seq: number;
  hash: string;
}

/**
 * The append-only, hash-chained audit store. `append` only buffers (it is called
 * on the hot path of every fire); batches go to SQLite in one transaction. The
 * chain (seq, prev_hash, hash) is computed inside that transaction from the last
 * row on disk, so two processes sharing one database still build one chain.
 */
export class AuditStore implements AuditSink {
  readonly path: string;
  private readonly db: Database.Database;
  private readonly batchSize: number;
  private readonly flushIntervalMs: number;
  private readonly onError: (error: Error) => void;
  private readonly writeBatch: (batch: PendingRecord[]) => Tip;
  private buffer: PendingRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  private isClosed = false;
  /** A background flush failed: wait for the retry timer instead of retrying on every append. */
  private backingOff = false;
  private written = 0;
  private tip: Tip | undefined;

  constructor(options: AuditStoreOptions = {}) {
    this.path = path.resolve(options.path ?? defaultAuditPath());
    this.batchSize = positiveInteger(options.batchSize ?? 1000, 'batchSize');
    this.flushIntervalMs = positiveInteger(options.flushIntervalMs ?? 50, 'flushIntervalMs');
    this.onError = options.onError ?? ((error) => process.stderr.write(`hookwise: audit flush to ${this.path} failed: ${error.message}\n`));
    mkdirSync(path.dirname(this.path), { recursive: true });
    this.db = new Database(this.path);
    try {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
      this.db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
      createSchema(this.db);
    } catch (error) {
      this.db.close();
      throw new AuditDatabaseFormatError(this.path, error instanceof Error ? error.message : String(error));
    }

    const lastRow = this.db.prepare('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1');
    const insert = this.db.prepare(
      'INSERT INTO audit_log (seq, ts, session_id, kind, event, decision, tool, data, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const setHead = this.db.prepare(
      'INSERT INTO audit_head (id, seq, hash) VALUES (1, ?, ?) ON CONFLICT(id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash',
    );
    const write = this.db.transaction((batch: PendingRecord[]): Tip => {
      const last = lastRow.get() as Tip | undefined;
      let seq = last?.seq ?? 0;
      let prevHash = last?.hash ?? GENESIS_HASH;
      for (const r of batch) {
        r.seq = ++seq;
        const hash = rowHash(prevHash, r);
        insert.run(seq, r.ts, r.sessionId, r.kind, r.event, r.decision, r.tool, r.data, prevHash, hash);
        prevHash = hash;
      }
      setHead.run(seq, prevHash);
      return { seq, hash: prevHash };
    });
    // IMMEDIATE takes the write lock before reading the last row: no other writer can slip in between.
    this.writeBatch = (batch) => write.immediate(batch);
  }

  /** Buffers one record. Its `data` is serialised now, so later changes to the object are not recorded. */
  append(record: AuditRecord): void {
    if (this.isClosed) throw new Error(`audit store ${this.path} is closed; cannot append`);
    this.buffer.push(freeze(record));
    if (this.buffer.length >= this.batchSize && !this.backingOff) this.flushInBackground();
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => this.flushInBackground(), this.flushIntervalMs);
      this.timer.unref();
    }
  }

  /**
   * Appends and commits before returning, with everything buffered before it.
   * The runtime uses it for a `tool` record, which must be on disk before the tool runs.
   * Throws if the write fails, so the caller can refuse to run the tool.
   */
  appendDurable(record: AuditRecord): void {
    if (this.isClosed) throw new Error(`audit store ${this.path} is closed; cannot append`);
    const pending = freeze(record);
    this.buffer.push(pending);
    try {
      this.flushSync();
    } catch (error) {
      // The caller will not run the tool: a later flush must not record it as run. Older records stay buffered.
      const at = this.buffer.indexOf(pending);
      if (at >= 0) this.buffer.splice(at, 1);
      throw error;
    }
  }

  /** Commits everything buffered, synchronously. Safe in a process 'exit' handler. */
  flushSync(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.buffer.length === 0 || this.isClosed) return;
    const batch = this.buffer;
    this.buffer = [];
    try {
      this.tip = this.writeBatch(batch);
      this.written += batch.length;
      this.backingOff = false;
    } catch (error) {
      // Nothing of the batch was committed: keep it, in order, ahead of newer records.
      this.buffer = batch.concat(this.buffer);
      throw error;
    }
  }

  async flush(): Promise<void> {
    this.flushSync();
  }

  /** Flushes, then closes the database. Closing twice is harmless. */
  closeSync(): void {
    if (this.isClosed) return;
    try {
      this.flushSync();
    } finally {
      this.isClosed = true;
      forgetStoreAtExit(this);
      this.db.close();
    }
  }

  async close(): Promise<void> {
    this.closeSync();
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** Records buffered and not yet committed. */
  get pending(): number {
    return this.buffer.length;
  }

  /** Records this store has committed since it was opened. */
  get committed(): number {
    return this.written;
  }

  /** The last row this store committed (seq and hash), if any. */
  get lastCommitted(): Tip | undefined {
    return this.tip && { ...this.tip };
  }

  private flushInBackground(): void {
    try {
      this.flushSync();
    } catch (error) {
      this.onError(error instanceof Error ? error : new Error(String(error)));
      // Try again later rather than on every append while the database is unavailable.
      this.backingOff = true;
      if (this.timer === undefined && !this.isClosed) {
        this.timer = setTimeout(() => this.flushInBackground(), this.flushIntervalMs);
        this.timer.unref();
      }
    }
  }
}

/** Opens (creating if needed) the audit database. */
export function openAuditStore(options: AuditStoreOptions = {}): AuditStore {
  return new AuditStore(options);
}

/** Records made in the same millisecond share a ts: parse each distinct one once. */
let lastValidTs = '';

function freeze(record: AuditRecord): PendingRecord {
  if (record === null || typeof record !== 'object') throw new AuditRecordError(`expected an object, got ${typeof record}`);
  if (record.kind !== 'outcome' && record.kind !== 'tool') {
    throw new AuditRecordError(`kind must be 'outcome' or 'tool', got ${JSON.stringify(record.kind)}`);
  }
  if (typeof record.ts !== 'string' || (record.ts !== lastValidTs && Number.isNaN(Date.parse(record.ts)))) {
    throw new AuditRecordError(`ts must be an ISO 8601 time string, got ${JSON.stringify(record.ts)}`);
  }
  lastValidTs = record.ts;
  if (typeof record.sessionId !== 'string') throw new AuditRecordError(`sessionId must be a string, got ${typeof record.sessionId}`);
  if (record.data === null || typeof record.data !== 'object' || Array.isArray(record.data)) {
    throw new AuditRecordError('data must be a plain object');
  }
  return {
    seq: 0,
    ts: record.ts,
    sessionId: record.sessionId,
    kind: record.kind,
    event: optionalString(record.event, 'event'),
    decision: optionalString(record.decision, 'decision'),
    tool: optionalString(record.tool, 'tool'),
    data: canonicalJson(record.data),
  };
}

function optionalString(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new AuditRecordError(`${field} must be a string when given, got ${typeof value}`);
  return value;
}

function positiveInteger(value: number, field: string): number {
  // setTimeout cannot wait longer than 2^31 - 1 ms.
  if (!Number.isInteger(value) || value < 1 || value > 2 ** 31 - 1) {
    throw new RangeError(`audit store: ${field} must be a whole number from 1 to 2147483647, got ${value}`);
  }
  return value;
}
