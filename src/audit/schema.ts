import type Database from 'better-sqlite3';

/**
 * The audit database. `audit_log` is the chain; triggers refuse UPDATE and DELETE
 * so a casual edit fails (dropping them is possible, which is why `verifyAudit`
 * re-checks every hash). `audit_head` remembers the last row written, so cutting
 * rows off the end of the chain is caught too.
 */
export const AUDIT_TABLE = 'audit_log';
export const SCHEMA_VERSION = '1';

const DDL = `
CREATE TABLE IF NOT EXISTS audit_log (
  seq INTEGER PRIMARY KEY,
  ts TEXT NOT NULL,
  session_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  event TEXT,
  decision TEXT,
  tool TEXT,
  data TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'hookwise audit log is append-only: UPDATE refused'); END;
CREATE TRIGGER IF NOT EXISTS audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'hookwise audit log is append-only: DELETE refused'); END;
CREATE TABLE IF NOT EXISTS audit_head (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  seq INTEGER NOT NULL,
  hash TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS audit_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

export function createSchema(db: Database.Database): void {
  db.exec(DDL);
  db.prepare(`INSERT OR IGNORE INTO audit_meta (key, value) VALUES ('schema_version', ?)`).run(SCHEMA_VERSION);
}

export function hasAuditTable(db: Database.Database): boolean {
  return db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(AUDIT_TABLE) !== undefined;
}

/** A row as stored. */
export interface StoredRow {
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
