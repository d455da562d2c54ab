import { hash } from 'node:crypto';

/** The `prev_hash` of the first row. */
export const GENESIS_HASH = '0'.repeat(64);

/** The columns a row's hash covers (all of them but `hash`). */
export interface ChainedFields {
  seq: number;
  ts: string;
  sessionId: string;
  kind: string;
  event: string | null;
  decision: string | null;
  tool: string | null;
  /** The `data` column exactly as stored: canonical JSON text. */
  data: string;
}

/**
 * The canonical form of a row: canonical JSON (sorted keys, no whitespace) of
 * `{ data, decision, event, kind, seq, session_id, tool, ts }`. The data column is
 * already canonical, so it is spliced in as stored: any byte changed in it changes
 * the hash, even one that leaves the JSON meaning alone.
 */
export function rowCanonicalForm(row: ChainedFields): string {
  return (
    `{"data":${row.data},"decision":${jsonOrNull(row.decision)},"event":${jsonOrNull(row.event)},` +
    `"kind":${JSON.stringify(row.kind)},"seq":${row.seq},"session_id":${JSON.stringify(row.sessionId)},` +
    `"tool":${jsonOrNull(row.tool)},"ts":${JSON.stringify(row.ts)}}`
  );
}

/** `hash = sha256(prev_hash + canonical form of the row)`, lower-case hex. */
export function rowHash(prevHash: string, row: ChainedFields): string {
  return hash('sha256', prevHash + rowCanonicalForm(row), 'hex');
}

function jsonOrNull(value: string | null): string {
  return value === null ? 'null' : JSON.stringify(value);
}
