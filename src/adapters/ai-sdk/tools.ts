import { asSchema, type Tool, type ToolExecutionOptions, type ToolSet } from 'ai';
import type { HookEngine } from '../../core/engine.js';
import { HookwiseStopError, UngovernedToolError } from '../shared/errors.js';
import { ToolGate, withExtra, type AdapterOptions, type Checked, type Plan, type ToolCallInfo } from '../shared/tool-gate.js';

export interface HookToolsOptions extends AdapterOptions {
  /**
   * Tools hookwise cannot put hooks around (provider-executed tools, tools without
   * `execute`): `'refuse'` (default) throws at wrap time; `'report'` passes them
   * through unchanged and calls `onUngoverned` for each.
   */
  ungoverned?: 'refuse' | 'report';
  onUngoverned?: (toolName: string, why: string) => void;
}

type AnyTool = Tool<any, any>;
type ModelOutput = Awaited<ReturnType<NonNullable<AnyTool['toModelOutput']>>>;

/**
 * The same ToolSet with every `execute` going through PreToolUse / PostToolUse /
 * PostToolUseFailure. PreToolUse fires in `needsApproval`, which the AI SDK awaits
 * for every call before it runs any tool of the step: a stop there rejects the run
 * before anything runs, and an ask becomes the SDK's own approval request. The
 * returned object is frozen: a tool added to it later would run ungoverned.
 */
export function hookTools<T extends ToolSet>(engine: HookEngine, tools: T, options: HookToolsOptions = {}): T {
  const gate = new ToolGate(engine, 'ai-sdk', options);
  // The steps (by their messages array) a stop ended: streamText handles each call of a
  // step on its own, so the calls after a stop must be refused here, not left to run.
  const stoppedSteps = new WeakSet<object>();
  const governed: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(tools)) {
    const why = ungovernedReason(tool as AnyTool);
    if (why) {
      if (options.ungoverned !== 'report') {
        throw new UngovernedToolError(
          name,
          why,
          'Remove it from the ToolSet, or pass { ungoverned: "report" } to hookTools to let it through unhooked.',
        );
      }
      options.onUngoverned?.(name, why);
      governed[name] = tool;
      continue;
    }
    governed[name] = governTool(gate, name, tool as AnyTool, stoppedSteps);
  }
  return Object.freeze(governed) as T;
}

function ungovernedReason(tool: AnyTool): string | null {
  if (tool.type === 'provider') return 'it is executed by the model provider, out of reach of any client-side hook';
  if (typeof tool.execute !== 'function') return 'it has no execute function (the client runs it), so no hook can wrap its execution';
  return null;
}

/** What needsApproval decided for a call, until execute (possibly in a later generateText, after an approval) runs it. */
type Pending = Plan | { action: 'approved-by-sdk'; plan: Plan & { action: 'ask' | 'run' } };

