/**
 * The data of one approval (docs/approvals.md), as the approvals store keeps it and
 * the audit chain signs it: here, below both, so the audit's verifier reads
 * approvals without importing the store (src/approvals/types.ts re-exports them).
 */

/**
 * `expired`: nobody answered before `expiresAt`, and the record's `onExpiry`
 * decided (`decisionOf` in ./approval-record.ts reads the decision of any state).
 */
export type ApprovalState = 'pending' | 'approved' | 'denied' | 'expired';

/** How far an approval reaches: this one call, or the same call for the rest of the session. */
export type ApprovalScope = 'once' | 'session';

/** What a host asks. */
export interface ApprovalRequest {
  /** Default `default` (serve names its tenants). */
  tenant?: string;
  sessionId: string;
  /** The event that asked, e.g. `PreToolUse`. */
  event: string;
  tool?: string;
  /** The tool input, shown to the person deciding. */
  input?: Record<string, unknown>;
  toolUseId?: string;
  /** The asking hook's name, and its reason. */
  hook?: string | null;
  reason?: string | null;
  /** Default 10 minutes. */
  expiresInMs?: number;
  /** What an expiry answers. Default `deny`. */
  onExpiry?: 'approve' | 'deny';
  /**
   * Makes `request` idempotent: asking again with the same key returns the existing
   * record (pending or answered) instead of creating a new one. The runtime uses
   * `<session>:<tool_use_id>`, so a resumed run finds the question it asked before.
   */
  key?: string;
}

/** One decision, as stored. */
export interface Approval {
  id: string;
  key: string | null;
  tenant: string;
  sessionId: string;
  event: string;
  tool: string | null;
  input: Record<string, unknown> | null;
  toolUseId: string | null;
  hook: string | null;
  reason: string | null;
  /** ISO 8601. */
  createdAt: string;
  expiresAt: string;
  onExpiry: 'approve' | 'deny';
  state: ApprovalState;
  /** Who answered (`expiry` for an expiry), when, with what note, and how far it reaches. */
  answeredBy: string | null;
  answeredAt: string | null;
  note: string | null;
  scope: ApprovalScope;
  /**
   * Set when the stored row disagrees with what hookwise signed (someone changed
   * the database): what differs. The approval itself is what the signed audit
   * chain says (docs/approvals.md#the-chain-decides).
   */
  disagreement?: string;
}

export interface ApprovalAnswer {
  decision: 'approve' | 'deny';
  /** Who answers: a person's name, or the identity a token maps to. */
  by: string;
  note?: string;
  /** `session`: a standing permission for the same tool and input for the rest of the session. Default `once`. */
  scope?: ApprovalScope;
}
