import type { Outcome } from '../core/outcome.js';
import type { ToolCall } from '../providers/types.js';
import { blockedBy } from './hook-gateway.js';
import { stopHalt, type Halt, type RunContext } from './run-context.js';

export type Permission =
  | { granted: true; input: Record<string, unknown>; rewritten: boolean }
  | { granted: false; reason: string; halt?: Halt };

/**
 * A PreToolUse hook answered ask (or defer): PermissionRequest hooks may answer
 * for the human; otherwise the approval callback decides, and without one
 * (headless) the answer is no.
 */
export async function requestPermission(
  run: RunContext,
  call: ToolCall,
  input: Record<string, unknown>,
  pre: Outcome,
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

function emitApproval(run: RunContext, call: ToolCall, approved: boolean, by: 'hook' | 'callback' | 'headless'): void {
  run.session.observer.emit({ type: 'approval', tool: call.name, toolUseId: call.id, approved, by, ...run.tag });
}