function governTool(gate: ToolGate, name: string, tool: AnyTool, stoppedSteps: WeakSet<object>): AnyTool {
  const pending = new Map<string, Pending>();
  // Calls a hook stopped after the tool ran: toModelOutput, which the SDK runs before the next model call, throws.
  const stopped = new Map<string, string>();
  const execute = tool.execute!.bind(tool);
  const schema = asSchema(tool.inputSchema);
  const validate = async (value: Record<string, unknown>): Promise<Checked> => {
    if (!schema.validate) return { ok: true, value };
    const result = await schema.validate(value);
    return result.success ? { ok: true, value: result.value as Record<string, unknown> } : { ok: false, message: result.error.message };
  };
  const own = tool.needsApproval;

  const needsApproval = async (
    input: unknown,
    opts: { toolCallId: string; messages: unknown[]; experimental_context?: unknown },
  ): Promise<boolean> => {
    // The SDK asks again when an approval comes back: still yes, without firing PreToolUse twice.
    if (pending.get(opts.toolCallId)?.action === 'approved-by-sdk') return true;
    if (stoppedSteps.has(opts.messages))
      throw new HookwiseStopError(`not run: a hook stopped the agent earlier in this step`, 'PreToolUse');
    const call: ToolCallInfo = { name, input: input as Record<string, unknown>, id: opts.toolCallId };
    let plan = await gate.before(call, validate);
    if (plan.action === 'stop') {
      stoppedSteps.add(opts.messages);
      throw new HookwiseStopError(plan.message, 'PreToolUse');
    }
    if (plan.action === 'ask' && gate.answersAsks) plan = await gate.resolveAsk(call, plan);
    if (plan.action === 'ask') {
      pending.set(call.id, { action: 'approved-by-sdk', plan });
      return true;
    }
    if (plan.action === 'run' && own !== undefined && (typeof own === 'boolean' ? own : await own(plan.input as never, opts as never))) {
      pending.set(call.id, { action: 'approved-by-sdk', plan });
      return true;
    }
    pending.set(call.id, plan);
    return false;
  };

  const governedExecute = async (input: unknown, opts: ToolExecutionOptions): Promise<unknown> => {
    const call: ToolCallInfo = { name, input: input as Record<string, unknown>, id: opts.toolCallId };
    let plan = await planFor(call);
    if (plan.action === 'stop') {
      stopped.set(call.id, plan.message);
      return plan.message;
    }
    if (plan.action === 'deny') return plan.message;
    if (plan.action !== 'run') return plan; // unreachable: planFor resolves every ask
    const refused = await gate.admit(call, plan);
    if (refused) return refused;
    let output: unknown;
    try {
      output = execute(plan.input, opts);
      if (isAsyncIterable(output)) return streamed(call, plan.input, output);
      output = await output;
    } catch (error) {
      const failure = await gate.failed(call, plan.input, error);
      if (failure.stop === null) throw error;
      stopped.set(call.id, failure.stop);
      return failure.stop;
    }
    const after = await gate.after(call, plan.input, output);
    if (after.stop !== null) stopped.set(call.id, after.stop);
    return withExtra(after.output, after.extra);

    async function planFor(c: ToolCallInfo): Promise<Plan> {
      const decided = pending.get(c.id);
      pending.delete(c.id);
      // The SDK only executes a call that needed approval once someone approved it.
      if (decided?.action === 'approved-by-sdk')
        return { action: 'run', input: decided.plan.input, pre: decided.plan.pre, approvedBy: 'approver' };
      if (decided) return decided;
      // Executed without needsApproval (called directly, or a ToolSet shared by two runs).
      plan = await gate.before(c, validate);
      return plan.action === 'ask' ? gate.resolveAsk(c, plan) : plan;
    }
  };

  async function* streamed(call: ToolCallInfo, input: Record<string, unknown>, parts: AsyncIterable<unknown>): AsyncGenerator<unknown> {
    let last: unknown;
    try {
      for await (const part of parts) {
        last = part;
        yield part;
      }
    } catch (error) {
      const failure = await gate.failed(call, input, error);
      if (failure.stop === null) throw error;
      stopped.set(call.id, failure.stop);
      yield failure.stop;
      return;
    }
    const after = await gate.after(call, input, last);
    if (after.stop !== null) stopped.set(call.id, after.stop);
    if (after.replaced || after.extra.length > 0) yield withExtra(after.output, after.extra);
  }

  const ownModelOutput = tool.toModelOutput;
  const toModelOutput = async (o: { toolCallId: string; input: unknown; output: unknown }): Promise<ModelOutput> => {
    const reason = stopped.get(o.toolCallId);
    if (reason !== undefined) {
      stopped.delete(o.toolCallId);
      throw new HookwiseStopError(reason, 'PostToolUse');
    }
    if (ownModelOutput) return ownModelOutput(o as never);
    // The SDK's own default, so a governed tool's result reaches the model unchanged.
    return typeof o.output === 'string'
      ? { type: 'text', value: o.output }
      : { type: 'json', value: (o.output === undefined ? null : o.output) as never };
  };

  return { ...tool, needsApproval, execute: governedExecute, toModelOutput } as AnyTool;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function';
}
