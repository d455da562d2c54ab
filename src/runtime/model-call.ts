import { ModelError, type ModelResponse } from '../providers/types.js';
import { blockedBy } from './hook-gateway.js';
import { HOOK_CONTEXT_HEADER, type Halt, type RunContext, stopHalt } from './run-context.js';
import { sleep } from './sleep.js';
import { applyStateRewrite, promptOf, systemPromptOf } from './state-rewrite.js';

export type ModelCallResult = { ok: true; response: ModelResponse } | { ok: false; halt: Halt };

const DEFAULT_RATE_LIMIT_DELAY_MS = 1000;

/**
 * One model call inside PreModelCall / PostModelCall. A retry answer on
 * PostModelCall (a budget guard after a rate limit) or a rate limit itself means:
 * wait, then redo the call; at most `maxOperationRetries` times.
 */
export async function callModel(run: RunContext): Promise<ModelCallResult> {
  const session = run.session;
  const provider = session.provider;
  const step = { index: run.stepIndex };
  const base = { model: provider.model, provider: provider.name, model_provider: provider.name, model_name: provider.model };
  const toolNames = run.toolDefinitions.map((t) => t.name);
  for (let retries = 0; ; retries++) {
    const pre = await run.hooks.fire('PreModelCall', {
      ...base,
      message_count: run.messages.length,
      tool_names: toolNames,
      available_tools: toolNames,
      prompt: promptOf(run.messages),
      system_prompt: systemPromptOf(run.messages),
      messages: run.messages.slice(),
    });
    if (pre.stop) return { ok: false, halt: stopHalt(pre) };
    if (pre.blocked)
      return { ok: false, halt: { stopReason: 'hook_blocked', reason: `model call not made: PreModelCall ${blockedBy(pre)}` } };
    const invalid = applyStateRewrite(run, pre, ['messages', 'system_prompt', 'prompt']);
    if (invalid) return { ok: false, halt: { stopReason: 'hook_blocked', reason: `model call not made: ${invalid}` } };
    // Context a PreModelCall hook adds is part of the call it was fired for.
    if (pre.additionalContext) run.addMessage({ role: 'user', content: `${HOOK_CONTEXT_HEADER}\n${pre.additionalContext}` });
    const prompt = promptOf(run.messages);

    session.observer.emit({ type: 'model_start', step: step.index, messages: run.messages.length, ...run.tag });
    const t0 = performance.now();
    let response: ModelResponse;
    try {
      response = await provider.complete({ messages: [...run.messages], tools: run.toolDefinitions, signal: session.signal });
    } catch (thrown) {
      if (session.signal.aborted) throw thrown;
      const error = asModelError(thrown);
      session.observer.emit({
        type: 'model_end',
        step: step.index,
        usage: null,
        durationMs: performance.now() - t0,
        error: error.message,
        ...run.tag,
      });
      const post = await run.hooks.fire(
        'PostModelCall',
        {
          ...base,
          error: { type: error.kind, message: error.message, status: error.status ?? null, retry_after_ms: error.retryAfterMs ?? null },
          prompt,
          duration_ms: Math.round(performance.now() - t0),
        },
        { retry: 'return' },
      );
      if (post.stop) return { ok: false, halt: stopHalt(post) };
      const delayMs =
        post.retry?.delayMs ?? (error.kind === 'rate_limit' ? (error.retryAfterMs ?? DEFAULT_RATE_LIMIT_DELAY_MS) : undefined);
      if (delayMs === undefined) return failed(error.kind, error.message);
      if (retries >= session.maxOperationRetries)
        return failed(error.kind, `${error.message} (retry limit reached after ${retries} retries)`);
      session.observer.emit({ type: 'retry', event: 'PostModelCall', attempt: retries + 1, delayMs, why: error.message, ...run.tag });
      await sleep(delayMs, session.signal);
      continue;
    }

    const durationMs = performance.now() - t0;
    const usage = { inputTokens: response.usage.inputTokens, outputTokens: response.usage.outputTokens };
    session.usage.inputTokens += usage.inputTokens;
    session.usage.outputTokens += usage.outputTokens;
    session.observer.emit({ type: 'model_end', step: step.index, usage, durationMs, ...run.tag });
    const toolCalls = response.toolCalls.map((c) => ({ id: c.id, name: c.name, input: c.input }));
    const post = await run.hooks.fire(
      'PostModelCall',
      {
        ...base,
        usage: {
          input_tokens: usage.inputTokens,
          output_tokens: usage.outputTokens,
          prompt_tokens: usage.inputTokens,
          completion_tokens: usage.outputTokens,
          total_tokens: usage.inputTokens + usage.outputTokens,
        },
        response: { text: response.text, tool_calls: toolCalls },
        response_text: response.text,
        tool_calls: toolCalls,
        prompt,
        stop_reason: response.stopReason,
        duration_ms: Math.round(durationMs),
      },
      { retry: 'return' },
    );
    if (post.stop) return { ok: false, halt: stopHalt(post) };
    if (post.retry && retries < session.maxOperationRetries) {
      session.observer.emit({
        type: 'retry',
        event: 'PostModelCall',
        attempt: retries + 1,
        delayMs: post.retry.delayMs,
        why: 'hook asked to retry',
        ...run.tag,
      });
      await sleep(post.retry.delayMs, session.signal);
      continue;
    }
    return { ok: true, response: rewritten(response, post.updatedOutput) };
  }
}

/** PostModelCall's updatedOutput: a string replaces the text; `{ text }` does too. */
function rewritten(response: ModelResponse, updated: unknown): ModelResponse {
  if (typeof updated === 'string') return { ...response, text: updated };
  if (updated && typeof updated === 'object' && typeof (updated as { text?: unknown }).text === 'string') {
    return { ...response, text: (updated as { text: string }).text };
  }
  return response;
}

function asModelError(thrown: unknown): ModelError {
  if (thrown instanceof ModelError) return thrown;
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  return new ModelError(message, 'invalid_response');
}

function failed(type: string, message: string): ModelCallResult {
  return { ok: false, halt: { stopReason: 'error', reason: message, error: { type, message } } };
}
