import { openAuditReadonly } from '../audit/open-readonly.js';
import { buildFilters, type AuditFilters } from '../audit/query.js';
import { fromRow } from './audit-source.js';
import type { SourceItem } from './types.js';

/** The fields of `data` a replay reads, taken out by SQLite: the rest (the sandbox's long line) is never parsed. */
const FIELDS = ['input', 'blocked', 'decision', 'reason', 'updatedInput', 'hooks'] as const;

/**
 * The PreToolUse decisions of an SQLite trail, oldest first, as replay reads them.
 * SQLite's json_extract picks out the few fields replay needs, so JavaScript parses a
 * few hundred bytes a row instead of the whole Outcome (half the time of a cached
 * replay went to parsing the sandbox's `bwrap` line, which replay never reads). A row
 * whose data is not JSON is read whole, and reported as the record it is.
 */
export function* sqliteDecisions(path: string, filters: AuditFilters): Generator<SourceItem> {
  const { db, close } = openAuditReadonly(path);
  try {
    const { where, params } = buildFilters(filters, 'sqlite');
    // With several paths json_extract answers one JSON array: one parse in SQLite, one in JavaScript.
    const paths = FIELDS.map((f) => `'$.${f}'`).join(', ');
    const sql = `SELECT seq, session_id, json_valid(data) AS valid, CASE WHEN json_valid(data) THEN json_extract(data, ${paths}) ELSE data END AS picked FROM audit_log${
      where.length ? ` WHERE ${where.join(' AND ')}` : ''
    } ORDER BY seq`;
    for (const row of db.prepare(sql).iterate(...params) as IterableIterator<{
      seq: number;
      session_id: string;
      valid: number;
      picked: string;
    }>) {
      const data = row.valid ? dataOf(JSON.parse(row.picked) as unknown[]) : row.picked;
      yield fromRow(path, { seq: row.seq, sessionId: row.session_id, data });
    }
  } finally {
    close();
  }
}

function dataOf(values: unknown[]): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  FIELDS.forEach((f, i) => {
    if (values[i] !== null && values[i] !== undefined) data[f] = values[i];
  });
  return data;
}
