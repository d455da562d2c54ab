import type { Approval, ApprovalStore } from '../approvals/types.js';
import type { AuditSink } from '../audit/types.js';
import type { Outcome } from '../core/outcome.js';
import type { CoverageSink } from './coverage.js';
import type { ToolCallInfo } from './plan.js';

/** What an approver is asked when the policy says `ask` and no PermissionRequest hook answered. */
export interface ApprovalRequest {
  toolName: string;
  toolInput: Record<string, unknown>;
  toolUseId: string;
  /** The reason the hook gave for asking. */
  reason: string | null;
  sessionId: string;
  /** Set when the call is a subagent's. */
  agentId?: string;
}
export type Approver = (request: ApprovalRequest) => boolean | Promise<boolean>;

/** How the gate records, and who answers an ask: the same for every host. */
export interface GateOptions {
  /** Record every tool execution, with the PreToolUse outcome that allowed it, in this audit store. */
  audit?: AuditSink;
  /** Also (or instead) report executions here, e.g. a `MemoryCoverage`. */
  coverage?: CoverageSink;
  /**
   * Who answers an `ask`. Resolves true to run the tool. Without one, the framework's
   * own approval is used where it has one; where it has none, the tool does not run.
   */
  approve?: Approver;
  /**
   * Durable human approval (docs/approvals.md): an `ask` becomes a pending record in
   * this store and the call waits until a person answers it (CLI, serve's page, a
   * program) or it expires. Takes precedence over `approve` and the framework's own approval.
   */
  approvals?: ApprovalStore;
  /** The tenant approval records belong to. Default `default`. */
  tenant?: string;
  /** How long an approval waits for an answer (default 10 minutes), and what its expiry answers (default `deny`). */
  approvalExpiry?: { afterMs?: number; onExpiry?: 'approve' | 'deny' };
}

/** Options every adapter takes. */
export interface AdapterOptions extends GateOptions {
  /** The session every fire belongs to. Default: a new id per wrap. */
  sessionId?: string;
  /** The `cwd` hooks see. Default: `process.cwd()`. */
  cwd?: string;
}

/** Who answered an ask, as observers are told. `standing`: a session-wide approval given earlier. */
export type AnsweredBy = 'hook' | 'callback' | 'headless' | 'store' | 'standing';

/**
 * What a host that owns more of the run than an adapter does (the runtime) adds to
 * the gate: its own way of firing (its common fields, transcript and retry rule), the
 * subagent it runs for, and what it does around an ask (observers, a checkpoint, its
 * abort signal). Adapters give none of it.
 */
export interface GateHost {
  fire?: (event: string, fields: Record<string, unknown>) => Promise<Outcome>;
  agentId?: string;
  signal?: AbortSignal;
  /** Before a durable approval is requested: the runtime saves the step so far, so a killed run resumes into this ask. */
  beforeWait?: (call: ToolCallInfo) => Promise<void>;
  /** A call waits for a durable approval: once when the wait begins (`waitedMs` 0), then as the store is read again. */
  onWaiting?: (call: ToolCallInfo, approval: Approval, waitedMs: number) => void;
  /** Somebody (or nobody) answered an ask. */
  onAnswer?: (call: ToolCallInfo, answer: { approved: boolean; by: AnsweredBy; approval?: Approval }) => void;
}
