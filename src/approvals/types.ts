/**
 * Durable human approval (docs/approvals.md). When a hook answers `ask` on a host
 * that cannot ask a person itself, the question becomes a pending decision stored
 * beside the audit trail; any channel (the CLI, serve's HTTP API and web page, a
 * program) answers it, and the first answer wins. Every request and every answer
 * is also an `approval` record in the audit hash chain.
 */

export type { Approval, ApprovalAnswer, ApprovalRequest, ApprovalScope, ApprovalState } from '../audit/approval-types.js';
import type { Approval, ApprovalAnswer, ApprovalRequest, ApprovalState } from '../audit/approval-types.js';

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
