import type { AuditRecord } from '../audit/types.js';
import type { ApprovalRow } from '../audit/approval-record.js';
import type { ApprovalFilter } from './types.js';

/**
 * What the store needs of the `approvals` table, on SQLite or PostgreSQL. Every
 * change is one conditional statement, so processes and replicas sharing the
 * table agree on it without a lock of their own.
 */
export interface ApprovalTable {
  /** Inserts the row; false when its key is taken (the row is then not written). */
  insert(row: ApprovalRow): Promise<boolean>;
  byId(id: string): Promise<ApprovalRow | undefined>;
  byKey(key: string): Promise<ApprovalRow | undefined>;
  /** Newest first. */
  list(filter: ApprovalFilter): Promise<ApprovalRow[]>;
  /** Pending rows whose deadline is at or before `now` (ISO 8601). */
  due(now: string): Promise<ApprovalRow[]>;
  /**
   * Writes the answered row (every column but seq and chained) only over the row
   * as it was read (`expected` state and mac: compare and swap), and, when
   * `deadline` is given, one whose `expires_at` is after it: true for the one
   * caller that wins.
   */
  replace(row: ApprovalRow, expected: Pick<ApprovalRow, 'state' | 'mac'>, deadline: string | null): Promise<boolean>;
  /** Deletes a pending row none of which is chained yet (its request failed to reach the chain). */
  withdraw(id: string): Promise<void>;
  /** Raises `chained` to `level` (never lowers it). */
  setChained(id: string, level: number): Promise<void>;
  /** Rows behind the chain: a request created, or an answer given, at or before `before`. */
  unchained(before: string): Promise<ApprovalRow[]>;
  /** Approved, session-scoped rows for exactly this tool and (canonical JSON) input, newest first (a few). */
  standing(tenant: string, sessionId: string, tool: string, input: string): Promise<ApprovalRow[]>;
  /** The `data` of the chain's `approval` records for this id, in chain order (indexed: migration 4 / 3). */
  chainRecords(id: string): Promise<unknown[]>;
  close(): Promise<void>;
}

/** The audit store's durable append, and its close when the approvals store opened it. */
export interface ApprovalChain {
  append(record: AuditRecord): Promise<void>;
  close(): Promise<void>;
}

/**
 * The WHERE and LIMIT of a list, for both dialects: `placeholder(i)` writes the i-th
 * parameter (`?` or `$1`). Column names are fixed here; only values are parameters.
 */
export function listQuery(columns: string, filter: ApprovalFilter, placeholder: (i: number) => string): { sql: string; params: string[] } {
  const conditions: Array<[string, string]> = [];
  if (filter.state !== undefined) conditions.push(['state', filter.state]);
  if (filter.tenant !== undefined) conditions.push(['tenant', filter.tenant]);
  if (filter.sessionId !== undefined) conditions.push(['session_id', filter.sessionId]);
  const where = conditions.map(([column], i) => `${column} = ${placeholder(i + 1)}`);
  const limit = filter.limit !== undefined ? ` LIMIT ${Number(filter.limit)}` : '';
  return {
    sql: `SELECT ${columns} FROM approvals${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC${limit}`,
    params: conditions.map(([, value]) => value),
  };
}
