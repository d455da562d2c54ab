/**
 * What the audit trail records. The runtime appends a `tool` record before a tool
 * runs and an `outcome` record for every fire; the store chains them by hash.
 */
export interface AuditRecord {
  kind: 'outcome' | 'tool';
  /** ISO 8601 time the record was made. */
  ts: string;
  sessionId: string;
  event?: string;
  decision?: string | null;
  tool?: string;
  /** The whole Outcome, or the tool call (name, input, tool_use_id). */
  data: Record<string, unknown>;
}

export interface AuditSink {
  append(record: AuditRecord): void;
  /**
   * Appends and commits before returning; throws if it cannot. For a `tool` record,
   * which must be on disk before the tool runs (the SQLite store has it).
   */
  appendDurable?(record: AuditRecord): void;
  /** Write everything buffered; resolves when it is on disk. */
  flush(): Promise<void>;
  close(): Promise<void>;
}
