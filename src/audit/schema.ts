import type Database from 'better-sqlite3';

/**
 * The SQLite audit database. `audit_log` is the chain; triggers refuse UPDATE and
 * DELETE so a casual edit fails (dropping them is possible, which is why
 * `verifyAudit` re-checks every hash). `audit_head` remembers the last row written
 * and its MAC, so cutting rows off the end of the chain is caught too. The schema
 * is built by the versioned migrations of ./migrations.ts.
 */
export const AUDIT_TABLE = 'audit_log';

export function hasAuditTable(db: Database.Database): boolean {
  return db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(AUDIT_TABLE) !== undefined;
}

/** A row as stored (both stores; `stream` is '' in SQLite, which keeps one chain). */
export interface StoredRow {
  stream?: string;
  seq: number;
  ts: string;
  session_id: string;
  kind: string;
  event: string | null;
  decision: string | null;
  tool: string | null;
  data: string;
  prev_hash: string;
  hash: string;
}
