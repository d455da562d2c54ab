import { andThen } from '../../gate/and-then.js';
import { asSchema, type Tool, type ToolExecutionOptions, type ToolSet } from 'ai';
import type { HookEngine } from '../../core/engine.js';
import { HookwiseStopError, UngovernedToolError } from '../shared/errors.js';
import { ToolGate, withExtra, type AdapterOptions, type AfterTool, type Checked, type Plan, type ToolCallInfo } from '../../gate/index.js';

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

/**
 * needsApproval, execute and toModelOutput answer synchronously whatever is known
 * synchronously (the AI SDK awaits each, and accepts plain values): with synchronous
 * hooks a tool call adds no promise of hookwise's. execute must return a streaming
 * tool's iterable itself, not a promise of it, or the SDK takes the iterable for the output.
 */
function governTool(gate: ToolGate, name: string, tool: AnyTool, stoppedSteps: WeakSet<object>): AnyTool {
  // What needsApproval decided, for execute later in the same step: keyed by the input object the SDK hands
  // to both (a WeakMap of fresh objects costs far less per call than a Map of fresh ids, and forgets the
  // calls that never execute). The id guards against one input object passed for two calls.
  const decidedFor = new WeakMap<object, { id: string; decided: Pending }>();
  // By call id: an approval the SDK asks about again in a later generateText, and an input that is not an object.
  const pending = new Map<string, Pending>();
  const remember = (call: ToolCallInfo, decided: Pending): void => {
    if (decided.action !== 'approved-by-sdk' && typeof call.input === 'object' && call.input !== null)
      decidedFor.set(call.input, { id: call.id, decided });
    else pending.set(call.id, decided);
  };
  // Calls a hook stopped after the tool ran: toModelOutput, which the SDK runs before the next model call, throws.
  const stopped = new Map<string, string>();
  const execute = tool.execute!.bind(tool);
  // Known before it runs: the one kind of tool whose result must stay an iterable even when the plan is awaited.
  const streams = isAsyncGeneratorFunction(tool.execute);
  const schema = asSchema(tool.inputSchema);
  const validate = async (value: Record<string, unknown>): Promise<Checked> => {
    if (!schema.validate) return { ok: true, value };
    const result = await schema.validate(value);
    return result.success ? { ok: true, value: result.value as Record<string, unknown> } : { ok: false, message: result.error.message };
  };
  const own = tool.needsApproval;

  type ApprovalOptions = { toolCallId: string; messages: unknown[]; experimental_context?: unknown };

  const needsApproval = (input: unknown, opts: ApprovalOptions): boolean | Promise<boolean> => {
    // The SDK asks again when an approval comes back: still yes, without firing PreToolUse twice.
    if (pending.size > 0 && pending.get(opts.toolCallId)?.action === 'approved-by-sdk') return true;
    if (stoppedSteps.has(opts.messages))
      throw new HookwiseStopError(`not run: a hook stopped the agent earlier in this step`, 'PreToolUse');
    const call: ToolCallInfo = { name, input: input as Record<string, unknown>, id: opts.toolCallId };
    const plan = gate.before(call, validate);
    // Not andThen: its callback would be a closure allocated on every call, and this is every call.
    return plan instanceof Promise ? plan.then((p) => decide(call, p, opts)) : decide(call, plan, opts);
  };

  function decide(call: ToolCallInfo, plan: Plan, opts: ApprovalOptions): boolean | Promise<boolean> {
    if (plan.action === 'stop') {
      stoppedSteps.add(opts.messages);
      throw new HookwiseStopError(plan.message, 'PreToolUse');
    }
    if (plan.action === 'ask' && gate.answersAsks) return gate.resolveAsk(call, plan).then((p) => decide(call, p, opts));
    if (plan.action === 'ask') {
      remember(call, { action: 'approved-by-sdk', plan });
      return true;
    }
    if (plan.action !== 'run' || own === undefined || own === false) {
      remember(call, plan);
      return false;
    }
    const ownAnswer = typeof own === 'boolean' ? own : own(plan.input as never, opts as never);
    const settle = (yes: boolean): boolean => {
      remember(call, yes ? { action: 'approved-by-sdk', plan } : plan);
      return yes;
    };
    return typeof ownAnswer === 'boolean' ? settle(ownAnswer) : Promise.resolve(ownAnswer).then(settle);
  }

  const governedExecute = (input: unknown, opts: ToolExecutionOptions): unknown => {
    const call: ToolCallInfo = { name, input: input as Record<string, unknown>, id: opts.toolCallId };
    const plan = planFor(call);
    if (!(plan instanceof Promise)) return executePlanned(call, plan, opts);
    const later = plan.then((p) => executePlanned(call, p, opts));
    return streams ? streamedLater(later) : later;
  };

  function planFor(call: ToolCallInfo): Plan | Promise<Plan> {
    const decided = takeDecided(call);
    // The SDK only executes a call that needed approval once someone approved it.
    if (decided?.action === 'approved-by-sdk')
      return { action: 'run', input: decided.plan.input, pre: decided.plan.pre, approvedBy: 'approver' };
    if (decided) return decided;
    // Executed without needsApproval (called directly, or a ToolSet shared by two runs).
    const plan = gate.before(call, validate);
    const asked = (p: Plan) => (p.action === 'ask' ? gate.resolveAsk(call, p) : p);
    return andThen(plan, asked);
  }

  function takeDecided(call: ToolCallInfo): Pending | undefined {
    if (typeof call.input === 'object' && call.input !== null) {
      const entry = decidedFor.get(call.input);
      if (entry?.id === call.id) {
        decidedFor.delete(call.input);
        return entry.decided;
      }
    }
    if (pending.size === 0) return undefined;
    const decided = pending.get(call.id);
    pending.delete(call.id);
    return decided;
  }

  /** The refusal, or the tool between the coverage record and PostToolUse (a streaming tool's iterable as it is). */
  function executePlanned(call: ToolCallInfo, plan: Plan, opts: ToolExecutionOptions): unknown {
    if (plan.action === 'stop') {
      stopped.set(call.id, plan.message);
      return plan.message;
    }
    if (plan.action === 'deny') return plan.message;
    if (plan.action !== 'run') return plan; // unreachable: planFor resolves every ask
    const refused = gate.admit(call, plan);
    if (refused instanceof Promise) {
      const later = refused.then((why) => why ?? run(call, plan.input, opts));
      return streams ? streamedLater(later) : later;
    }
    return refused ?? run(call, plan.input, opts);
  }

  function run(call: ToolCallInfo, input: Record<string, unknown>, opts: ToolExecutionOptions): unknown {
    let output: unknown;
    try {
      output = execute(input, opts);
    } catch (error) {
      return failed(call, input, error);
    }
    if (isAsyncIterable(output)) return streamed(call, input, output);
    if (!isPromiseLike(output)) return after(call, input, output);
    return Promise.resolve(output).then(
      (value) => after(call, input, value),
      (error: unknown) => failed(call, input, error),
    );
  }

  function after(call: ToolCallInfo, input: Record<string, unknown>, output: unknown): unknown {
    const done = gate.after(call, input, output);
    return done instanceof Promise ? done.then((a) => modelFacing(call, a)) : modelFacing(call, done);
  }

  function modelFacing(call: ToolCallInfo, after: AfterTool): unknown {
    if (after.stop !== null) stopped.set(call.id, after.stop);
    return withExtra(after.output, after.extra);
  }

  /** PostToolUseFailure; the error goes on to the SDK unless a hook stopped the agent. */
  function failed(call: ToolCallInfo, input: Record<string, unknown>, error: unknown): unknown {
    const failure = gate.failed(call, input, error);
    const settle = (f: { stop: string | null }) => {
      if (f.stop === null) throw error;
      stopped.set(call.id, f.stop);
      return f.stop;
    };
    return andThen(failure, settle);
  }

  /** A streaming tool whose plan (or coverage record) had to be awaited: its parts, once it runs. */
  async function* streamedLater(later: Promise<unknown>): AsyncGenerator<unknown> {
    const result = await later;
    if (isAsyncIterable(result)) yield* result;
    else yield result;
  }

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
  const toModelOutput = (o: { toolCallId: string; input: unknown; output: unknown }): ModelOutput | PromiseLike<ModelOutput> => {
    const reason = stopped.size === 0 ? undefined : stopped.get(o.toolCallId);
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

  // Frozen: `governed.tool.execute = raw` (or needsApproval, toModelOutput) must fail, not run the raw tool.
  return Object.freeze({ ...tool, needsApproval, execute: governedExecute, toModelOutput }) as AnyTool;
}

function isAsyncGeneratorFunction(fn: unknown): boolean {
  return typeof fn === 'function' && fn.constructor?.name === 'AsyncGeneratorFunction';
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as PromiseLike<unknown>).then === 'function'
  );
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function';
}
