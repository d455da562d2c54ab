import { coverageOf, type AuditCoverage } from './coverage.js';
import { AuditDatabaseMissingError } from './errors.js';
import { isPostgresUrl } from './postgres-url.js';
import { iterateAudit, queryAudit, type AuditFilters, type AuditRow } from './query.js';
import { verifyAudit, type AuditVerifyOptions, type AuditVerifyResult } from './verify.js';
import { existsSync } from 'node:fs';
import { missingPackage } from '../core/missing-package.js';

/**
 * The readers of `hookwise audit`, for either store: a path is an SQLite
 * database, a `postgres://` URL a PostgreSQL one. PostgreSQL code is loaded only
 * when a URL is given.
 */
export async function verifyAuditTrail(target: string, options: AuditVerifyOptions = {}): Promise<AuditVerifyResult> {
  if (!isPostgresUrl(target)) return verifyAudit(target, options);
  return (await import('./postgres-read.js')).verifyPostgres(target, options);
}

/** The matching rows, oldest first (PostgreSQL: by time, then stream and seq). */
export async function queryAuditTrail(target: string, filters: AuditFilters = {}): Promise<AuditRow[]> {
  if (!isPostgresUrl(target)) return queryAudit(target, filters);
  return (await import('./postgres-read.js')).queryPostgres(target, filters);
}

/** Writes the matching rows as JSON Lines through `write`; returns how many. */
export async function exportAuditTrail(target: string, filters: AuditFilters, write: (chunk: string) => void): Promise<number> {
  if (!isPostgresUrl(target) && !existsSync(target)) throw new AuditDatabaseMissingError(target);
  const rows: Iterable<AuditRow> = isPostgresUrl(target) ? await queryAuditTrail(target, filters) : iterateAudit(target, filters);
  let count = 0;
  for (const row of rows) {
    write(`${JSON.stringify(row)}\n`);
    count++;
  }
  return count;
}

/** Tool executions without an allowing PreToolUse outcome (see ./coverage.ts). */
export async function auditCoverage(target: string): Promise<AuditCoverage> {
  if (!isPostgresUrl(target)) return coverageOf(iterateAudit(target), target);
  const { postgresTarget } = await import('./postgres-store.js').catch((error: unknown) => {
    throw missingPackage(error, 'pg', 'A PostgreSQL audit trail (a postgres:// URL)');
  });
  return coverageOf(await queryAuditTrail(target), postgresTarget(target).shown);
}
