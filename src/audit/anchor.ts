import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { HookwiseError } from '../core/errors.js';

/**
 * The anchor: what lets `verify` notice that a chain was rolled back (rows cut off
 * the end, the head rewritten to match, or a write-ahead log lost after a crash).
 * A chain alone cannot show that; something kept outside the database can.
 *
 * - Every head (the last seq and hash of a stream) carries a MAC: HMAC-SHA256 with
 *   a key that is not in the database. Without the key, a rewritten head cannot be
 *   signed.
 * - The SQLite store also writes its head to a sidecar file (`<db>.head`) after
 *   every commit, atomically (temp file, then rename). A database that ends before
 *   the sidecar does was rolled back.
 */

/** The environment variable holding the audit key (any string of 16+ characters). */
export const AUDIT_KEY_ENV = 'HOOKWISE_AUDIT_KEY';
/** The environment variable naming a key file instead. */
export const AUDIT_KEY_FILE_ENV = 'HOOKWISE_AUDIT_KEY_FILE';

/** A stream's head, as stored in `audit_head` and in the sidecar. */
export interface Head {
  stream: string;
  seq: number;
  hash: string;
  /** HMAC-SHA256 of the head, hex; null when no key was configured. */
  mac: string | null;
  /**
   * In an anchor only: written inside the commit's transaction, before it
   * commits. The head before it, where the chain still ends if that commit never
   * completed; cleared by the write after the commit.
   */
  committing?: { seq: number; hash: string };
}

export interface AuditKeyOptions {
  /** The key itself. Default: `$HOOKWISE_AUDIT_KEY`, else the key file. */
  key?: string | Buffer;
  /** A file holding the key. Default: `$HOOKWISE_AUDIT_KEY_FILE`, else the store's default key file. */
  keyFile?: string;
}

/** A key file that exists but cannot be used. */
export class AuditKeyError extends HookwiseError {
  override readonly code = 'AUDIT_KEY';
}

export interface ResolvedKey {
  key: Buffer;
  /** Where it came from, for messages: `$HOOKWISE_AUDIT_KEY` or a file path. */
  source: string;
}

/**
 * Finds the audit key: `options.key`, `$HOOKWISE_AUDIT_KEY`, `options.keyFile`,
 * `$HOOKWISE_AUDIT_KEY_FILE`, then `defaultFile`. With `create`, a missing default
 * file is created with 32 random bytes and mode 0600. Returns undefined when there is none.
 */
