import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  anchorPathOf,
  anchorProblem,
  anchorSaid,
  defaultKeyFileOf,
  headMac,
  macMatches,
  readAnchor,
  reanchorRecord,
  resolveAuditKey,
  writeAnchor,
  type AuditKeyOptions,
  type Head,
  type Reanchor,
  type ResolvedKey,
} from './anchor.js';
import { GENESIS_HASH, rowHash } from './chain.js';
import {
  AuditAfterCommitError,
  AuditDatabaseFormatError,
  AuditDatabaseLockedError,
  AuditDatabaseReadOnlyError,
  AuditRollbackError,
  AuditStoreClosedError,
  sqliteCode,
} from './errors.js';
import { ensureHeadCopyDir, headCopyPath, sqliteCopyProblem, sqliteIdentity, userStateDir } from './head-copy.js';
import { createDatabaseOnce } from './create-db.js';
import { migrateSqlite } from './migrations.js';
import { defaultAuditPath } from './paths.js';
import { freezeRecord, positiveInteger, type PendingRecord } from './record.js';
import { forgetStoreAtExit } from './shutdown.js';
import { toolExecutionRecord, type ToolExecution } from './tool-execution.js';
import type { AuditRecord, AuditSink } from './types.js';

export interface AuditStoreOptions extends AuditKeyOptions {
  /** Default: `defaultAuditPath()` (`$HOOKWISE_AUDIT_DB`, else `.hookwise/audit.db`). */
  path?: string;
  /** Flush when this many records are buffered. Default 1000. */
  batchSize?: number;
  /** Flush this long after the first buffered record at the latest. Default 50 ms. */
  flushIntervalMs?: number;
  /**
   * SQLite `synchronous` in WAL mode. `normal` (default): a committed batch survives
   * the process being killed; `full`: it also survives a power cut, at an fsync per
   * batch (and the anchor file is fsynced before it replaces the old one).
   */
  synchronous?: 'normal' | 'full';
  /** How long a write waits for another process holding the database's write lock. Default 5000 ms. */
  busyTimeoutMs?: number;
  /**
   * Write the head to `<path>.head` after every commit (default true): `verify`
   * compares the database with it to detect a rollback. The key file, unless
   * `key`/`keyFile`/`$HOOKWISE_AUDIT_KEY` say otherwise, is `audit.key` beside the
   * database, created (mode 0600) on first use.
   */
  anchor?: boolean;
  /**
   * After each `appendDurable`, copy the write-ahead log into the database file
   * (a checkpoint) before returning, so a durable record survives even the -wal
   * file being deleted after a crash. Default false: that loss is detected instead
   * (verify compares the chain with the anchor), since the checkpoint's fsyncs cost
   * 7-20 ms per durable record on a busy VM (docs/audit.md).
   */
  checkpointDurable?: boolean;
  /**
   * Where hookwise keeps its own copy of the head, outside the workspace
   * (./head-copy.ts). Default `$HOOKWISE_STATE_DIR`, else `$XDG_STATE_HOME/hookwise`,
   * else `~/.local/state/hookwise`; false: no copy (replays go unseen). Only with `anchor`.
   */
  stateDir?: string | false;
  /**
   * A person re-anchors the trail (`hookwise audit reanchor`): the store opens
   * despite a missing, older or foreign anchor and copy, appends a `reanchor`
   * record saying who and why and what the anchors said, and anchors anew.
   */
  reanchor?: Reanchor;
  /** A flush started by the timer or a full batch failed; the records stay buffered. Default: a line on stderr. */
  onError?: (error: Error) => void;
}

interface Tip {
  seq: number;
  hash: string;
}

/** The SQLite store keeps one chain; its stream is this name in heads and anchors. */
const SQLITE_STREAM = '';

/**
 * The append-only, hash-chained audit store on SQLite. `append` only buffers (it is
 * called on the hot path of every fire); batches go to SQLite in one transaction.
 * The chain (seq, prev_hash, hash) is computed inside that transaction from the
 * last row on disk, so two processes sharing one database still build one chain.
 * After each commit the signed head is written to the anchor file beside it.
 */
