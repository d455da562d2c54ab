import { approvalMacMatches, signedApprovalOf } from './approval-mac.js';
import { canonicalJson } from './canonical-json.js';
import { CHAINED_ANSWER, CHAINED_REQUEST, toApproval, type ApprovalRow } from './approval-record.js';

/**
 * The chain decides, not the table. A row of `approvals` is only believed as far
 * as the audit key vouches for it: the first signed answer in the audit chain
 * decides the approval; without one, a row the store signed (a request, or an
 * answer whose chain record is still being appended) stands; a row nobody signed
 * was written outside hookwise and is ignored in favour of the signed request in
 * the chain (still pending), or, with nothing signed at all, denied.
 */
export interface JudgedRow {
  /** The approval as hookwise signed it; `chained` says how much of it the chain holds. */
  row: ApprovalRow;
  /** Where it came from: the chain's answer, the signed row, the chain's request, or nothing signed. */
  source: 'chain' | 'row' | 'request' | 'none';
  /** Set when the stored row disagrees with what is signed: what differs, naming the approval. */
  disagreement?: string;
}

/**
 * Judges a stored row against the audit key and the chain's `approval` records
 * for its id (their `data`, in chain order).
 */
export function judgeRow(key: Buffer, raw: ApprovalRow, records: unknown[]): JudgedRow {
  let request: Record<string, unknown> | undefined;
  let answer: Record<string, unknown> | undefined;
  let answerMac: string | undefined;
  for (const data of records) {
    const signed = signedApprovalOf(key, data);
    if (!signed || signed.approval.id !== raw.id) continue;
    if (signed.action === 'request') request ??= signed.approval;
    else if (answer === undefined) {
      answer = signed.approval;
      answerMac = (data as { mac: string }).mac;
    }
  }
  const stored = toApproval(raw);
  const rowSigned = approvalMacMatches(key, stored, raw.mac);
  if (answer) {
    const row = rowOf(answer, CHAINED_ANSWER, answerMac!);
    if (canonicalJson(stored) === canonicalJson(answer)) return { row, source: 'chain' };
    return { row, source: 'chain', disagreement: `${says(raw)}, but the audit chain's signed answer says ${describe(row)}` };
  }
  if (rowSigned) return { row: raw, source: 'row' };
  if (request) {
    const row = rowOf(request, CHAINED_REQUEST, raw.mac ?? '');
    return { row, source: 'request', disagreement: `${says(raw)}, but the audit chain holds only its signed request: it is still pending` };
  }
  const row: ApprovalRow = {
    ...raw,
    state: 'denied',
    answered_by: null,
    answered_at: raw.answered_at ?? raw.created_at,
    note: 'no signed record of this approval: denied',
    scope: 'once',
  };
  return { row, source: 'none', disagreement: `${says(raw)}, but nothing signed with the audit key holds it: it is treated as denied` };
}

function says(raw: ApprovalRow): string {
  return `approval ${raw.id}: the approvals row (changed outside hookwise) says ${describe(raw)}`;
}

function describe(row: ApprovalRow): string {
  if (row.state === 'pending') return 'pending';
  return `${row.state}${row.answered_by ? ` by ${row.answered_by}` : ''}${row.scope === 'session' ? ' for the session' : ''}`;
}

/** A signed snapshot (an Approval) as a row. */
function rowOf(a: Record<string, unknown>, chained: number, mac: string): ApprovalRow {
  return {
    id: a.id as string,
    key: a.key as string | null,
    tenant: a.tenant as string,
    session_id: a.sessionId as string,
    event: a.event as string,
    tool: a.tool as string | null,
    input: a.input === null || a.input === undefined ? null : canonicalJson(a.input),
    tool_use_id: a.toolUseId as string | null,
    hook: a.hook as string | null,
    reason: a.reason as string | null,
    created_at: a.createdAt as string,
    expires_at: a.expiresAt as string,
    on_expiry: a.onExpiry as ApprovalRow['on_expiry'],
    state: a.state as ApprovalRow['state'],
    answered_by: a.answeredBy as string | null,
    answered_at: a.answeredAt as string | null,
    note: a.note as string | null,
    scope: a.scope as ApprovalRow['scope'],
    chained,
    mac,
  };
}
