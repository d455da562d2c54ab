import { AIMessage, createMiddleware, HumanMessage, ToolMessage, type ToolCallRequest } from 'langchain';
import type { HookEngine } from '../../core/engine.js';
import type { Outcome } from '../../core/outcome.js';
import { HookwiseStopError } from '../shared/errors.js';
import { HookwiseBlockedError, Lifecycle } from '../shared/lifecycle.js';
import {
  ToolGate,
  stopText,
  withExtra,
  type AdapterOptions,
  type Checked,
  type InputValidator,
  type Plan,
  type ToolCallInfo,
} from '../../gate/index.js';

type Message = {
  getType?: () => string;
  _getType?: () => string;
  content: unknown;
  id?: string;
  tool_calls?: Array<{ id?: string; name: string; args: unknown }>;
};
type State = { messages: Message[] };
type Result = Awaited<ReturnType<NonNullable<Parameters<typeof createMiddleware>[0]['wrapToolCall']>>>;

/**
 * Middleware for `createAgent` that puts a hookwise policy on the agent:
 * beforeAgent: SessionStart and UserPromptSubmit; beforeModel/afterModel:
 * PreModelCall/PostModelCall; wrapToolCall: PreToolUse, PermissionRequest,
 * PostToolUse/PostToolUseFailure; afterAgent: Stop ("keep going" jumps back to
 * the model with the reason) and SessionEnd. A stop throws HookwiseStopError
 * out of `invoke`; a deny is the tool's ToolMessage (status "error").
 */
export interface HookwiseMiddlewareOptions extends AdapterOptions {
  /**
   * Which agent/model events get a graph node. Each node is a LangGraph step on
   * every turn, so by default only those whose events have hooks in the engine when
   * the middleware is made: `'all'` adds every node (hooks registered later fire too).
   */
  events?: 'registered' | 'all';
}

/** The lifecycle nodes and the events that make each worth its graph step. */
const NODE_EVENTS = {
  beforeAgent: ['SessionStart', 'UserPromptSubmit'],
  beforeModel: ['PreModelCall'],
  afterModel: ['PostModelCall'],
  afterAgent: ['Stop', 'SessionEnd'],
} as const;

export function hookwiseMiddleware(engine: HookEngine, options: HookwiseMiddlewareOptions = {}) {
  const gate = new ToolGate(engine, 'langchain', options);
  const lifecycle = new Lifecycle(gate);
  const wanted = (node: keyof typeof NODE_EVENTS) => options.events === 'all' || NODE_EVENTS[node].some((e) => engine.hooks(e).length > 0);
  const nodes = lifecycleNodes(gate, lifecycle);

  // Frozen: `middleware.wrapToolCall = passThrough` must fail, not let tool calls through unjudged.
  const middleware = createMiddleware({
    name: 'hookwise',
    ...(wanted('beforeAgent') && { beforeAgent: nodes.beforeAgent }),
    ...(wanted('beforeModel') && { beforeModel: nodes.beforeModel }),
    ...(wanted('afterModel') && { afterModel: nodes.afterModel }),
    ...(wanted('afterAgent') && { afterAgent: nodes.afterAgent }),
    wrapToolCall: async (request, handler) =>
      governToolCall(gate, lifecycle, request as ToolCallRequest, handler as (r: ToolCallRequest) => Promise<Result>),
  });
  return Object.freeze(middleware);
}

function lifecycleNodes(gate: ToolGate, lifecycle: Lifecycle) {
  return {
    beforeAgent: async (state: State) => {
      const context = await lifecycle.start();
      const human = [...state.messages].reverse().find((m) => typeOf(m) === 'human');
      const prompt = human ? textOf(human.content) : '';
      const sent = await endOnThrow(lifecycle, () => lifecycle.prompt(prompt, context));
      if (!human || sent === prompt) return undefined;
      // Same id: the messages reducer replaces the user's message with the rewritten one.
      return { messages: [new HumanMessage({ content: sent, id: human.id })] } as never;
    },
    beforeModel: async (state: State) => {
      const pre = await gate.fire('PreModelCall', { message_count: state.messages.length });
      await endOnThrow(lifecycle, async () => halt(pre, 'PreModelCall'));
      return undefined;
    },
    afterModel: async (state: State) => {
      const last = state.messages.at(-1);
      const post = await gate.fire('PostModelCall', { response: last ? responseOf(last) : null });
      await endOnThrow(lifecycle, async () => {
        if (post.stop) throw new HookwiseStopError(stopText(post), 'PostModelCall');
      });
      const text = replacementText(post);
      if (text === null || !last?.id) return undefined;
      return { messages: [new AIMessage({ content: text, id: last.id, tool_calls: (last.tool_calls ?? []) as never })] } as never;
    },
    afterAgent: {
      canJumpTo: ['model'] as Array<'model'>,
      hook: async (state: State) => {
        const last = state.messages.at(-1);
        const verdict = await endOnThrow(lifecycle, () => lifecycle.stop(last ? textOf(last.content) : ''));
        if (verdict.continue) return { messages: [new HumanMessage(verdict.instruction)], jumpTo: 'model' } as never;
        await lifecycle.end();
        return undefined;
      },
    },
  };
}

