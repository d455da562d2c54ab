/**
 * Durable human approval (docs/approvals.md). When a hook answers `ask` on a host
 * that cannot ask a person itself, the question becomes a pending decision stored
 * beside the audit trail; any channel (the CLI, serve's HTTP API and web page, a
 * program) answers it, and the first answer wins. Every request and every answer
 * is also an `approval` record in the audit hash chain.
 */

/**
 * `expired`: nobody answered before `expiresAt`, and the record's `onExpiry`
 * decided (`decisionOf` in ./record.ts reads the decision of any state).
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

export type AnswerResult =
  | { ok: true; approval: Approval }
  /** `answered`: someone answered first (see `approval.answeredBy`); the second answer changed nothing. */
  | { ok: false; why: 'answered' | 'not-found' | 'not-allowed'; message: string; approval?: Approval };

export interface ApprovalFilter {
  state?: ApprovalState;
  tenant?: string;
  sessionId?: string;
  /** Only the newest N. */
  limit?: number;
}

export interface ApprovalWaitOptions {
  /** Stops waiting: `wait` rejects with the signal's reason. */
  signal?: AbortSignal;
  /** How often the store is read. Default 250 ms. */
  pollMs?: number;
  /** Called after each read that found the record still pending. */
  onWaiting?: (approval: Approval, waitedMs: number) => void;
  /**
   * Whether the poll timer keeps the process alive (default true: a run waiting
   * for a person must not exit under it). The timer is cleared when `wait` settles.
   */
  keepAlive?: boolean;
}

/** Where pending decisions live: SQLite or PostgreSQL, beside the audit trail. */
export interface ApprovalStore {
  request(request: ApprovalRequest): Promise<Approval>;
  get(id: string): Promise<Approval | null>;
  /** Newest first. Expired pending records are answered with their default before listing. */
  list(filter?: ApprovalFilter): Promise<Approval[]>;
  /** The first answer wins, across processes and replicas; later ones get `{ ok: false, why: 'answered' }`. */
  answer(id: string, answer: ApprovalAnswer): Promise<AnswerResult>;
  /** Answers every overdue pending record with its `onExpiry`, by `expiry`; returns them. */
  expireDue(now?: Date): Promise<Approval[]>;
  /** A standing (scope `session`) approval that covers this tool and input in this session, if any. */
  standing(query: { tenant?: string; sessionId: string; tool: string; input: Record<string, unknown> }): Promise<Approval | null>;
  /** Resolves with the record once it is no longer pending (answered or expired); rejects on abort. */
  wait(id: string, options?: ApprovalWaitOptions): Promise<Approval>;
  close(): Promise<void>;
}