export class AuditStore implements AuditSink {
  readonly path: string;
  /** The sidecar anchor, or undefined when anchoring is off. */
  readonly anchorPath: string | undefined;
  /** hookwise's copy of the head outside the workspace, or undefined when off. */
  readonly headCopyPath: string | undefined;
  private readonly db: Database.Database;
  private readonly batchSize: number;
  private readonly flushIntervalMs: number;
  private readonly onError: (error: Error) => void;
  private readonly writeBatch: (batch: PendingRecord[]) => Head;
  private readonly syncAnchor: boolean;
  private readonly key: ResolvedKey | undefined;
  private readonly busyTimeoutMs: number;
  private readonly checkpointDurable: boolean;
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
    this.syncAnchor = options.synchronous === 'full';
    this.checkpointDurable = options.checkpointDurable === true;
    this.busyTimeoutMs = Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000));
    const opened = openWritable(this.path, this.busyTimeoutMs, options.synchronous === 'full' ? 'FULL' : 'NORMAL');
    this.db = opened.db;
    try {
      this.key = resolveAuditKey(options, defaultKeyFileOf(this.path), true);
      // A database written before heads were signed: sign its head now, once, as it is upgraded.
      if (opened.upgraded && this.key) this.signLegacyHead(this.key.key);
      this.anchorPath = options.anchor === false ? undefined : anchorPathOf(this.path);
      const stateDir = options.stateDir ?? userStateDir();
      this.headCopyPath = this.anchorPath && stateDir !== false ? headCopyPath(stateDir, sqliteIdentity(this.path)) : undefined;
      if (this.headCopyPath) ensureHeadCopyDir(this.headCopyPath);
      // A database from before signed heads never had an anchor: its first one is written now, once, as it is upgraded.
      if (this.anchorPath && opened.upgraded) this.anchorLegacy(this.anchorPath);
      // Under the write lock: every anchor and copy write happens under it too (writeBatch,
      // settleAnchors), so the chain's end, the anchor and the copy are read as one state.
      else if (this.anchorPath && !options.reanchor) {
        const anchorPath = this.anchorPath;
        try {
          this.db.transaction(() => this.checkAnchors(anchorPath)).immediate();
        } catch (error) {
          // Busy past the timeout: say it is locked, as a write would.
          throw error instanceof AuditRollbackError ? error : writeError(error, this.path, this.busyTimeoutMs);
        }
      }
    } catch (error) {
      this.db.close();
      throw error;
    }

    const lastRow = this.db.prepare('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1');
    const insert = this.db.prepare(
      'INSERT INTO audit_log (seq, ts, session_id, kind, event, decision, tool, data, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const setHead = this.db.prepare(
      'INSERT INTO audit_head (id, seq, hash, mac) VALUES (1, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash, mac = excluded.mac',
    );
    const key = this.key?.key;
    const storedHead = this.db.prepare('SELECT seq, hash, mac FROM audit_head WHERE id = 1');
    const anchorPath = this.anchorPath;
    const write = this.db.transaction((batch: PendingRecord[]): Head => {
      const last = lastRow.get() as Tip | undefined;
      // Rows added or removed behind the store's back are not chained on: that would vouch for them.
      this.checkTipIsHead(last, storedHead.get() as Omit<Head, 'stream'> | undefined);
      let seq = last?.seq ?? 0;
      let prevHash = last?.hash ?? GENESIS_HASH;
      for (const r of batch) {
        r.seq = ++seq;
        const hash = rowHash(prevHash, r);
        insert.run(seq, r.ts, r.sessionId, r.kind, r.event, r.decision, r.tool, r.data, prevHash, hash);
        prevHash = hash;
      }
      const mac = key ? headMac(key, SQLITE_STREAM, seq, prevHash) : null;
      setHead.run(seq, prevHash, mac);
      const head: Head = { stream: SQLITE_STREAM, seq, hash: prevHash, mac };
      // Before the commit: a crash after it leaves an anchor naming this head, never one behind it.
      // If it cannot be written, nothing is committed.
      if (anchorPath)
        writeAnchor(anchorPath, { ...head, committing: { seq: last?.seq ?? 0, hash: last?.hash ?? GENESIS_HASH } }, this.syncAnchor);
      return head;
    });
    // IMMEDIATE takes the write lock before reading the last row: no other writer can slip in between.
    this.writeBatch = (batch) => write.immediate(batch);
    const head = storedHead.get() as Tip | undefined;
    if (head) this.tip = { seq: head.seq, hash: head.hash };
    if (options.reanchor) this.recordReanchor(options.reanchor);
  }

  /**
   * Refuses a database whose end disagrees with its anchor or with hookwise's own
   * copy of its head: rows cut off, an older database put back, an anchor
   * deleted or put back from an older copy. Writing on would hide it; no writer
   * repairs it by itself (`hookwise audit reanchor` is for a person).
   */
  private checkAnchors(anchorPath: string): void {
    const last = this.db.prepare('SELECT seq FROM audit_log ORDER BY seq DESC LIMIT 1').pluck().get() as number | undefined;
    const lastSeq = last ?? 0;
    const hashAt = (seq: number) => this.db.prepare('SELECT hash FROM audit_log WHERE seq = ?').pluck().get(seq) as string | undefined;
    const anchor = readAnchor(anchorPath);
    if (anchor !== undefined && 'error' in anchor) throw new AuditRollbackError(this.path, anchor.error);
    if (anchor === undefined) {
      if (lastSeq > 0)
        throw new AuditRollbackError(
          this.path,
          `the chain has ${lastSeq} rows but its anchor ${anchorPath} is missing (deleted, or the database was copied without it)`,
        );
    } else {
      const problem = anchorProblem(anchor, `the anchor ${anchorPath}`, lastSeq, hashAt);
      if (problem) throw new AuditRollbackError(this.path, problem.message);
    }
    if (!this.headCopyPath) return;
    const copy = readAnchor(this.headCopyPath);
    if (copy === undefined) return;
    if ('error' in copy) throw new AuditRollbackError(this.path, copy.error);
    // The copy may lag the chain (it is written after the commit); it must never be ahead of it.
    const problem = sqliteCopyProblem(copy, this.headCopyPath, lastSeq, hashAt);
    if (problem) throw new AuditRollbackError(this.path, problem.message);
  }

  /** The last row must be the head the store last wrote, signed: else rows were added or cut behind its back. */
  private checkTipIsHead(last: Tip | undefined, head: Omit<Head, 'stream'> | undefined): void {
    if (last === undefined && head === undefined) return;
    const problem =
      !head || !last || head.seq !== last.seq || head.hash !== last.hash
        ? `its last row (seq ${last?.seq ?? 0}) is not the head the audit store last wrote (seq ${head?.seq ?? 0}): rows were added or removed outside the store`
        : this.key && !macMatches(this.key.key, { stream: SQLITE_STREAM, ...head })
          ? 'its head is not signed with the audit key: it was rewritten outside the store'
          : undefined;
    if (problem) throw new AuditRollbackError(this.path, problem);
  }

  /** The re-anchoring record: who, why, and what the anchor and the copy said. */
  private recordReanchor(by: Reanchor): void {
    this.appendDurable(
      reanchorRecord(by, { anchor: anchorSaid(this.anchorPath), headCopy: anchorSaid(this.headCopyPath), chainEnd: this.tip?.seq ?? 0 }),
    );
  }

  private anchorLegacy(anchorPath: string): void {
    const head = this.db.prepare('SELECT seq, hash, mac FROM audit_head WHERE id = 1').get() as Omit<Head, 'stream'> | undefined;
    if (head && readAnchor(anchorPath) === undefined) writeAnchor(anchorPath, { stream: SQLITE_STREAM, ...head }, this.syncAnchor);
  }

  private signLegacyHead(key: Buffer): void {
    const head = this.db.prepare('SELECT seq, hash FROM audit_head WHERE id = 1').get() as { seq: number; hash: string } | undefined;
    if (head) this.db.prepare('UPDATE audit_head SET mac = ? WHERE id = 1').run(headMac(key, SQLITE_STREAM, head.seq, head.hash));
  }

  /**
   * After a commit, under the write lock again: the anchor without its `committing`
   * mark, then hookwise's own copy, both set to the head the database holds now
   * (this commit's, or a later writer's). Written only under the lock, neither can
   * go back behind the chain (a slow writer overwriting a newer head) nor be read
   * half-way through a commit by a store opening; the copy can only lag, after a
   * crash between the commit and this step, never lead.
   */
  private settleAnchors(): void {
    if (!this.anchorPath) return;
    try {
      this.db
        .transaction(() => {
          const head = this.db.prepare('SELECT seq, hash, mac FROM audit_head WHERE id = 1').get() as Omit<Head, 'stream'> | undefined;
          if (!head) return;
          const signed: Head = { stream: SQLITE_STREAM, ...head };
          // A head that does not carry our signature is not ours to vouch for: verify judges it.
          if (this.key && !macMatches(this.key.key, signed)) return;
          for (const file of [this.anchorPath, this.headCopyPath]) if (file) writeAnchor(file, signed, this.syncAnchor);
        })
        .immediate();
    } catch (error) {
      // The rows are committed and the anchor names them (written before the commit, with the
      // `committing` mark verify accepts); the copy lags until the next commit settles it.
      this.onError(new AuditAfterCommitError(`cannot settle the audit anchors of ${this.path}: ${(error as Error).message}`));
    }
  }

  /** Buffers one record. Its `data` is serialised now, so later changes to the object are not recorded. */
  append(record: AuditRecord): void {
    if (this.isClosed) throw new AuditStoreClosedError(`audit store ${this.path} is closed; cannot append`);
    this.buffer.push(freezeRecord(record));
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
    if (this.isClosed) throw new AuditStoreClosedError(`audit store ${this.path} is closed; cannot append`);
    const pending = freezeRecord(record);
    this.buffer.push(pending);
    try {
      this.commitBuffered(true);
    } catch (error) {
      // The caller will not run the tool: a later flush must not record it as run. Older records stay buffered.
      const at = this.buffer.indexOf(pending);
      if (at >= 0) this.buffer.splice(at, 1);
      throw error;
    }
  }

  /**
   * Appends a tool execution (./tool-execution.ts) durably: call it just before the
   * tool runs, after PreToolUse allowed the call; if it rejects, do not run the tool.
   */
  async recordToolExecution(execution: ToolExecution): Promise<void> {
    this.appendDurable(toolExecutionRecord(execution));
  }

  /**
   * Copies the write-ahead log into the database file (`checkpointDurable`). PASSIVE:
   * never waits for readers; a page a reader still needs stays in the log, and the
   * anchor catches its loss.
   */
  private checkpoint(): void {
    this.db.pragma('wal_checkpoint(PASSIVE)');
  }

  /** Commits everything buffered, synchronously. Safe in a process 'exit' handler. */
  flushSync(): void {
    this.commitBuffered(false);
  }

  /**
   * Commits the buffer; then, for a durable write, checkpoints; then anchors. In
   * that order, the anchor never names a durable row that is only in the log.
   */
  private commitBuffered(durable: boolean): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.buffer.length === 0 || this.isClosed) return;
    const batch = this.buffer;
    this.buffer = [];
    let head: Head;
    try {
      head = this.writeBatch(batch);
    } catch (error) {
      // Nothing of the batch was committed: keep it, in order, ahead of newer records.
      this.buffer = batch.concat(this.buffer);
      throw writeError(error, this.path, this.busyTimeoutMs);
    }
    this.tip = { seq: head.seq, hash: head.hash };
    this.written += batch.length;
    this.backingOff = false;
    if (durable && this.checkpointDurable) this.checkpoint();
    this.settleAnchors();
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

  /** The audit key heads are signed with (the approvals store signs with it too); undefined without one. */
  get auditKey(): Buffer | undefined {
    return this.key?.key;
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
      // plain Error: a thrown value that is not an Error, passed on as one
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

/** Opens the database for writing, with errors that name the problem (read-only, locked, not ours). */
function openWritable(file: string, busyTimeoutMs: number, synchronous: 'NORMAL' | 'FULL'): { db: Database.Database; upgraded: boolean } {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
  } catch (error) {
    throw new AuditDatabaseReadOnlyError(file, `cannot create its folder: ${(error as Error).message}`);
  }
  let db: Database.Database | undefined;
  try {
    createDatabaseOnce(file);
    db = new Database(file, { timeout: busyTimeoutMs });
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${synchronous}`);
    const applied = migrateSqlite(db);
    // The schema is in the main file from the start: a lost log cannot take the tables with it.
    db.pragma('wal_checkpoint(PASSIVE)');
    return { db, upgraded: applied.includes(2) };
  } catch (error) {
    db?.close();
    throw writeError(error, file, busyTimeoutMs);
  }
}

/** SQLite's error as the problem the user has to fix. */
function writeError(error: unknown, file: string, busyTimeoutMs = 5000): Error {
  const code = sqliteCode(error);
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return new AuditDatabaseLockedError(file, busyTimeoutMs);
  if (code.startsWith('SQLITE_READONLY') || code === 'SQLITE_CANTOPEN' || code === 'SQLITE_PERM')
    return new AuditDatabaseReadOnlyError(file, message);
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT' || code === 'SQLITE_ERROR') return new AuditDatabaseFormatError(file, message);
  // plain Error: a thrown value that is not an Error, passed on as one
  return error instanceof Error ? error : new Error(message);
}
