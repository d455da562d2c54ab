import type Database from 'better-sqlite3';
import {
  AUDIT_KEY_ENV,
  anchorPathOf,
  anchorProblem,
  defaultKeyFileOf,
  macMatches,
  readAnchor,
  resolveAuditKey,
  type AuditKeyOptions,
  type Head,
  type ResolvedKey,
} from './anchor.js';
import { chainedFieldsOf, GENESIS_HASH, rowHash } from './chain.js';
import type { ApprovalRow } from './approval-record.js';
import { AuditDatabaseFormatError } from './errors.js';
import { openAuditReadonly, readError } from './open-readonly.js';
import type { StoredRow } from './schema.js';
import { headCopyPath, sqliteCopyProblem, sqliteIdentity, userStateDir } from './head-copy.js';
import { checkApprovals, parsedRecord } from './verify-approvals.js';
import { classifyKeyMismatch } from './key-mismatch.js';

export type AuditProblemKind =
  | 'edited'
  | 'deleted'
  | 'reordered'
  | 'broken-link'
  | 'rolled-back'
  | 'forged-head'
  /** The heads are signed with another key than verify's (./key-mismatch.ts): not tampering. */
  | 'key-mismatch'
  | 'anchor'
  /** An approvals row that disagrees with what is signed (./verify-approvals.ts). */
  | 'approval';

export interface AuditProblem {
  /** The row at fault; for `deleted`, the first missing seq. */
  seq: number;
  kind: AuditProblemKind;
  message: string;
  /** The chain (PostgreSQL streams; absent for SQLite's one chain). */
  stream?: string;
  /** For `approval` problems: the approval's id (`seq` is then its row in the approvals table). */
  approval?: string;
  event?: string | null;
  tool?: string | null;
}

export interface AuditVerifyResult {
  ok: boolean;
  /** The database file, or the PostgreSQL URL without its password. */
  path: string;
  /** Rows in the database. */
  rows: number;
  /** Hash of the last row (SQLite; for PostgreSQL, of the last stream checked). */
  headHash: string;
  /** Heads were checked against their MAC with the audit key. */
  signed: boolean;
  /** The chain's end was checked against the anchor file (SQLite). */
  anchored: boolean;
  /** Chains checked (1 for SQLite). */
  streams: number;
  /**
   * hookwise's own copy of the head in the user's state folder (./head-copy.ts):
   * `checked`; `missing` when this user on this machine has none (another machine
   * or user, a trail copied here): SQLite is then checked against its anchor only,
   * PostgreSQL against its chains only; `off` with `anchor: false`.
   */
  headCopy: 'checked' | 'missing' | 'off';
  problems: AuditProblem[];
}

export interface AuditVerifyOptions extends AuditKeyOptions {
  /** Check the end of the chain against `<db>.head` and hookwise's own copy of the head (default true). */
  anchor?: boolean;
  /** Where hookwise's own copies of heads are (./head-copy.ts); default as the store's. */
  stateDir?: string;
}

/**
 * Re-checks the whole chain: every row's hash against its content, every
 * `prev_hash` against the row before, seq numbers without gaps from 1, the head
 * (last row written) against the last row present and its MAC against the audit
 * key, and the end of the chain against the anchor file.
 *
 * What it cannot see: someone holding the key who rewrites every row from a change
 * onward, the head and the anchor; or an old database put back with its old anchor.
 */
export function verifyAudit(path: string, options: AuditVerifyOptions = {}): AuditVerifyResult {
  const key = resolveAuditKey(options, defaultKeyFileOf(path), false);
  let opened: ReturnType<typeof openAuditReadonly>;
  try {
    opened = openAuditReadonly(path);
  } catch (error) {
    const lost = options.anchor !== false && error instanceof AuditDatabaseFormatError ? lostDatabase(path, key) : undefined;
    if (lost) return lost;
    throw error;
  }
  const { db, close } = opened;
  try {
    for (let attempt = 1; ; attempt++) {
      // One read transaction: a writer appending meanwhile cannot make the rows and the head disagree.
      db.exec('BEGIN');
      const result = verifyOpen(db, path, key, options);
      db.exec('COMMIT');
      // The anchor files are outside that snapshot: a writer that committed while we read
      // moved them past it. Check again from the new end rather than cry rollback.
      if (result.ok || attempt === VERIFY_ATTEMPTS || lastHash(db) === result.headHash) return result;
    }
  } catch (error) {
    throw readError(error, path);
  } finally {
    if (db.inTransaction) db.exec('COMMIT');
    close();
  }
}

