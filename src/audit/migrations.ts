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
  /** SQLite: skip the SQL when this says it is already applied (a database whose ledger was lost). */
  applied?: (db: Database.Database) => boolean;
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
  {
    version: 3,
    name: 'approvals',
    // IF NOT EXISTS: a database whose ledger was lost (see migrateSqlite) replays this one over the table.
    sql: `
CREATE TABLE IF NOT EXISTS approvals (
  -- The order requests were made in: newest first is seq DESC, whatever the clocks of the processes.
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  key TEXT UNIQUE,
  tenant TEXT NOT NULL,
  session_id TEXT NOT NULL,
  event TEXT NOT NULL,
  tool TEXT,
  input TEXT,
  tool_use_id TEXT,
  hook TEXT,
  reason TEXT,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  on_expiry TEXT NOT NULL CHECK (on_expiry IN ('approve', 'deny')),
  state TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'denied', 'expired')),
  answered_by TEXT,
  answered_at TEXT,
  note TEXT,
  scope TEXT NOT NULL DEFAULT 'once' CHECK (scope IN ('once', 'session')),
  -- How much of the row the audit chain holds: 0 nothing, 1 the request, 2 the answer too (src/audit/approval-record.ts).
  chained INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS approvals_by_state ON approvals (state, expires_at);
CREATE INDEX IF NOT EXISTS approvals_by_session ON approvals (tenant, session_id, tool);`,
  },
  {
    version: 4,
    name: 'signed approvals',
    applied: (db) => (db.prepare(`SELECT 1 FROM pragma_table_info('approvals') WHERE name = 'mac'`).get() as unknown) !== undefined,
    // The row's signature (src/audit/approval-trust.ts), and the chain's approval records found by id.
    sql: `
ALTER TABLE approvals ADD COLUMN mac TEXT;
CREATE INDEX IF NOT EXISTS audit_log_approval_id ON audit_log (json_extract(data, '$.id')) WHERE kind = 'approval';`,
  },
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
  {
    version: 2,
    name: 'approvals',
    sql: `
CREATE TABLE approvals (
  -- The order requests were made in: newest first is seq DESC, whatever the clocks of the replicas.
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id text NOT NULL UNIQUE,
  key text UNIQUE,
  tenant text NOT NULL,
  session_id text NOT NULL,
  event text NOT NULL,
  tool text,
  input text,
  tool_use_id text,
  hook text,
  reason text,
  created_at text NOT NULL,
  expires_at text NOT NULL,
  on_expiry text NOT NULL CHECK (on_expiry IN ('approve', 'deny')),
  state text NOT NULL CHECK (state IN ('pending', 'approved', 'denied', 'expired')),
  answered_by text,
  answered_at text,
  note text,
  scope text NOT NULL DEFAULT 'once' CHECK (scope IN ('once', 'session')),
  -- How much of the row the audit chain holds: 0 nothing, 1 the request, 2 the answer too (src/audit/approval-record.ts).
  chained integer NOT NULL DEFAULT 0
);
CREATE INDEX approvals_by_state ON approvals (state, expires_at);
CREATE INDEX approvals_by_session ON approvals (tenant, session_id, tool);`,
  },
  {
    version: 3,
    name: 'signed approvals',
    // The row's signature (src/audit/approval-trust.ts), and the chain's approval records found by id.
    sql: `
ALTER TABLE approvals ADD COLUMN mac text;
CREATE INDEX audit_log_approval_id ON audit_log ((data::jsonb ->> 'id')) WHERE kind = 'approval';`,
  },
  {
    version: 4,
    name: 'trail id',
    // One row: the trail's random id, signed (./postgres-trail.ts), written by the first store to open the schema.
    sql: `
CREATE TABLE audit_trail (
  id integer PRIMARY KEY CHECK (id = 1),
  trail_id text NOT NULL,
  mac text,
  created_at timestamptz NOT NULL DEFAULT now()
);`,
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
      if (!m.applied?.(db)) db.exec(m.sql);
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
