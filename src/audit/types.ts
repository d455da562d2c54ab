/**
 * What the audit trail records. The runtime and the adapters append a `tool`
 * record before a tool runs (see ./tool-execution.ts) and an `outcome` record for
 * every fire; the store chains them by hash. Other kinds (lower-case names such as
 * `approval`) are stored and chained the same way, for features that add records.
 */
export interface AuditRecord {
  /** `outcome`, `tool`, or another lower-case name (letters, digits, `-`, `_`, `.`; up to 32). */
  kind: string;
  /** ISO 8601 time the record was made. */
  ts: string;
  sessionId: string;
  event?: string;
  decision?: string | null;
  tool?: string;
  /**
   * The chain this record goes to in a PostgreSQL store (default: the session id),
   * e.g. `tenant/session`, so replicas writing different streams never wait on one
   * head. The SQLite store keeps one chain and ignores it.
   */
  stream?: string;
  /** The whole Outcome, or the tool call (name, input, tool_use_id). */
  data: Record<string, unknown>;
}

export interface AuditSink {
  append(record: AuditRecord): void;
  /**
   * Appends and commits before returning (SQLite) or resolving (PostgreSQL); throws
   * or rejects if it cannot. For a `tool` record, which must be stored before the
   * tool runs: callers `await` it, so both stores fit.
   */
  appendDurable?(record: AuditRecord): void | Promise<unknown>;
  /** Write everything buffered; resolves when it is committed. */
  flush(): Promise<void>;
  close(): Promise<void>;
}