/** How often verify reads again when writers kept moving the chain under it. */
const VERIFY_ATTEMPTS = 5;

function lastHash(db: Database.Database): string {
  return (db.prepare('SELECT hash FROM audit_log ORDER BY seq DESC LIMIT 1').pluck().get() as string | undefined) ?? GENESIS_HASH;
}

function verifyOpen(db: Database.Database, path: string, key: ResolvedKey | undefined, options: AuditVerifyOptions): AuditVerifyResult {
  const anchored = options.anchor !== false;
  let byHash: Map<string, number> | undefined;
  // Built only once something looks wrong: finds where a moved row came from.
  const seqOfHash = (hash: string): number | undefined => {
    if (hash === GENESIS_HASH) return 0;
    byHash ??= new Map((db.prepare('SELECT seq, hash FROM audit_log').raw().all() as Array<[number, string]>).map(([seq, h]) => [h, seq]));
    return byHash.get(hash);
  };
  const chain = checkChain(db.prepare('SELECT * FROM audit_log ORDER BY seq').iterate() as IterableIterator<StoredRow>, seqOfHash);
  const problems = chain.problems;
  const stored = db.prepare('SELECT * FROM audit_head WHERE id = 1').get() as
    | { seq: number; hash: string; mac?: string | null }
    | undefined;
  const head = stored && { stream: '', seq: stored.seq, hash: stored.hash, mac: stored.mac ?? null };
  checkHead(head, chain.last, problems);
  checkSignature(head, key, problems);
  let headCopy: AuditVerifyResult['headCopy'] = 'off';
  if (anchored) {
    const hashAt = (seq: number) => db.prepare('SELECT hash FROM audit_log WHERE seq = ?').pluck().get(seq) as string | undefined;
    checkAnchor(anchorPathOf(path), chain.last?.seq ?? 0, hashAt, key, problems);
    headCopy = checkHeadCopy(
      headCopyPath(options.stateDir ?? userStateDir(), sqliteIdentity(path)),
      chain.last?.seq ?? 0,
      hashAt,
      problems,
    );
  }
  const anchor = anchored ? readAnchor(anchorPathOf(path)) : undefined;
  const heads = [head, anchor && !('error' in anchor) ? anchor : undefined].filter((h): h is Head => h !== undefined);
  // Approvals are signed with the same key: with another key, every row would read as changed.
  const mismatch = classifyKeyMismatch(heads, key, problems, options, defaultKeyFileOf(path));
  if (key && !mismatch && db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'approvals'`).get()) {
    const records = (db.prepare(`SELECT data FROM audit_log WHERE kind = 'approval' ORDER BY seq`).pluck().all() as string[]).map(
      parsedRecord,
    );
    checkApprovals(db.prepare('SELECT * FROM approvals ORDER BY seq').all() as ApprovalRow[], records, key.key, problems);
  }
  return {
    ok: problems.length === 0,
    path,
    rows: chain.rows,
    headHash: chain.last?.hash ?? GENESIS_HASH,
    signed: key !== undefined,
    anchored,
    streams: 1,
    headCopy,
    problems,
  };
}

/** A file with no audit table where an anchor says rows were committed: everything was lost (a log deleted after a crash). */
function lostDatabase(path: string, key: ResolvedKey | undefined): AuditVerifyResult | undefined {
  const anchor = readAnchor(anchorPathOf(path));
  if (anchor === undefined || 'error' in anchor || anchor.seq === 0) return undefined;
  const problems: AuditProblem[] = [
    {
      seq: 1,
      kind: 'rolled-back',
      message: `the database holds no audit table but the anchor says the chain reached seq ${anchor.seq}: every row was lost (a write-ahead log deleted after a crash?)`,
    },
  ];
  return {
    ok: false,
    path,
    rows: 0,
    headHash: GENESIS_HASH,
    signed: key !== undefined,
    anchored: true,
    streams: 1,
    headCopy: 'off',
    problems,
  };
}

/** Checks one chain's rows, oldest first: hashes, links and seq gaps. Both stores use it. */
export function checkChain(
  rowsInOrder: Iterable<StoredRow>,
  seqOfHash: (hash: string) => number | undefined,
): { rows: number; last: StoredRow | undefined; problems: AuditProblem[] } {
  const problems: AuditProblem[] = [];
  let rows = 0;
  let prev: StoredRow | undefined;
  let prevFlagged = false;
  for (const row of rowsInOrder) {
    rows++;
    const expectedSeq = (prev?.seq ?? 0) + 1;
    const expectedPrev = prev?.hash ?? GENESIS_HASH;
    const contentOk = hashOf(row, row.seq) === row.hash;
    const linkOk = row.prev_hash === expectedPrev;
    let flagged = false;

    if (row.seq > expectedSeq) {
      const missing = row.seq === expectedSeq + 1 ? `row ${expectedSeq} is` : `rows ${expectedSeq}-${row.seq - 1} are`;
      problems.push({
        seq: expectedSeq,
        kind: 'deleted',
        message: `${missing} missing: the chain resumes at ${describeRow(row)}`,
        event: row.event,
        tool: row.tool,
      });
      flagged = true;
    }
    if (!contentOk) {
      const from = movedFrom(row, seqOfHash);
      problems.push(
        from === undefined
          ? {
              seq: row.seq,
              kind: 'edited',
              message: `${describeRow(row)} was edited: its hash does not match its content`,
              event: row.event,
              tool: row.tool,
            }
          : {
              seq: row.seq,
              kind: 'reordered',
              message: `${describeRow(row)} was moved: it was written as seq ${from}`,
              event: row.event,
              tool: row.tool,
            },
      );
      flagged = true;
    } else if (!linkOk && !flagged && !prevFlagged) {
      // Both rows hash right on their own: the one before was rewritten, hash and all.
      const points = seqOfHash(row.prev_hash);
      const to = points === undefined ? 'a row that is not in the database' : points === 0 ? 'the start of the chain' : `seq ${points}`;
      problems.push(
        prev
          ? {
              seq: prev.seq,
              kind: 'broken-link',
              message: `${describeRow(prev)} was rewritten or replaced: ${describeRow(row)} is chained to ${to} instead`,
              event: prev.event,
              tool: prev.tool,
            }
          : {
              seq: row.seq,
              kind: 'broken-link',
              message: `${describeRow(row)} is the first row but is chained to ${to}: the start of the chain was removed`,
              event: row.event,
              tool: row.tool,
            },
      );
      flagged = true;
    }
    prev = row;
    prevFlagged = flagged;
  }
  return { rows, last: prev, problems };
}

/** The head's MAC: with a key it must match; without one, a signed head cannot be checked and says so. */
export function checkSignature(head: Head | undefined, key: ResolvedKey | undefined, problems: AuditProblem[], stream?: string): void {
  if (!head) return;
  const at = stream === undefined ? '' : ` of stream ${JSON.stringify(stream)}`;
  if (key) {
    if (!macMatches(key.key, head)) {
      problems.push({
        seq: head.seq,
        kind: 'forged-head',
        stream,
        message: `the head${at} (seq ${head.seq}) is ${head.mac ? 'not signed with' : 'unsigned, but verify has'} the audit key from ${key.source}: it was rewritten outside the audit store, or written with another key`,
      });
    }
  } else if (head.mac !== null) {
    problems.push({
      seq: head.seq,
      kind: 'anchor',
      stream,
      message: `the head${at} is signed but no audit key was found to check it: set ${AUDIT_KEY_ENV}, or pass --key-file (default: audit.key beside the database)`,
    });
  }
}

/** The end of the chain against the anchor file written after every commit. */
function checkAnchor(
  file: string,
  lastSeq: number,
  hashAt: (seq: number) => string | undefined,
  key: ResolvedKey | undefined,
  problems: AuditProblem[],
): void {
  const anchor = readAnchor(file);
  if (anchor === undefined) {
    if (lastSeq > 0)
      problems.push({
        seq: lastSeq,
        kind: 'anchor',
        message: `no anchor file ${file}: the end of the chain cannot be checked (rows cut off the end would go unseen); pass --no-anchor to check the chain alone`,
      });
    return;
  }
  if ('error' in anchor) {
    problems.push({ seq: lastSeq, kind: 'anchor', message: anchor.error });
    return;
  }
  const problem = anchorProblem(anchor, 'the anchor', lastSeq, hashAt);
  if (problem) problems.push(problem);
  if (key && !macMatches(key.key, anchor)) {
    problems.push({
      seq: anchor.seq,
      kind: 'forged-head',
      message: `the anchor ${file} is not signed with the audit key from ${key.source}: it was written outside the audit store`,
    });
  }
}

/**
 * The chain against hookwise's own copy of its head, kept outside the workspace
 * (./head-copy.ts): it may lag the chain, never lead it. No copy (a database
 * copied elsewhere, another user) is not a problem: the anchor still applies.
 */
function checkHeadCopy(
  file: string,
  lastSeq: number,
  hashAt: (seq: number) => string | undefined,
  problems: AuditProblem[],
): 'checked' | 'missing' {
  const copy = readAnchor(file);
  // Another user's verify cannot read this user's copy: the anchor still applies.
  if (copy === undefined || 'error' in copy) return 'missing';
  const problem = sqliteCopyProblem(copy, file, lastSeq, hashAt);
  if (problem) problems.push({ seq: problem.seq, kind: 'rolled-back', message: problem.message });
  return 'checked';
}

/** A row whose hash is right for another seq was moved there from that seq. */
function movedFrom(row: StoredRow, seqOfHash: (hash: string) => number | undefined): number | undefined {
  const before = seqOfHash(row.prev_hash);
  if (before === undefined) return undefined;
  const original = before + 1;
  return original !== row.seq && hashOf(row, original) === row.hash ? original : undefined;
}

/** The head row against the last row present. */
export function checkHead(head: Head | undefined, last: StoredRow | undefined, problems: AuditProblem[], stream?: string): void {
  const lastSeq = last?.seq ?? 0;
  if (!head) {
    if (last)
      problems.push({
        seq: lastSeq,
        kind: 'broken-link',
        stream,
        message: 'the head row is missing: the end of the chain cannot be checked',
      });
    return;
  }
  if (head.seq > lastSeq) {
    const missing = head.seq === lastSeq + 1 ? `row ${head.seq} is` : `rows ${lastSeq + 1}-${head.seq} are`;
    problems.push({
      seq: lastSeq + 1,
      kind: 'deleted',
      stream,
      message: `${missing} missing from the end: the last row written was seq ${head.seq}`,
    });
  } else if (head.seq < lastSeq) {
    problems.push({
      seq: head.seq + 1,
      kind: 'broken-link',
      stream,
      message: `rows after seq ${head.seq} were added outside the audit store (the last row it wrote was seq ${head.seq})`,
    });
  } else if (last && head.hash !== last.hash) {
    problems.push({
      seq: last.seq,
      kind: 'edited',
      stream,
      message: `${describeRow(last)} was rewritten: its hash differs from the one recorded when it was written`,
      event: last.event,
      tool: last.tool,
    });
  }
}

function hashOf(row: StoredRow, seq: number): string {
  return rowHash(row.prev_hash, chainedFieldsOf(row, seq));
}

/** `seq 5 (PreToolUse, tool Bash, session s1)`: enough to find the row. */
export function describeRow(row: Pick<StoredRow, 'seq' | 'kind' | 'event' | 'tool' | 'session_id'>): string {
  const parts = [row.event ?? row.kind];
  if (row.tool) parts.push(`tool ${row.tool}`);
  parts.push(`session ${row.session_id}`);
  return `seq ${row.seq} (${parts.join(', ')})`;
}