export function resolveAuditKey(
  options: AuditKeyOptions,
  defaultFile: string | undefined,
  create: boolean,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedKey | undefined {
  if (options.key !== undefined) return { key: checkedKey(Buffer.from(options.key), 'the key option'), source: 'the key option' };
  if (env[AUDIT_KEY_ENV]) return { key: checkedKey(Buffer.from(env[AUDIT_KEY_ENV]!), `$${AUDIT_KEY_ENV}`), source: `$${AUDIT_KEY_ENV}` };
  const file = options.keyFile ?? env[AUDIT_KEY_FILE_ENV] ?? defaultFile;
  if (file === undefined) return undefined;
  const explicit = file !== defaultFile;
  const source = keyFileSource(file, options.keyFile !== undefined ? 'option' : env[AUDIT_KEY_FILE_ENV] ? 'env' : 'default');
  if (!existsSync(file)) {
    if (explicit)
      throw new AuditKeyError(
        `audit key file ${file} does not exist (create it with: head -c 32 /dev/urandom | xxd -p -c 64 > ${file}; chmod 600 ${file})`,
      );
    if (!create) return undefined;
    createKeyFile(file);
  }
  return { key: readKeyFile(file), source };
}

/** Where a key file was named, for messages (the path, never the key): `--key-file`, the env var, or the default. */
export function keyFileSource(file: string, from: 'option' | 'env' | 'default'): string {
  if (from === 'option') return `the key file ${file} (--key-file)`;
  if (from === 'env') return `the key file ${file} ($${AUDIT_KEY_FILE_ENV})`;
  return `the default key file ${file}`;
}

/**
 * Writes the key to a temp file, fsyncs it, then links it into place: the key file
 * appears whole or not at all (a writer killed half-way through an `open('wx')` and
 * its write left an empty key file that stopped every later store). Another process
 * creating it at the same moment wins, and its key is read by the caller.
 */
function createKeyFile(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  try {
    const fd = openSync(temp, 'w', 0o600);
    try {
      writeSync(fd, `${randomBytes(32).toString('hex')}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    linkSync(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw new AuditKeyError(`cannot create the audit key file ${file}: ${(error as Error).message}`);
  } finally {
    rmSync(temp, { force: true });
  }
}

export function readKeyFile(file: string): Buffer {
  const mode = statSync(file).mode;
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    throw new AuditKeyError(
      `audit key file ${file} can be read by other users (mode ${(mode & 0o777).toString(8)}); run: chmod 600 ${file}`,
    );
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    // A trail mounted or copied for another user to check: the key stays its owner's (mode 0600).
    throw new AuditKeyError(
      `cannot read the audit key file ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): run as its owner, or give the key with --key-file <file> or $${AUDIT_KEY_ENV}`,
    );
  }
  return checkedKey(Buffer.from(text.trim()), file);
}

function checkedKey(key: Buffer, source: string): Buffer {
  if (key.length < 16) throw new AuditKeyError(`the audit key from ${source} is too short: use 16 characters or more (e.g. 64 hex digits)`);
  return key;
}

/** HMAC-SHA256 over the stream, seq and hash of a head. */
export function headMac(key: Buffer, stream: string, seq: number, hash: string): string {
  return createHmac('sha256', key).update(`hookwise-audit-head:v1\n${stream}\n${seq}\n${hash}`).digest('hex');
}

/**
 * The end of a chain against an anchor (the `<db>.head` sidecar, or hookwise's
 * own copy in the user's state folder): undefined when they agree, else the
 * problem. A chain that goes on past its anchor is a problem too: the anchor is
 * written inside every commit's transaction, so only an anchor put back from an
 * older copy, or a writer that does not anchor, leaves one behind. No writer
 * repairs that by itself: a person runs `hookwise audit reanchor`.
 */
export function anchorProblem(
  anchor: Head,
  /** How messages name it: `the anchor`, or hookwise's own copy with its path. */
  label: string,
  lastSeq: number,
  hashAt: (seq: number) => string | undefined,
): { kind: 'rolled-back' | 'anchor'; seq: number; message: string } | undefined {
  const at = (seq: number, hash: string) => seq === 0 || hashAt(seq) === hash;
  if (anchor.seq === lastSeq && at(anchor.seq, anchor.hash)) return undefined;
  // The commit the anchor announced never completed: the chain ends where it was before.
  if (anchor.committing && anchor.committing.seq === lastSeq && at(lastSeq, anchor.committing.hash)) return undefined;
  if (lastSeq > anchor.seq)
    return {
      kind: 'anchor',
      seq: anchor.seq + 1,
      message: `the chain goes on to seq ${lastSeq} but ${label} says ${anchor.seq}: it is older than the chain (put back from an old copy, or rows written without anchoring); check the trail, then run \`hookwise audit reanchor --reason "..."\``,
    };
  if (anchor.seq > lastSeq) {
    const gone =
      anchor.seq === lastSeq + 1
        ? `row ${anchor.seq} was committed and is gone`
        : `rows ${lastSeq + 1}-${anchor.seq} were committed and are gone`;
    return {
      kind: 'rolled-back',
      seq: lastSeq + 1,
      message: `the chain ends at seq ${lastSeq} but ${label} says ${anchor.seq}: ${gone} (cut off, or a write-ahead log lost after a crash)`,
    };
  }
  return {
    kind: 'rolled-back',
    seq: anchor.seq,
    message: `the row at seq ${anchor.seq} is not the one ${label} recorded: the chain was rewritten from there on`,
  };
}

export function macMatches(key: Buffer, head: Head): boolean {
  if (typeof head.mac !== 'string' || !/^[0-9a-f]{64}$/.test(head.mac)) return false;
  return timingSafeEqual(Buffer.from(head.mac, 'hex'), Buffer.from(headMac(key, head.stream, head.seq, head.hash), 'hex'));
}

/** Where the SQLite store and verify look for the key when none is configured: `audit.key` beside the database. */
export function defaultKeyFileOf(dbPath: string): string {
  return path.join(path.dirname(dbPath), 'audit.key');
}

/** The sidecar anchor of an SQLite database. */
export function anchorPathOf(dbPath: string): string {
  return `${dbPath}.head`;
}

/**
 * Every anchor is this long on disk: a head with its `committing` mark fits, and
 * every write of the file has the same length, so a write never needs a truncate
 * after it (a process killed between the two left an anchor with an old tail).
 */
const ANCHOR_BYTES = 512;

/**
 * Writes the sidecar. With `sync` (the store's `synchronous: 'full'`): a temp file
 * fsynced, then renamed over the old one, so even a power cut leaves one whole
 * anchor. Without: one write of the whole record at offset 0, padded to
 * `ANCHOR_BYTES`, into the existing file. A process killed mid-way cannot tear a
 * single write, and it costs a few microseconds where create + rename cost about
 * 0.3 ms of CPU per durable record (bench/audit.mjs); a power cut may leave it
 * stale or torn, as `synchronous: 'normal'` may lose the last commits. The first
 * write of a file is always temp + rename: a writer killed there leaves no empty
 * anchor behind, only a temp file.
 */
export function writeAnchor(file: string, head: Head, sync: boolean): void {
  const text = `${JSON.stringify({ format: 'hookwise-audit-anchor/1', ...head })}\n`;
  const padded = text.padEnd(Math.max(ANCHOR_BYTES, Math.ceil(text.length / 256) * 256), ' ');
  let fd: number | undefined;
  if (!sync) {
    try {
      fd = openSync(file, 'r+');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  if (fd === undefined) {
    writeWhole(file, padded, sync);
    return;
  }
  try {
    writeSync(fd, padded, 0);
    // Only an anchor from an older version (padded to 256) is longer than the record now.
    if (fstatSync(fd).size > padded.length) ftruncateSync(fd, padded.length);
  } finally {
    closeSync(fd);
  }
}

/** A temp file (fsynced with `sync`) renamed over `file`: readers see the old anchor or the new one, whole. */
function writeWhole(file: string, text: string, sync: boolean): void {
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w', 0o644);
  try {
    writeSync(fd, text);
    if (sync) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
}

/** Reads a sidecar; undefined when there is none, an error message when it is unreadable. */
export function readAnchor(file: string): Head | undefined | { error: string } {
  const first = readAnchorOnce(file);
  // A read that met a write half-way sees a mix of two records: read again.
  return first !== undefined && 'error' in first && !first.error.startsWith('cannot read') ? readAnchorOnce(file) : first;
}

function readAnchorOnce(file: string): Head | undefined | { error: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return { error: `cannot read the anchor ${file}: ${(error as Error).message}` };
  }
  try {
    // The record is the first line; what follows it is padding.
    const newline = text.indexOf('\n');
    const value = JSON.parse(newline < 0 ? text : text.slice(0, newline)) as Record<string, unknown>;
    const committing = value.committing as { seq?: unknown; hash?: unknown } | undefined;
    if (
      value.format === 'hookwise-audit-anchor/1' &&
      typeof value.stream === 'string' &&
      Number.isSafeInteger(value.seq) &&
      typeof value.hash === 'string' &&
      (value.mac === null || typeof value.mac === 'string') &&
      (committing === undefined || (Number.isSafeInteger(committing.seq) && typeof committing.hash === 'string'))
    ) {
      const head: Head = { stream: value.stream, seq: value.seq as number, hash: value.hash, mac: value.mac as string | null };
      if (committing) head.committing = { seq: committing.seq as number, hash: committing.hash as string };
      return head;
    }
  } catch {
    // Reported below.
  }
  return { error: `the anchor ${file} is not a hookwise audit anchor` };
}

/** Who re-anchors a trail and why (`hookwise audit reanchor`). */
export interface Reanchor {
  by: string;
  reason: string;
}

/** What an anchor or copy said, for the `reanchor` record: its seq and hash, `missing`, or why it could not be read. */
export function anchorSaid(file: string | undefined): { seq: number; hash: string } | string | null {
  if (!file) return null;
  const a = readAnchor(file);
  return a === undefined ? 'missing' : 'error' in a ? a.error : { seq: a.seq, hash: a.hash };
}

/** The record a re-anchoring leaves in the chain, for both stores: who, why, and what the anchors said. */
export function reanchorRecord(by: Reanchor, said: Record<string, unknown>) {
  return { kind: 'reanchor', ts: new Date().toISOString(), sessionId: 'hookwise', data: { by: by.by, reason: by.reason, ...said } };
}
