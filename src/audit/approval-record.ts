import { randomBytes } from 'node:crypto';
import { approvalMac } from './approval-mac.js';
import { canonicalJson } from './canonical-json.js';
import type { AuditRecord } from './types.js';
import type { Approval, ApprovalAnswer, ApprovalRequest, ApprovalScope, ApprovalState } from './approval-types.js';
import { ApprovalInputError } from './errors.js';

export const DEFAULT_TENANT = 'default';
export const DEFAULT_EXPIRES_IN_MS = 10 * 60_000;
/** setTimeout's limit, and far beyond any question a person is asked. */
const MAX_EXPIRES_IN_MS = 2 ** 31 - 1;

/**
 * How much of a record is in the audit hash chain (the `chained` column): the
 * request, then the answer. A crash between writing the row and appending to the
 * chain leaves it behind its state, and the reconcile appends what is missing.
 */
export const CHAINED_NOTHING = 0;
export const CHAINED_REQUEST = 1;
export const CHAINED_ANSWER = 2;

/** The row with the store's signature of its content. */
export function signRow(key: Buffer, row: ApprovalRow): ApprovalRow {
  return { ...row, mac: approvalMac(key, toApproval(row)) };
}

/** A row of the `approvals` table (both stores). */
export interface ApprovalRow {
  id: string;
  key: string | null;
  tenant: string;
  session_id: string;
  event: string;
  tool: string | null;
  /** Canonical JSON, so equal inputs are equal text (standing permissions compare it). */
  input: string | null;
  tool_use_id: string | null;
  hook: string | null;
  reason: string | null;
  created_at: string;
  expires_at: string;
  on_expiry: 'approve' | 'deny';
  state: ApprovalState;
  answered_by: string | null;
  answered_at: string | null;
  note: string | null;
  scope: ApprovalScope;
  chained: number;
  /** The store's signature of the row (src/audit/approval-mac.ts); a row changed without the key does not match it. */
  mac: string | null;
}

/** What an answer writes; the store writes it only over a pending row. */
export type AnswerFields = Pick<ApprovalRow, 'state' | 'answered_by' | 'answered_at' | 'note' | 'scope'>;

/** What a decided record decided: an expiry decides its `onExpiry`; null while pending. */
export function decisionOf(approval: Approval): 'approve' | 'deny' | null {
  switch (approval.state) {
    case 'approved':
      return 'approve';
    case 'denied':
      return 'deny';
    case 'expired':
      return approval.onExpiry;
    default:
      return null;
  }
}

export function toApproval(row: ApprovalRow): Approval {
  return {
    id: row.id,
    key: row.key,
    tenant: row.tenant,
    sessionId: row.session_id,
    event: row.event,
    tool: row.tool,
    input: row.input === null ? null : (JSON.parse(row.input) as Record<string, unknown>),
    toolUseId: row.tool_use_id,
    hook: row.hook,
    reason: row.reason,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    onExpiry: row.on_expiry,
    state: row.state,
    answeredBy: row.answered_by,
    answeredAt: row.answered_at,
    note: row.note,
    scope: row.scope,
  };
}

/** A new pending row for the request; the request's own expiry and onExpiry win over the defaults (the tenant's policy). */
export function newApprovalRow(
  request: ApprovalRequest,
  defaults: { expiresInMs: number; onExpiry: 'approve' | 'deny' },
  now: Date,
): ApprovalRow {
  if (request === null || typeof request !== 'object')
    throw new ApprovalInputError(`approvals: a request must be an object, got ${typeof request}`);
  const expiresInMs = request.expiresInMs ?? defaults.expiresInMs;
  if (!Number.isInteger(expiresInMs) || expiresInMs < 1 || expiresInMs > MAX_EXPIRES_IN_MS)
    throw new ApprovalInputError(
      `approvals: request.expiresInMs must be a whole number of milliseconds from 1 to ${MAX_EXPIRES_IN_MS}, got ${expiresInMs}`,
    );
  const onExpiry = request.onExpiry ?? defaults.onExpiry;
  if (onExpiry !== 'approve' && onExpiry !== 'deny')
    throw new ApprovalInputError(`approvals: request.onExpiry must be 'approve' or 'deny', got ${JSON.stringify(onExpiry)}`);
  const input = request.input;
  if (input !== undefined && input !== null && (typeof input !== 'object' || Array.isArray(input)))
    throw new ApprovalInputError('approvals: request.input must be a plain object (the tool input) when given');
  return {
    id: newApprovalId(),
    key: optionalText(request.key, 'key'),
    tenant: optionalText(request.tenant, 'tenant') ?? DEFAULT_TENANT,
    session_id: requiredText(request.sessionId, 'sessionId'),
    event: requiredText(request.event, 'event'),
    tool: optionalText(request.tool, 'tool'),
    input: input === undefined || input === null ? null : canonicalJson(input),
    tool_use_id: optionalText(request.toolUseId, 'toolUseId'),
    hook: optionalText(request.hook, 'hook'),
    reason: optionalText(request.reason, 'reason'),
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + expiresInMs).toISOString(),
    on_expiry: onExpiry,
    state: 'pending',
    answered_by: null,
    answered_at: null,
    note: null,
    scope: 'once',
    chained: CHAINED_NOTHING,
    mac: null,
  };
}

