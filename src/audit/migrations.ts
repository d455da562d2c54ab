import type Database from 'better-sqlite3';
import type { PoolClient } from 'pg';

/**
 * Versioned schema migrations for both stores, applied in order and recorded in
 * `schema_migrations` (version, name, applied_at). A dozen lines of runner per
 * store rather than a migration library: the SQLite one must be synchronous
 * (better-sqlite3, and stores opened inside a process 'exit' path), the PostgreSQL
 * one must hold an advisory lock so replicas starting together migrate once, and
 * neither needs down-migrations or files on disk.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const SQLITE_MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'audit log, head and meta',
    sql: `
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
INSERT OR IGNORE INTO audit_meta (key, value) VALUES ('schema_version', '1');`,
  },
  { version: 2, name: 'signed head', sql: 'ALTER TABLE audit_head ADD COLUMN mac TEXT;' },
];

export const POSTGRES_MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'audit log and heads, one chain per stream',
    sql: `
CREATE TABLE audit_log (
  stream text NOT NULL,
  seq bigint NOT NULL,
  ts text NOT NULL,
  session_id text NOT NULL,
  kind text NOT NULL,
  event text,
  decision text,
  tool text,
  data text NOT NULL,
  prev_hash text NOT NULL,
  hash text NOT NULL,
  PRIMARY KEY (stream, seq)
);
CREATE TABLE audit_head (
  stream text PRIMARY KEY,
  seq bigint NOT NULL,
  hash text NOT NULL,
  mac text
);
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'hookwise audit log is append-only: % refused', TG_OP; END $$;
CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();`,
  },
];

const SQLITE_LEDGER = `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`;

/** Brings an SQLite audit database up to date, in one write transaction; returns the versions it applied. */
export function migrateSqlite(db: Database.Database): number[] {
  const done: number[] = [];
  db.transaction(() => {
    db.exec(SQLITE_LEDGER);
    const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
    // A database written before the ledger existed has version 1 (audit_meta says so).
    if (applied.size === 0 && db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'audit_log'`).get())
      applied.add(recordSqlite(db, SQLITE_MIGRATIONS[0]!));
    for (const m of SQLITE_MIGRATIONS) {
      if (applied.has(m.version)) continue;
      db.exec(m.sql);
      recordSqlite(db, m);
      done.push(m.version);
    }
  }).immediate();
  return done;
}

function recordSqlite(db: Database.Database, m: Migration): number {
  db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, new Date().toISOString());
  return m.version;
}

/** Whether an SQLite database still lacks migrations (a reader then knows which columns exist). */
export function sqliteVersion(db: Database.Database): number {
  if (!db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'schema_migrations'`).get()) return 1;
  return (db.prepare('SELECT max(version) FROM schema_migrations').pluck().get() as number | null) ?? 1;
}

/**
 * Brings a PostgreSQL schema up to date in one transaction, under an advisory lock
 * per schema, so replicas starting at once migrate exactly once.
 */
export async function migratePostgres(client: PoolClient, schema: string): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`hookwise-audit:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((r) => r.version));
    for (const m of POSTGRES_MIGRATIONS) {
      if (applied.has(m.version)) continue;
      await client.query(m.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
