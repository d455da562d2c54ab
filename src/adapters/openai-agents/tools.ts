import { andThen } from '../../gate/and-then.js';
import type { FunctionTool, RunContext } from '@openai/agents';
import { HookwiseStopError } from '../shared/errors.js';
import { withExtra, type AfterTool, type Plan, type ToolCallInfo, type ToolGate } from '../../gate/index.js';

type AnyFunctionTool = FunctionTool<any, any, any>;
type InvokeDetails = Parameters<AnyFunctionTool['invoke']>[2];

/**
 * What needsApproval decided for a call, kept until invoke runs it (in this run, or
 * in a later one after the SDK's approval). `asked` is the input PreToolUse saw: when
 * the plan's input is still that object, the tool gets the model's own argument text.
 */
interface Decided {
  plan: Plan;
  bySdk: boolean;
  asked: Record<string, unknown>;
}

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
 *
 * Neither function is `async`, and neither waits for what is already there: the SDK
 * tracks async context, so each promise and `await` on the path of every tool call
 * costs more than ten no-op hooks do. With synchronous hooks a call adds one promise
 * in needsApproval (the tool's own policy, chained) and one in invoke (PostToolUse
 * after the tool's own promise).
 */
export function governFunctionTool(gate: ToolGate, tool: AnyFunctionTool, fields: Record<string, unknown>): AnyFunctionTool {
  const pending = new Map<string, Decided>();
  const own = tool.needsApproval;
  const invoke = tool.invoke;

  const needsApproval = (runContext: RunContext, input: unknown, callId?: string): Promise<boolean> => {
    const id = callId ?? '';
    // The SDK asks again when an approval comes back: still yes, without firing PreToolUse twice.
    if (pending.get(id)?.bySdk === true) return Promise.resolve(true);
    const call: ToolCallInfo = { name: tool.name, input: asObject(input), id };
    const plan = gate.before(call, undefined, fields);
    return andThen(plan, (p) => decide(runContext, call, p, callId));
  };

  /** needsApproval's answer for a planned call: true for an ask (and for the tool's own policy's yes). */
  function decide(runContext: RunContext, call: ToolCallInfo, plan: Plan, callId: string | undefined): Promise<boolean> {
    if (plan.action === 'stop') return Promise.reject(new HookwiseStopError(plan.message, 'PreToolUse'));
    if (plan.action === 'ask' && gate.answersAsks) return gate.resolveAsk(call, plan).then((p) => decide(runContext, call, p, callId));
    if (plan.action === 'ask') {
      pending.set(call.id, { plan, bySdk: true, asked: call.input });
      return Promise.resolve(true);
    }
    if (plan.action !== 'run') {
      pending.set(call.id, { plan, bySdk: false, asked: call.input });
      return Promise.resolve(false);
    }
    return own(runContext, plan.input as never, callId).then((yes) => {
      pending.set(call.id, { plan, bySdk: yes, asked: call.input });
      return yes;
    });
  }

  const governedInvoke = (runContext: RunContext, inputText: string, details?: InvokeDetails): Promise<unknown> => {
    const id = callIdOf(details, '');
    const decided = pending.get(id);
    // No needsApproval in this process (a RunState resumed elsewhere): PreToolUse fires now.
    if (decided === undefined) return firstSeen(runContext, inputText, details, id);
    pending.delete(id);
    const { plan } = decided;
    const runnable: Plan =
      decided.bySdk && (plan.action === 'run' || plan.action === 'ask')
        ? { action: 'run', input: plan.input, pre: plan.pre, approvedBy: 'approver' }
        : plan;
    const text = runnable.action === 'run' && runnable.input !== decided.asked ? JSON.stringify(runnable.input) : inputText;
    return execute(runContext, { name: tool.name, input: decided.asked, id }, runnable, text, details);
  };

  async function firstSeen(runContext: RunContext, inputText: string, details: InvokeDetails | undefined, id: string): Promise<unknown> {
    const call: ToolCallInfo = { name: tool.name, input: parseArgs(inputText), id };
    let plan = await gate.before(call, undefined, fields);
    if (plan.action === 'ask') {
      // An SDK approval of this call still counts.
      const approved = runContext.isToolApproved({ toolName: tool.name, callId: id });
      plan =
        approved === true ? { action: 'run', input: plan.input, pre: plan.pre, approvedBy: 'approver' } : await gate.resolveAsk(call, plan);
    }
    const text = plan.action === 'run' && plan.input !== call.input ? JSON.stringify(plan.input) : inputText;
    return execute(runContext, call, plan, text, details);
  }

  /** The planned call: the refusal or the tool, then PostToolUse or PostToolUseFailure. */
  function execute(runContext: RunContext, call: ToolCallInfo, plan: Plan, text: string, details?: InvokeDetails): Promise<unknown> {
    if (plan.action === 'stop') return Promise.reject(new HookwiseStopError(plan.message, 'PreToolUse'));
    if (plan.action !== 'run') return Promise.resolve((plan as { message: string }).message);
    const refused = gate.admit(call, plan);
    if (refused instanceof Promise) return refused.then((why) => why ?? run(runContext, call, plan.input, text, details));
    return refused === null ? run(runContext, call, plan.input, text, details) : Promise.resolve(refused);
  }

  function run(
    runContext: RunContext,
    call: ToolCallInfo,
    input: Record<string, unknown>,
    text: string,
    details?: InvokeDetails,
  ): Promise<unknown> {
    let ran: Promise<unknown>;
    try {
      ran = Promise.resolve(invoke(runContext, text, details));
    } catch (error) {
      ran = Promise.reject(error);
    }
    return ran.then(
      (output) => {
        const after = gate.after(call, input, output, fields);
        return andThen(after, modelFacing);
      },
      (error: unknown) => {
        const failure = gate.failed(call, input, error, fields);
        return andThen(failure, (f) => rethrow(f.stop, error));
      },
    );
  }

  // Frozen: `tool.invoke = raw` (or needsApproval) on a governed tool must fail, not run the raw tool.
  return Object.freeze({ ...tool, needsApproval, invoke: governedInvoke }) as AnyFunctionTool;
}

/** What the model reads after PostToolUse: the (replaced) output with what hooks added; a stop ends the run. */
function modelFacing(after: AfterTool): unknown {
  if (after.stop !== null) throw new HookwiseStopError(after.stop, 'PostToolUse');
  return withExtra(after.output, after.extra);
}

function rethrow(stop: string | null, error: unknown): never {
  if (stop !== null) throw new HookwiseStopError(stop, 'PostToolUseFailure');
  throw error;
}

function asObject(input: unknown): Record<string, unknown> {
  if (typeof input === 'string') return parseArgs(input);
  return input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : { input };
}
