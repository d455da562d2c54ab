import type { FunctionTool, RunContext } from '@openai/agents';
import { HookwiseStopError } from '../shared/errors.js';
import type { Plan, ToolCallInfo, ToolGate } from '../shared/tool-gate.js';

type AnyFunctionTool = FunctionTool<any, any, any>;
type Pending = Plan | { action: 'approved-by-sdk'; plan: Plan & { action: 'ask' | 'run' } };

/** The tool's callId: the SDK passes it to needsApproval and, in details.toolCall, to invoke. */
function callIdOf(details: unknown, fallback: string): string {
  const call = (details as { toolCall?: { callId?: string } } | undefined)?.toolCall;
  return call?.callId ?? fallback;
}

function parseArgs(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text === '' ? '{}' : text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { input: value };
  } catch {
    return { input: text };
  }
}

/**
 * A function tool with PreToolUse in `needsApproval` (which the SDK awaits before
 * running the call; an ask there is the SDK's approval interruption) and the
 * tool's own `invoke` between PostToolUse/PostToolUseFailure. A stop throws from
 * needsApproval or invoke: the SDK surfaces it as the run's exception.
 */
export function governFunctionTool(gate: ToolGate, tool: AnyFunctionTool, fields: () => Record<string, unknown>): AnyFunctionTool {
  const pending = new Map<string, Pending>();
  const own = tool.needsApproval;
  const invoke = tool.invoke;

  const needsApproval = async (runContext: RunContext, input: unknown, callId?: string): Promise<boolean> => {
    const id = callId ?? '';
    if (pending.get(id)?.action === 'approved-by-sdk') return true;
    const call: ToolCallInfo = { name: tool.name, input: asObject(input), id };
    let plan = await gate.before(call, undefined, fields());
    if (plan.action === 'stop') throw new HookwiseStopError(plan.message, 'PreToolUse');
    if (plan.action === 'ask' && gate.answersAsks) plan = await gate.resolveAsk(call, plan);
    if (plan.action === 'ask' || (plan.action === 'run' && (await own(runContext, plan.input as never, callId)))) {
      pending.set(id, { action: 'approved-by-sdk', plan });
      return true;
    }
    pending.set(id, plan);
    return false;
  };

  const governedInvoke = async (
    runContext: RunContext,
    inputText: string,
    details?: Parameters<AnyFunctionTool['invoke']>[2],
  ): Promise<unknown> => {
    const id = callIdOf(details, '');
    const call: ToolCallInfo = { name: tool.name, input: parseArgs(inputText), id };
    const plan = await planFor(runContext, call);
    if (plan.action === 'stop') throw new HookwiseStopError(plan.message, 'PreToolUse');
    if (plan.action !== 'run') return (plan as { message: string }).message;
    const refused = await gate.admit(call, plan);
    if (refused) return refused;
    const text = plan.input === call.input ? inputText : JSON.stringify(plan.input);
    let output: unknown;
    try {
      output = await invoke(runContext, text, details);
    } catch (error) {
      const failure = await gate.failed(call, plan.input, error, fields());
      if (failure.stop !== null) throw new HookwiseStopError(failure.stop, 'PostToolUseFailure');
      throw error;
    }
    const after = await gate.after(call, plan.input, output, fields());
    if (after.stop !== null) throw new HookwiseStopError(after.stop, 'PostToolUse');
    if (after.extra.length > 0 && typeof after.output === 'string') return [after.output, ...after.extra].join('\n\n');
    return after.output;
  };

  async function planFor(runContext: RunContext, call: ToolCallInfo): Promise<Plan> {
    const decided = pending.get(call.id);
    pending.delete(call.id);
    if (decided?.action === 'approved-by-sdk')
      return { action: 'run', input: decided.plan.input, pre: decided.plan.pre, approvedBy: 'approver' };
    if (decided) return decided;
    // No needsApproval in this process (a RunState resumed elsewhere): fire now; an SDK approval still counts.
    const plan = await gate.before(call, undefined, fields());
    if (plan.action !== 'ask') return plan;
    const approved = runContext.isToolApproved({ toolName: tool.name, callId: call.id });
    if (approved === true) return { action: 'run', input: plan.input, pre: plan.pre, approvedBy: 'approver' };
    return gate.resolveAsk(call, plan);
  }

  return { ...tool, needsApproval, invoke: governedInvoke } as AnyFunctionTool;
}

function asObject(input: unknown): Record<string, unknown> {
  if (typeof input === 'string') return parseArgs(input);
  return input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : { input };
}
