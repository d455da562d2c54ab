import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { AuditDatabaseFormatError, AuditDatabaseLockedError, AuditDatabaseMissingError, sqliteCode } from './errors.js';
import { hasAuditTable } from './schema.js';

/** Readers wait this long for a lock: a writer in WAL mode never blocks them, so a wait means something odd. */
export const READ_LOCK_WAIT_MS = 500;

export interface ReadonlyAudit {
  db: Database.Database;
  close(): void;
}

/**
 * Opens an existing audit database for reading; clear errors when it is missing,
 * foreign or locked. A WAL-mode database on a read-only mount or folder cannot be
 * opened in place (SQLite needs its -shm file beside it): it is then read from a
 * private copy (the database and its -wal), which is what "verify a read-only copy" needs.
 */
export function openAuditReadonly(file: string): ReadonlyAudit {
  if (!existsSync(file)) throw new AuditDatabaseMissingError(file);
  try {
    return openAt(file, file, () => {});
  } catch (error) {
    if (sqliteCode(error) !== 'SQLITE_CANTOPEN' && sqliteCode(error) !== 'SQLITE_READONLY_DIRECTORY') throw error;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-audit-ro-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const copy = path.join(dir, path.basename(file));
    copyFileSync(file, copy);
    if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
    return openAt(copy, file, remove);
  } catch (error) {
    remove();
    throw error;
  }
}

function openAt(file: string, shownAs: string, cleanup: () => void): ReadonlyAudit {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, timeout: READ_LOCK_WAIT_MS });
    if (!hasAuditTable(db)) throw new AuditDatabaseFormatError(shownAs, 'it has no audit_log table');
    const opened = db;
    return {
      db: opened,
      close: () => {
        opened.close();
        cleanup();
      },
    };
  } catch (error) {
    db?.close();
    throw readError(error, shownAs);
  }
}

/** SQLite's error, said in the words of the problem a user has to fix. */
export function readError(error: unknown, file: string): unknown {
  if (error instanceof AuditDatabaseFormatError) return error;
  const code = sqliteCode(error);
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return new AuditDatabaseLockedError(file, READ_LOCK_WAIT_MS);
  if (code === 'SQLITE_CANTOPEN' || code.startsWith('SQLITE_READONLY') || code === 'SQLITE_IOERR' || code === 'SQLITE_PERM') return error;
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return new AuditDatabaseFormatError(file, error instanceof Error ? error.message : String(error));
  }
  return error;
}