/** Checks an answer's shape; what the policy allows is ./policy.ts's `checkAnswer`. */
export function validateAnswer(answer: ApprovalAnswer): void {
  if (answer === null || typeof answer !== 'object')
    throw new ApprovalInputError(`approvals: an answer must be an object, got ${typeof answer}`);
  if (answer.decision !== 'approve' && answer.decision !== 'deny')
    throw new ApprovalInputError(`approvals: answer.decision must be 'approve' or 'deny', got ${JSON.stringify(answer.decision)}`);
  requiredText(answer.by, 'answer.by');
  if (answer.by === EXPIRY)
    throw new ApprovalInputError(`approvals: answer.by "${EXPIRY}" is reserved for expiries; name the person answering`);
  if (answer.note !== undefined && answer.note !== null && typeof answer.note !== 'string')
    throw new ApprovalInputError(`approvals: answer.note must be a string when given, got ${typeof answer.note}`);
  if (answer.scope !== undefined && answer.scope !== 'once' && answer.scope !== 'session')
    throw new ApprovalInputError(`approvals: answer.scope must be 'once' or 'session', got ${JSON.stringify(answer.scope)}`);
}

/** Who answers when nobody did in time. */
export const EXPIRY = 'expiry';

/** What an answer writes. Only an approval can stand for the session: a denial is always for this call. */
export function answerFields(answer: ApprovalAnswer, now: Date): AnswerFields {
  return {
    state: answer.decision === 'approve' ? 'approved' : 'denied',
    answered_by: answer.by,
    answered_at: now.toISOString(),
    note: answer.note ?? null,
    scope: answer.decision === 'approve' ? (answer.scope ?? 'once') : 'once',
  };
}

/** What an expiry writes. */
export function expiryFields(row: ApprovalRow, now: Date): AnswerFields {
  return {
    state: 'expired',
    answered_by: EXPIRY,
    answered_at: now.toISOString(),
    note: `no answer by ${row.expires_at}: ${row.on_expiry === 'approve' ? 'approved' : 'denied'} by default`,
    scope: 'once',
  };
}

/**
 * The `approval` record of the audit chain: the approval as it stood at that step
 * (a request is recorded as pending even when it is chained late, after its answer).
 */
export function approvalAuditRecord(row: ApprovalRow, action: 'request' | 'answer', key: Buffer): AuditRecord {
  const approval = toApproval(row);
  const snapshot: Approval =
    action === 'request' ? { ...approval, state: 'pending', answeredBy: null, answeredAt: null, note: null, scope: 'once' } : approval;
  return {
    kind: 'approval',
    ts: action === 'request' ? snapshot.createdAt : (snapshot.answeredAt ?? new Date().toISOString()),
    sessionId: snapshot.sessionId,
    event: snapshot.event,
    decision: snapshot.state,
    ...(snapshot.tool !== null && { tool: snapshot.tool }),
    // Signed, so the record decides the approval even when the approvals row says otherwise (./trust.ts).
    data: { action, ...snapshot, mac: approvalMac(key, snapshot) },
  };
}

/** 12 characters from an alphabet without look-alikes (no i, l, o, u), easy to read out and type. */
const ID_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

function newApprovalId(): string {
  const bytes = randomBytes(12);
  let id = '';
  for (const b of bytes) id += ID_ALPHABET[b & 31];
  return id;
}

function requiredText(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length === 0)
    throw new ApprovalInputError(
      `approvals: ${field.includes('.') ? field : `request.${field}`} must be a non-empty string, got ${JSON.stringify(value)}`,
    );
  return value;
}

function optionalText(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string')
    throw new ApprovalInputError(`approvals: request.${field} must be a string when given, got ${typeof value}`);
  return value;
}
