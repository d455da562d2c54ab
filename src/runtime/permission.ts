import type { Outcome } from '../core/outcome.js';
import type { ToolCall } from '../providers/types.js';
import { askApproval, permissionPrompt } from '../approvals/ask.js';
import { blockedBy } from './hook-gateway.js';
import { stopHalt, type Halt, type RunContext } from './run-context.js';
import type { RuntimeEvent } from './types.js';

export type Permission =
  /** `approvalId`: the durable approval that granted it; `context`: what the model is told beside the result. */
  | { granted: true; input: Record<string, unknown>; rewritten: boolean; approvalId?: string; context?: string }
  | { granted: false; reason: string; halt?: Halt };

export interface PermissionSteps {
  /** Before a durable approval is requested: the executor saves the step so far, so a killed run resumes into this ask. */
  beforeWait?(): Promise<void>;
}

/**
 * A PreToolUse hook answered ask (or defer): PermissionRequest hooks may answer
 * for the human; otherwise an approval store (durable, docs/approvals.md) or the
 * approval callback decides, and without either (headless) the answer is no.
 */
export async function requestPermission(
  run: RunContext,
  call: ToolCall,
  input: Record<string, unknown>,
  pre: Outcome,
  steps: PermissionSteps = {},
): Promise<Permission> {
  const asked = pre.reason;
  const answer = await run.hooks.fire('PermissionRequest', {
    tool_name: call.name,
    tool_input: input,
    tool_use_id: call.id,
    permission_suggestions: [],
    reason: asked,
  });
  if (answer.stop) {
    const halt: Halt = stopHalt(answer);
    return { granted: false, reason: `PermissionRequest ${blockedBy(answer)}`, halt };
  }
  if (answer.blocked || answer.decision === 'deny') {
    emitApproval(run, call, false, 'hook');
    return { granted: false, reason: `permission denied by PermissionRequest ${blockedBy(answer)}` };
  }
  if (answer.decision === 'allow') {
    emitApproval(run, call, true, 'hook');
    return answer.updatedInput
      ? { granted: true, input: answer.updatedInput, rewritten: true }
      : { granted: true, input, rewritten: false };
  }

  if (run.session.options.approvals) return askStore(run, call, input, pre, steps);
  const approve = run.session.options.approve;
  const why = asked ? ` (${asked})` : '';
  if (!approve) {
    emitApproval(run, call, false, 'headless');
    return {
      granted: false,
      reason: `permission needed to use ${call.name}${why}, and no one can approve it: headless run without an approval callback`,
    };
  }
  await run.hooks.fire('Notification', {
    notification_type: 'permission_prompt',
    title: 'Permission needed',
    message: `hookwise needs your permission to use ${call.name}${why}`,
    tool_name: call.name,
    tool_use_id: call.id,
  });
  const approved = await approve({
    toolName: call.name,
    toolInput: input,
    toolUseId: call.id,
    reason: asked,
    sessionId: run.session.sessionId,
    ...(run.identity.agentId === undefined ? {} : { agentId: run.identity.agentId }),
  });
  emitApproval(run, call, approved === true, 'callback');
  if (approved === true) return { granted: true, input, rewritten: false };
  return { granted: false, reason: `the user denied permission to use ${call.name}${why}` };
}

/**
 * The durable ask: a standing session permission, or a pending record that any
 * channel answers while the run waits (Notification first, progress to observers).
 * A store that fails refuses the call; only the caller's abort rejects.
 */
async function askStore(
  run: RunContext,
  call: ToolCall,
  input: Record<string, unknown>,
  pre: Outcome,
  steps: PermissionSteps,
): Promise<Permission> {
  const session = run.session;
  const options = session.options;
  const why = pre.reason ? ` (${pre.reason})` : '';
  let shownSeconds = 0;
  let verdict: Awaited<ReturnType<typeof askApproval>>;
  try {
    verdict = await askApproval(
      options.approvals!,
      {
        ...(options.tenant === undefined ? {} : { tenant: options.tenant }),
        sessionId: session.sessionId,
        tool: call.name,
        input,
        toolUseId: call.id,
        key: `${session.sessionId}:${call.id}`,
        pre,
        ...(options.approvalExpiry === undefined ? {} : { expiry: options.approvalExpiry }),
      },
      {
        signal: session.signal,
        beforeRequest: steps.beforeWait,
        onPending: async (approval) => {
          await run.hooks.fire('Notification', permissionPrompt(call, pre.reason, approval));
          emitWaiting(run, call, approval.id, 0, approval.expiresAt);
        },
        // The store reads often; observers hear of the wait once a second.
        onWaiting: (approval, waitedMs) => {
          if (Math.floor(waitedMs / 1000) <= shownSeconds) return;
          shownSeconds = Math.floor(waitedMs / 1000);
          emitWaiting(run, call, approval.id, waitedMs, approval.expiresAt);
        },
      },
    );
  } catch (error) {
    if (session.signal.aborted) throw error;
    emitApproval(run, call, false, 'store');
    const message = error instanceof Error ? error.message : String(error);
    return { granted: false, reason: `permission needed to use ${call.name}${why}, and the approval store failed (${message})` };
  }
  const a = verdict.approval;
  const by = verdict.granted && verdict.standing ? 'standing' : 'store';
  emitApproval(run, call, verdict.granted, by, { approvalId: a.id, answeredBy: a.answeredBy, note: a.note });
  if (!verdict.granted) return { granted: false, reason: verdict.reason };
  return { granted: true, input, rewritten: false, approvalId: a.id, ...(verdict.context ? { context: verdict.context } : {}) };
}

function emitWaiting(run: RunContext, call: ToolCall, approvalId: string, waitedMs: number, expiresAt: string): void {
  run.session.observer.emit({ type: 'approval_wait', approvalId, tool: call.name, toolUseId: call.id, waitedMs, expiresAt, ...run.tag });
}

type ApprovalEvent = Extract<RuntimeEvent, { type: 'approval' }>;

function emitApproval(
  run: RunContext,
  call: ToolCall,
  approved: boolean,
  by: ApprovalEvent['by'],
  record: Pick<ApprovalEvent, 'approvalId' | 'answeredBy' | 'note'> = {},
): void {
  run.session.observer.emit({ type: 'approval', tool: call.name, toolUseId: call.id, approved, by, ...record, ...run.tag });
}
