import type { Outcome } from '../core/outcome.js';
import type { Approval, ApprovalRequest, ApprovalStore } from './types.js';
import { canonicalJson } from '../audit/canonical-json.js';

/** One tool call a host asks a person about, through an approval store (docs/approvals.md). */
export interface ApprovalAsk {
  tenant?: string;
  sessionId: string;
  tool: string;
  input: Record<string, unknown>;
  toolUseId: string;
  /** Makes the ask idempotent: asking again (a resumed run) finds the same record. */
  key: string;
  /** The PreToolUse outcome that asked: the record names its asking hook and keeps its reason. */
  pre: Outcome;
  /** How long the request waits (default: the tenant policy's, else 10 minutes) and what its expiry answers (default deny). */
  expiry?: { afterMs?: number; onExpiry?: 'approve' | 'deny' };
}

export interface ApprovalAskSteps {
  signal?: AbortSignal;
  /** Before the record is made: the runtime writes its checkpoint here, so a run killed from now on resumes into the same ask. */
  beforeRequest?(): Promise<void> | void;
  /** The record is pending and the wait begins (Notification, the first progress line). */
  onPending?(approval: Approval): Promise<void> | void;
  onWaiting?(approval: Approval, waitedMs: number): void;
}

/** How a durable approval ended, as the host acts on it. */
export type ApprovalVerdict =
  /** `context`: what the model is told beside the tool's result (the approver's note), if anything. */
  | { granted: true; approval: Approval; standing: boolean; context: string | null }
  /** `reason`: why the tool did not run, the approver's note included. */
  | { granted: false; approval: Approval; reason: string };

/**
 * The durable ask, the same for the runtime, the adapters and any other host: a standing session
 * permission answers at once; otherwise the pending record is made (or found again
 * by its key) and waited on until someone answers it or it expires. Store failures
 * reject: the caller refuses the call (fail closed).
 */
export async function askApproval(store: ApprovalStore, ask: ApprovalAsk, steps: ApprovalAskSteps = {}): Promise<ApprovalVerdict> {
  const scope = { sessionId: ask.sessionId, ...(ask.tenant === undefined ? {} : { tenant: ask.tenant }) };
  const standing = await store.standing({ ...scope, tool: ask.tool, input: ask.input });
  if (standing) return { granted: true, approval: standing, standing: true, context: null };

  await steps.beforeRequest?.();
  const request: ApprovalRequest = {
    ...scope,
    event: 'PreToolUse',
    tool: ask.tool,
    input: ask.input,
    toolUseId: ask.toolUseId,
    hook: askingHook(ask.pre),
    reason: ask.pre.reason,
    key: ask.key,
  };
  if (ask.expiry?.afterMs !== undefined) request.expiresInMs = ask.expiry.afterMs;
  if (ask.expiry?.onExpiry !== undefined) request.onExpiry = ask.expiry.onExpiry;
  let approval = await store.request(request);
  const other = otherCall(approval, ask);
  if (other) return { granted: false, approval, reason: other };
  if (approval.state === 'pending') {
    await steps.onPending?.(approval);
    approval = await store.wait(approval.id, {
      ...(steps.signal ? { signal: steps.signal } : {}),
      ...(steps.onWaiting ? { onWaiting: steps.onWaiting } : {}),
    });
  }
  return verdictOf(approval);
}

/** The hook that answered ask: the first whose result was ask or defer. */
function askingHook(pre: Outcome): string | null {
  return pre.hooks.find((h) => h.result === 'ask' || h.result === 'defer')?.name ?? null;
}

/** The Notification (`permission_prompt`) a host fires as a call starts waiting on `approval`, the same from every host. */
export function permissionPrompt(call: { name: string; id: string }, reason: string | null, approval: Approval): Record<string, unknown> {
  const { name: tool, id: toolUseId } = call;
  const id = approval.id;
  return {
    notification_type: 'permission_prompt',
    title: 'Permission needed',
    message: `hookwise needs your permission to use ${tool}${reason ? ` (${reason})` : ''}: approval ${id}, answer with \`hookwise approvals approve ${id}\` or \`hookwise approvals deny ${id}\``,
    tool_name: tool,
    tool_use_id: toolUseId,
    approval_id: id,
  };
}

/** What an answered (or expired) record means for the call. A record still pending is a refusal: never a silent allow. */
export function verdictOf(approval: Approval): ApprovalVerdict {
  const tool = approval.tool ?? 'the tool';
  const by = approval.answeredBy ?? 'someone';
  switch (approval.state) {
    case 'approved':
      return {
        granted: true,
        approval,
        standing: false,
        context: approval.note ? `Note from ${by}, who approved this ${tool} call (approval ${approval.id}): ${approval.note}` : null,
      };
    case 'denied':
      return {
        granted: false,
        approval,
        reason: `${by} denied ${tool} (approval ${approval.id})${approval.note ? `: ${approval.note}` : ''}`,
      };
    case 'expired': {
      const expired = `approval ${approval.id} for ${tool} expired unanswered at ${approval.expiresAt}`;
      if (approval.onExpiry === 'approve')
        return { granted: true, approval, standing: false, context: `${expired}; its default on expiry, approve, let the call run` };
      return { granted: false, approval, reason: `${expired}; its default on expiry is deny` };
    }
    default:
      return { granted: false, approval, reason: `approval ${approval.id} for ${tool} is still pending` };
  }
}

/**
 * An existing record under this key that is about another call (a provider that
 * reuses tool call ids across runs) must not answer this one.
 */
function otherCall(approval: Approval, ask: ApprovalAsk): string | null {
  const sameTool = approval.tool === ask.tool;
  const sameInput = approval.input !== null && canonicalJson(approval.input) === canonicalJson(ask.input);
  if (sameTool && sameInput) return null;
  return `approval key "${ask.key}" already names approval ${approval.id} for another call (${approval.tool ?? 'no tool'} with other input); tool call ids must be unique within a session`;
}
