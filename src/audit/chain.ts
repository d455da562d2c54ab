import { hash } from 'node:crypto';
import { quoteJsonString } from './canonical-json.js';
import type { StoredRow } from './schema.js';

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
    `{"data":${row.data},"decision":${quoteColumn(row.decision)},"event":${quoteColumn(row.event)},` +
    `"kind":${quoteColumn(row.kind)},"seq":${row.seq},"session_id":${quoteColumn(row.sessionId)},` +
    `"tool":${quoteColumn(row.tool)},"ts":${quoteText(row.ts)}}`
  );
}

/** `hash = sha256(prev_hash + canonical form of the row)`, lower-case hex. */
export function rowHash(prevHash: string, row: ChainedFields): string {
  return hash('sha256', prevHash + rowCanonicalForm(row), 'hex');
}

/**
 * Kind, event, decision, tool and session repeat from row to row: quote each value
 * once (JSON.stringify's text, or `null`). Bounded, so many sessions cannot grow it.
 */
const quotedColumns = new Map<string, string>();
const QUOTED_COLUMNS_MAX = 1024;
function quoteColumn(value: string | null): string {
  if (typeof value !== 'string') return quoteText(value);
  let quoted = quotedColumns.get(value);
  if (quoted === undefined) {
    quoted = quoteJsonString(value);
    if (quotedColumns.size < QUOTED_COLUMNS_MAX && value.length <= 256) quotedColumns.set(value, quoted);
  }
  return quoted;
}

/** JSON.stringify's text for a column. Strings take the fast path; anything else is only met in a tampered row read by verify. */
function quoteText(value: unknown): string {
  return typeof value === 'string' ? quoteJsonString(value) : String(JSON.stringify(value));
}

/** A stored row's hashed columns, as if it had been written at `seq` (verify tries a row's other places). */
export function chainedFieldsOf(row: StoredRow, seq: number = row.seq): ChainedFields {
  return {
    seq,
    ts: row.ts,
    sessionId: row.session_id,
    kind: row.kind,
    event: row.event,
    decision: row.decision,
    tool: row.tool,
    data: row.data,
  };
}
