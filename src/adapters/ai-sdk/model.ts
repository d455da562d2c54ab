import { wrapLanguageModel, type LanguageModel, type LanguageModelMiddleware } from 'ai';
import type { HookEngine } from '../../core/engine.js';
import type { Outcome } from '../../core/outcome.js';
import { HookwiseStopError } from '../shared/errors.js';
import { ToolGate, stopText, type AdapterOptions } from '../../gate/index.js';

type Model = Parameters<typeof wrapLanguageModel>[0]['model'];
type GenerateResult = Awaited<ReturnType<Model['doGenerate']>>;
type Content = GenerateResult['content'];
type StreamResult = Awaited<ReturnType<Model['doStream']>>;
type StreamPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;
type CallOptions = Parameters<Model['doGenerate']>[0];

/** A PreModelCall hook blocked the call (`block(...)`); the model was not called. */
export class ModelCallBlockedError extends Error {
  override readonly name = 'ModelCallBlockedError';
}

/**
 * The model with PreModelCall / PostModelCall around every call, streaming or not.
 * PreModelCall: a stop throws HookwiseStopError, a block throws ModelCallBlockedError,
 * `modify({ prompt })` replaces the prompt. PostModelCall: a stop throws, a replaced
 * output (a string, or `{ text }`) replaces the response text. A stream is passed
 * through as it comes unless PostModelCall has hooks, which must see it whole first.
 */
export function hookModel<M extends LanguageModel>(engine: HookEngine, model: M, options: AdapterOptions = {}): M {
  const gate = new ToolGate(engine, 'ai-sdk', options);
  const middleware: LanguageModelMiddleware = {
    specificationVersion: 'v3',
    wrapGenerate: async ({ doGenerate, params, model: inner }) => {
      const base = { model: inner.modelId, provider: inner.provider };
      await before(gate, base, params);
      const result = await doGenerate();
      const post = await gate.fire('PostModelCall', {
        ...base,
        response: responseOf(result.content),
        stop_reason: result.finishReason.unified,
      });
      if (post.stop) throw new HookwiseStopError(stopText(post), 'PostModelCall');
      const text = replacementText(post);
      return text === null ? result : { ...result, content: replaceText(result.content, text) };
    },
    wrapStream: async ({ doStream, params, model: inner }) => {
      const base = { model: inner.modelId, provider: inner.provider };
      await before(gate, base, params);
      const result = await doStream();
      if (engine.hooks('PostModelCall').length === 0) {
        return { ...result, stream: result.stream.pipeThrough(afterStream(gate, base, null)) };
      }
      const parts: StreamPart[] = [];
      return { ...result, stream: result.stream.pipeThrough(afterStream(gate, base, parts)) };
    },
  };
  return wrapLanguageModel({ model: model as Model, middleware }) as M;
}

async function before(gate: ToolGate, base: Record<string, unknown>, params: CallOptions): Promise<void> {
  const pre = await gate.fire('PreModelCall', { ...base, prompt: params.prompt, tool_names: (params.tools ?? []).map((t) => t.name) });
  if (pre.stop) throw new HookwiseStopError(stopText(pre), 'PreModelCall');
  if (pre.blocked) throw new ModelCallBlockedError(`model call not made: PreModelCall hook: ${pre.reason ?? 'blocked'}`);
  const prompt = pre.updatedInput?.prompt;
  if (prompt !== undefined) {
    if (!Array.isArray(prompt))
      throw new ModelCallBlockedError(
        'a PreModelCall hook rewrote `prompt` into something that is not a message array; the model was not called',
      );
    params.prompt = prompt as CallOptions['prompt'];
  }
}

/**
 * Passes parts through. With `held`, parts wait until the finish part, when
 * PostModelCall runs and may replace the text; without, PostModelCall runs at the end.
 */
function afterStream(gate: ToolGate, base: Record<string, unknown>, held: StreamPart[] | null): TransformStream<StreamPart, StreamPart> {
  const seen: StreamPart[] = [];
  let finish: string | undefined;
  return new TransformStream<StreamPart, StreamPart>({
    transform(part, controller) {
      seen.push(part);
      if (part.type === 'finish') finish = part.finishReason.unified;
      if (held) held.push(part);
      else controller.enqueue(part);
    },
    async flush(controller) {
      const post = await gate.fire('PostModelCall', { ...base, response: responseOf(contentOf(seen)), stop_reason: finish ?? null });
      if (post.stop) {
        controller.error(new HookwiseStopError(stopText(post), 'PostModelCall'));
        return;
      }
      if (!held) return;
      const text = replacementText(post);
      for (const part of text === null ? held : replaceStreamText(held, text)) controller.enqueue(part);
    },
  });
}

function responseOf(content: Content): { text: string; tool_calls: Array<{ id: string; name: string; input: unknown }> } {
  const text = content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('');
  const toolCalls = content.flatMap((c) =>
    c.type === 'tool-call' ? [{ id: c.toolCallId, name: c.toolName, input: safeJson(c.input) }] : [],
  );
  return { text, tool_calls: toolCalls };
}

function contentOf(parts: StreamPart[]): Content {
  const content: Content = [];
  let text = '';
  for (const p of parts) {
    if (p.type === 'text-delta') text += p.delta;
    if (p.type === 'tool-call') content.push(p);
  }
  if (text) content.unshift({ type: 'text', text });
  return content;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** PostModelCall's updatedOutput: a string, or `{ text }`, replaces the text (as in the runtime). */
function replacementText(post: Outcome): string | null {
  const updated = post.updatedOutput;
  if (typeof updated === 'string') return updated;
  if (updated && typeof updated === 'object' && typeof (updated as { text?: unknown }).text === 'string')
    return (updated as { text: string }).text;
  return null;
}

function replaceText(content: Content, text: string): Content {
  const rest = content.filter((c) => c.type !== 'text');
  return [{ type: 'text', text }, ...rest];
}

function replaceStreamText(parts: StreamPart[], text: string): StreamPart[] {
  const out: StreamPart[] = [];
  let written = false;
  for (const p of parts) {
    if (p.type === 'text-start' || p.type === 'text-end') continue;
    if (p.type === 'text-delta') continue;
    if (p.type === 'finish' && !written) {
      out.push(
        { type: 'text-start', id: 'hookwise' },
        { type: 'text-delta', id: 'hookwise', delta: text },
        { type: 'text-end', id: 'hookwise' },
      );
      written = true;
    }
    out.push(p);
  }
  return out;
}
