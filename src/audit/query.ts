import type Database from 'better-sqlite3';
import { openAuditReadonly } from './open-readonly.js';
import { chainedFieldsOf } from './chain.js';
import type { StoredRow } from './schema.js';

export interface AuditFilters {
  sessionId?: string;
  kind?: 'outcome' | 'tool';
  event?: string;
  /** A decision (`allow`, `deny`, `ask`, `defer`), or `none` for records without one. */
  decision?: string;
  tool?: string;
  /** Records at or after this time (ISO 8601 or a Date). */
  since?: string | Date;
  /** Records at or before this time. */
  until?: string | Date;
  /** Only the N most recent matching records (still returned oldest first). */
  limit?: number;
}

/** A row as `hookwise audit` shows and exports it. */
export interface AuditRow {
  seq: number;
  ts: string;
  sessionId: string;
  kind: string;
  event: string | null;
  decision: string | null;
  tool: string | null;
  data: unknown;
  prevHash: string;
  hash: string;
}

/** The matching rows, oldest first. */
export function queryAudit(path: string, filters: AuditFilters = {}): AuditRow[] {
  return [...iterateAudit(path, filters)];
}

/** The matching rows, oldest first, one at a time (for exports larger than memory). */
export function* iterateAudit(path: string, filters: AuditFilters = {}): Generator<AuditRow> {
  const db = openAuditReadonly(path);
  try {
    const { sql, params } = buildQuery(filters);
    for (const row of db.prepare(sql).iterate(...params) as IterableIterator<StoredRow>) yield toAuditRow(row);
  } finally {
    db.close();
  }
}

/** Writes the matching rows as JSON Lines through `write`; returns how many. */
export function exportAuditJsonl(path: string, filters: AuditFilters, write: (chunk: string) => void): number {
  let count = 0;
  for (const row of iterateAudit(path, filters)) {
    write(`${JSON.stringify(row)}\n`);
    count++;
  }
  return count;
}

/** Counts the rows in an audit database (no filters). */
export function countAudit(path: string): number {
  const db: Database.Database = openAuditReadonly(path);
  try {
    return (db.prepare('SELECT count(*) AS n FROM audit_log').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

function buildQuery(filters: AuditFilters): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const equal = (column: string, value: string | undefined) => {
    if (value === undefined) return;
    where.push(`${column} = ?`);
    params.push(value);
  };
  equal('session_id', filters.sessionId);
  equal('kind', filters.kind);
  equal('event', filters.event);
  equal('tool', filters.tool);
  if (filters.decision === 'none') where.push('decision IS NULL');
  else equal('decision', filters.decision);
  // julianday() reads ISO 8601 with any offset, so records in different zones compare by instant.
  if (filters.since !== undefined) {
    where.push('julianday(ts) >= julianday(?)');
    params.push(isoTime(filters.since, 'since'));
  }
  if (filters.until !== undefined) {
    where.push('julianday(ts) <= julianday(?)');
    params.push(isoTime(filters.until, 'until'));
  }
  let sql = `SELECT * FROM audit_log${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
  if (filters.limit !== undefined) {
    if (!Number.isInteger(filters.limit) || filters.limit < 0) throw new RangeError(`audit query: limit must be a whole number >= 0, got ${filters.limit}`);
    sql = `SELECT * FROM (${sql} ORDER BY seq DESC LIMIT ?) ORDER BY seq`;
    params.push(filters.limit);
  } else sql += ' ORDER BY seq';
  return { sql, params };
}

function isoTime(value: string | Date, field: string): string {
  const time = value instanceof Date ? value.getTime() : Date.parse(value);
  if (Number.isNaN(time)) throw new RangeError(`audit query: ${field} must be an ISO 8601 time (e.g. 2026-01-31T12:00:00Z), got ${JSON.stringify(String(value))}`);
  return new Date(time).toISOString();
}

function toAuditRow(row: StoredRow): AuditRow {
  let data: unknown;
  try {
    data = JSON.parse(row.data);
  } catch {
    // A tampered row may hold anything; show it as stored rather than fail the listing.
    data = row.data;
  }
  return { ...chainedFieldsOf(row), data, prevHash: row.prev_hash, hash: row.hash };
}
