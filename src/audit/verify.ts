import type Database from 'better-sqlite3';
import { chainedFieldsOf, GENESIS_HASH, rowHash } from './chain.js';
import { openAuditReadonly } from './open-readonly.js';
import type { StoredRow } from './schema.js';

export type AuditProblemKind = 'edited' | 'deleted' | 'reordered' | 'broken-link';

export interface AuditProblem {
  /** The row at fault; for `deleted`, the first missing seq. */
  seq: number;
  kind: AuditProblemKind;
  message: string;
  event?: string | null;
  tool?: string | null;
}

export interface AuditVerifyResult {
  ok: boolean;
  path: string;
  /** Rows in the database. */
  rows: number;
  /** Hash of the last row: record it elsewhere to detect a rewrite of the whole file. */
  headHash: string;
  problems: AuditProblem[];
}

/**
 * Re-checks the whole chain: every row's hash against its content, every
 * `prev_hash` against the row before, seq numbers without gaps from 1, and the
 * head (last row written) against the last row present.
 *
 * What it cannot see: someone who rewrites every hash from the point of a change
 * onwards (and the head) leaves a valid chain; compare `headHash` with a copy kept
 * elsewhere to catch that.
 */
export function verifyAudit(path: string): AuditVerifyResult {
  const db = openAuditReadonly(path);
  try {
    // One read transaction: a writer appending meanwhile cannot make the rows and the head disagree.
    db.exec('BEGIN');
    return verifyOpen(db, path);
  } finally {
    if (db.inTransaction) db.exec('COMMIT');
    db.close();
  }
}

function verifyOpen(db: Database.Database, path: string): AuditVerifyResult {
  const problems: AuditProblem[] = [];
  let byHash: Map<string, number> | undefined;
  // Built only once something looks wrong: finds where a moved row came from.
  const seqOfHash = (hash: string): number | undefined => {
    if (hash === GENESIS_HASH) return 0;
    byHash ??= new Map(
      (db.prepare('SELECT seq, hash FROM audit_log').raw().all() as Array<[number, string]>).map(([seq, h]) => [h, seq]),
    );
    return byHash.get(hash);
  };

  let rows = 0;
  let prev: StoredRow | undefined;
  let prevFlagged = false;
  for (const row of db.prepare('SELECT * FROM audit_log ORDER BY seq').iterate() as IterableIterator<StoredRow>) {
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
          ? { seq: row.seq, kind: 'edited', message: `${describeRow(row)} was edited: its hash does not match its content`, event: row.event, tool: row.tool }
          : { seq: row.seq, kind: 'reordered', message: `${describeRow(row)} was moved: it was written as seq ${from}`, event: row.event, tool: row.tool },
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

  checkHead(db, prev, problems);
  return { ok: problems.length === 0, path, rows, headHash: prev?.hash ?? GENESIS_HASH, problems };
}

/** A row whose hash is right for another seq was moved there from that seq. */
function movedFrom(row: StoredRow, seqOfHash: (hash: string) => number | undefined): number | undefined {
  const before = seqOfHash(row.prev_hash);
  if (before === undefined) return undefined;
  const original = before + 1;
  return original !== row.seq && hashOf(row, original) === row.hash ? original : undefined;
}

function checkHead(db: Database.Database, last: StoredRow | undefined, problems: AuditProblem[]): void {
  const head = db.prepare('SELECT seq, hash FROM audit_head WHERE id = 1').get() as { seq: number; hash: string } | undefined;
  const lastSeq = last?.seq ?? 0;
  if (!head) {
    if (last) problems.push({ seq: lastSeq, kind: 'broken-link', message: 'the audit_head row is missing: the end of the chain cannot be checked' });
    return;
  }
  if (head.seq > lastSeq) {
    const missing = head.seq === lastSeq + 1 ? `row ${head.seq} is` : `rows ${lastSeq + 1}-${head.seq} are`;
    problems.push({ seq: lastSeq + 1, kind: 'deleted', message: `${missing} missing from the end: the last row written was seq ${head.seq}` });
  } else if (head.seq < lastSeq) {
    problems.push({
      seq: head.seq + 1,
      kind: 'broken-link',
      message: `rows after seq ${head.seq} were added outside the audit store (the last row it wrote was seq ${head.seq})`,
    });
  } else if (last && head.hash !== last.hash) {
    problems.push({
      seq: last.seq,
      kind: 'edited',
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
