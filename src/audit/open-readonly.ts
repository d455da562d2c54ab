import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { AuditDatabaseFormatError, AuditDatabaseMissingError } from './errors.js';
import { hasAuditTable } from './schema.js';

/** Opens an existing audit database for reading; clear errors when it is missing or foreign. */
export function openAuditReadonly(file: string): Database.Database {
  if (!existsSync(file)) throw new AuditDatabaseMissingError(file);
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    if (!hasAuditTable(db)) throw new AuditDatabaseFormatError(file, 'it has no audit_log table');
    return db;
  } catch (error) {
    db?.close();
    if (error instanceof AuditDatabaseFormatError) throw error;
    throw new AuditDatabaseFormatError(file, error instanceof Error ? error.message : String(error));
  }
}
