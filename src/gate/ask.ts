import { randomUUID } from 'node:crypto';
import { askApproval, permissionPrompt } from '../approvals/ask.js';
import type { ApprovalStore } from '../approvals/types.js';
import type { GateHost, GateOptions } from './options.js';
import type { Plan, ToolCallInfo } from './plan.js';

type Ask = Plan & { action: 'ask' };

/** What the gate needs to answer an ask: its session, options and host, and its way of firing. */
export interface AskContext {
  sessionId: string;
  options: GateOptions;
  host: GateHost;
  fire(event: string, fields: Record<string, unknown>): Promise<unknown>;
  /** Where the approver's note goes, to be shown beside the result. */
  note(call: ToolCallInfo, text: string): void;
}

/**
 * An ask no PermissionRequest hook answered: the durable approval store, else the
 * approver, else (headless) a refusal. Never a silent allow: a store that fails refuses.
 */
export async function resolveAsk(ctx: AskContext, call: ToolCallInfo, plan: Ask, approver = ctx.options.approve): Promise<Plan> {
  if (ctx.options.approvals) return askDurably(ctx, ctx.options.approvals, call, plan);
  const why = plan.reason ? ` (${plan.reason})` : '';
  if (!approver) {
    ctx.host.onAnswer?.(call, { approved: false, by: 'headless' });
    return {
      action: 'deny',
      message: `Permission needed to use ${call.name}${why}, and no one can approve it (a headless run without an approver). The tool was not run.`,
      pre: plan.pre,
    };
  }
  await ctx.fire('Notification', {
    notification_type: 'permission_prompt',
    title: 'Permission needed',
    message: `hookwise needs your permission to use ${call.name}${why}`,
    tool_name: call.name,
    tool_use_id: call.id,
  });
  const approved = await approver({
    toolName: call.name,
    toolInput: plan.input,
    toolUseId: call.id,
    reason: plan.reason,
    sessionId: ctx.sessionId,
    ...(ctx.host.agentId === undefined ? {} : { agentId: ctx.host.agentId }),
  });
  ctx.host.onAnswer?.(call, { approved: approved === true, by: 'callback' });
  if (approved === true) return { action: 'run', input: plan.input, pre: plan.pre, approvedBy: 'approver' };
  return { action: 'deny', message: `The user denied permission to use ${call.name}${why}. The tool was not run.`, pre: plan.pre };
}

/**
 * The durable ask: a standing session permission, or a pending record answered
 * from any channel while the call waits (Notification first). The approver's note
 * reaches the model: beside the result, or as the refusal's reason. A store that
 * fails refuses the call; only the host's abort rejects.
 */
async function askDurably(ctx: AskContext, store: ApprovalStore, call: ToolCallInfo, plan: Ask): Promise<Plan> {
  const { options, host } = ctx;
  const why = plan.reason ? ` (${plan.reason})` : '';
  let verdict: Awaited<ReturnType<typeof askApproval>>;
  try {
    verdict = await askApproval(
      store,
      {
        ...(options.tenant === undefined ? {} : { tenant: options.tenant }),
        sessionId: ctx.sessionId,
        tool: call.name,
        input: plan.input,
        toolUseId: call.id,
        // A call without an id (a handoff) cannot be found again: its own key.
        key: `${ctx.sessionId}:${call.id || randomUUID()}`,
        pre: plan.pre,
        ...(options.approvalExpiry === undefined ? {} : { expiry: options.approvalExpiry }),
      },
      {
        ...(host.signal === undefined ? {} : { signal: host.signal }),
        ...(host.beforeWait === undefined ? {} : { beforeRequest: () => host.beforeWait!(call) }),
        onPending: async (approval) => {
          await ctx.fire('Notification', permissionPrompt(call, plan.reason, approval));
          host.onWaiting?.(call, approval, 0);
        },
        ...(host.onWaiting === undefined ? {} : { onWaiting: (approval, waitedMs) => host.onWaiting!(call, approval, waitedMs) }),
      },
    );
  } catch (error) {
    if (host.signal?.aborted) throw error;
    host.onAnswer?.(call, { approved: false, by: 'store' });
    const message = error instanceof Error ? error.message : String(error);
    return {
      action: 'deny',
      message: `Permission needed to use ${call.name}${why}, and the approval store failed (${message}). The tool was not run.`,
      pre: plan.pre,
    };
  }
  const by = verdict.granted && verdict.standing ? 'standing' : 'store';
  host.onAnswer?.(call, { approved: verdict.granted, by, approval: verdict.approval });
  if (!verdict.granted) return { action: 'deny', message: `Permission denied: ${verdict.reason}. The tool was not run.`, pre: plan.pre };
  if (verdict.context) ctx.note(call, verdict.context);
  return { action: 'run', input: plan.input, pre: plan.pre, approvedBy: 'approval', approvalId: verdict.approval.id };
}