async function governToolCall(
  gate: ToolGate,
  lifecycle: Lifecycle,
  request: ToolCallRequest,
  handler: (r: ToolCallRequest) => Promise<Result>,
): Promise<Result> {
  const { toolCall } = request;
  const call: ToolCallInfo = { name: toolCall.name, input: (toolCall.args ?? {}) as Record<string, unknown>, id: toolCall.id ?? '' };
  let plan: Plan = await gate.before(call, validatorFor(request.tool));
  if (plan.action === 'ask') plan = await gate.resolveAsk(call, plan);
  if (plan.action === 'stop') return endOnThrow(lifecycle, () => Promise.reject(new HookwiseStopError(plan.message, 'PreToolUse')));
  if (plan.action === 'deny') return refusal(call, plan.message);
  if (plan.action !== 'run') return refusal(call, 'not run');
  const refused = await gate.admit(call, plan);
  if (refused) return refusal(call, refused);
  const next = plan.input === call.input ? request : { ...request, toolCall: { ...toolCall, args: plan.input } };
  let result: Result;
  try {
    result = await handler(next);
  } catch (error) {
    const failure = await gate.failed(call, plan.input, error);
    if (failure.stop !== null)
      return endOnThrow(lifecycle, () => Promise.reject(new HookwiseStopError(failure.stop!, 'PostToolUseFailure')));
    throw error;
  }
  const message = ToolMessage.isInstance(result) ? result : null;
  const after = await gate.after(call, plan.input, message ? message.content : result);
  if (after.stop !== null) return endOnThrow(lifecycle, () => Promise.reject(new HookwiseStopError(after.stop!, 'PostToolUse')));
  if (!message || (!after.replaced && after.extra.length === 0)) return result;
  const content = withExtra(after.replaced ? contentOf(after.output) : message.content, after.extra);
  // A new message with the same id, name, status and artifact: only the content changes.
  return new ToolMessage({
    content: content as string,
    tool_call_id: message.tool_call_id,
    name: message.name,
    status: message.status,
    artifact: message.artifact,
    id: message.id,
    response_metadata: message.response_metadata,
  }) as Result;
}

function refusal(call: ToolCallInfo, text: string): Result {
  return new ToolMessage({ content: text, tool_call_id: call.id, name: call.name, status: 'error' }) as Result;
}

/** Zod schemas validate rewritten args; a JSON-schema tool is checked by the tool itself. */
function validatorFor(tool: unknown): InputValidator | undefined {
  const schema = (
    tool as { schema?: { safeParse?: (v: unknown) => { success: boolean; data?: unknown; error?: { message: string } } } } | undefined
  )?.schema;
  if (!schema || typeof schema.safeParse !== 'function') return undefined;
  return (value): Checked => {
    const parsed = schema.safeParse!(value);
    return parsed.success
      ? { ok: true, value: parsed.data as Record<string, unknown> }
      : { ok: false, message: parsed.error?.message ?? 'invalid' };
  };
}

/** A stop or block fires SessionEnd before it leaves the agent. */
async function endOnThrow<T>(lifecycle: Lifecycle, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    await lifecycle.end(error instanceof HookwiseStopError ? 'hook_stop' : 'other');
    throw error;
  }
}

function halt(outcome: Outcome, event: string): void {
  if (outcome.stop) throw new HookwiseStopError(stopText(outcome), event);
  if (outcome.blocked) throw new HookwiseBlockedError(outcome.reason ?? 'blocked', event);
}

function typeOf(m: Message): string | undefined {
  return m.getType?.() ?? m._getType?.();
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p === 'string' ? p : typeof p?.text === 'string' ? p.text : '')).join('');
  return '';
}

function contentOf(output: unknown): string {
  return typeof output === 'string' ? output : JSON.stringify(output);
}

function responseOf(m: Message): { text: string; tool_calls: Array<{ id: string; name: string; input: unknown }> } {
  return { text: textOf(m.content), tool_calls: (m.tool_calls ?? []).map((c) => ({ id: c.id ?? '', name: c.name, input: c.args })) };
}

function replacementText(post: Outcome): string | null {
  const updated = post.updatedOutput;
  if (typeof updated === 'string') return updated;
  if (updated && typeof updated === 'object' && typeof (updated as { text?: unknown }).text === 'string')
    return (updated as { text: string }).text;
  return null;
}
