import { openAuditReadonly } from './open-readonly.js';
import { chainedFieldsOf } from './chain.js';
import type { StoredRow } from './schema.js';
import { AuditQueryError } from './errors.js';

export interface AuditFilters {
  sessionId?: string;
  /** `outcome`, `tool`, or another record kind. */
  kind?: string;
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
  /** The chain the row belongs to (PostgreSQL only; SQLite keeps one chain). */
  stream?: string;
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
  const { db, close } = openAuditReadonly(path);
  try {
    const { sql, params } = buildQuery(filters);
    for (const row of db.prepare(sql).iterate(...params) as IterableIterator<StoredRow>) yield toAuditRow(row);
  } finally {
    close();
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
  const { db, close } = openAuditReadonly(path);
  try {
    return (db.prepare('SELECT count(*) AS n FROM audit_log').get() as { n: number }).n;
  } finally {
    close();
  }
}

function buildQuery(filters: AuditFilters): { sql: string; params: unknown[] } {
  const { where, params, limit } = buildFilters(filters, 'sqlite');
  let sql = `SELECT * FROM audit_log${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
  if (limit !== undefined) {
    sql = `SELECT * FROM (${sql} ORDER BY seq DESC LIMIT ?) ORDER BY seq`;
    params.push(limit);
  } else sql += ' ORDER BY seq';
  return { sql, params };
}

/** The WHERE clauses of the filters, in either store's SQL (`?` or `$n` placeholders). */
export function buildFilters(
  filters: AuditFilters,
  dialect: 'sqlite' | 'postgres',
): { where: string[]; params: unknown[]; limit: number | undefined } {
  const where: string[] = [];
  const params: unknown[] = [];
  const next = (value: unknown) => {
    params.push(value);
    return dialect === 'sqlite' ? '?' : `$${params.length}`;
  };
  const equal = (column: string, value: string | undefined) => {
    if (value !== undefined) where.push(`${column} = ${next(value)}`);
  };
  equal('session_id', filters.sessionId);
  equal('kind', filters.kind);
  equal('event', filters.event);
  equal('tool', filters.tool);
  if (filters.decision === 'none') where.push('decision IS NULL');
  else equal('decision', filters.decision);
  // Times are compared as instants, so records written in different zones compare right.
  const instant = (column: string, field: 'since' | 'until', op: string) => {
    const value = filters[field];
    if (value === undefined) return;
    const at = next(isoTime(value, field));
    where.push(dialect === 'sqlite' ? `julianday(${column}) ${op} julianday(${at})` : `${column}::timestamptz ${op} ${at}::timestamptz`);
  };
  instant('ts', 'since', '>=');
  instant('ts', 'until', '<=');
  const limit = filters.limit;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0))
    throw new AuditQueryError(`audit query: limit must be a whole number >= 0, got ${limit}`);
  return { where, params, limit };
}

function isoTime(value: string | Date, field: string): string {
  const time = value instanceof Date ? value.getTime() : Date.parse(value);
  if (Number.isNaN(time))
    throw new AuditQueryError(
      `audit query: ${field} must be an ISO 8601 time (e.g. 2026-01-31T12:00:00Z), got ${JSON.stringify(String(value))}`,
    );
  return new Date(time).toISOString();
}

export function toAuditRow(row: StoredRow): AuditRow {
  let data: unknown;
  try {
    data = JSON.parse(row.data);
  } catch {
    // A tampered row may hold anything; show it as stored rather than fail the listing.
    data = row.data;
  }
  const shown: AuditRow = { ...chainedFieldsOf(row), data, prevHash: row.prev_hash, hash: row.hash };
  return row.stream === undefined ? shown : { stream: row.stream, ...shown };
}
