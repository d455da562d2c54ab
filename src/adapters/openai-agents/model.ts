import { andThen } from '../../gate/and-then.js';
import type { Model, ModelRequest, ModelResponse } from '@openai/agents';
import type { Outcome } from '../../core/outcome.js';
import { HookwiseStopError } from '../shared/errors.js';
import { HookwiseBlockedError } from '../shared/lifecycle.js';
import { stopText, type ToolGate } from '../../gate/index.js';

/**
 * PreModelCall / PostModelCall around a Model instance, streaming or not. An event
 * nobody observes (no hook, no outcome listener) is not fired: with neither, the
 * model's own promise is returned as it is, so an unhooked model call costs nothing.
 */
export function hookModelInstance(gate: ToolGate, model: Model, fields: Record<string, unknown>): Model {
  const before = (request: ModelRequest): Outcome | Promise<Outcome> =>
    gate.fireMaybeSync('PreModelCall', {
      ...fields,
      input: request.input,
      tool_names: request.tools.map((t) => (t as { name?: string }).name ?? (t as { type: string }).type),
    });
  const after = (output: ModelResponse['output']): Outcome | Promise<Outcome> =>
    gate.fireMaybeSync('PostModelCall', { ...fields, response: responseOf(output) });
  const answered = (response: ModelResponse): ModelResponse | Promise<ModelResponse> => {
    const post = after(response.output);
    return andThen(post, (o) => afterModel(o, response));
  };
  const respond = (request: ModelRequest): Promise<ModelResponse> =>
    gate.observes('PostModelCall') ? model.getResponse(request).then(answered) : model.getResponse(request);
  const hooked: Model = {
    getResponse(request) {
      if (!gate.observes('PreModelCall')) return respond(request);
      const pre = before(request);
      if (pre instanceof Promise)
        return pre.then((o) => {
          beforeModel(o);
          return respond(request);
        });
      try {
        beforeModel(pre);
      } catch (error) {
        return Promise.reject(error);
      }
      return respond(request);
    },
    async *getStreamedResponse(request) {
      if (gate.observes('PreModelCall')) beforeModel(await before(request));
      let output: ModelResponse['output'] = [];
      for await (const event of model.getStreamedResponse(request)) {
        const done = event as { type: string; response?: { output?: ModelResponse['output'] } };
        if (done.type === 'response_done') output = done.response?.output ?? [];
        yield event;
      }
      if (gate.observes('PostModelCall')) afterModel(await after(output), null);
    },
  };
  if (model.getRetryAdvice) hooked.getRetryAdvice = model.getRetryAdvice.bind(model);
  // Frozen: `agent.model.getResponse = raw` on a governed agent must fail, not skip the model hooks.
  return Object.freeze(hooked);
}

function beforeModel(pre: Outcome): void {
  if (pre.stop) throw new HookwiseStopError(stopText(pre), 'PreModelCall');
  if (pre.blocked) throw new HookwiseBlockedError(pre.reason ?? 'blocked', 'PreModelCall');
}

function afterModel<R>(post: Outcome, response: R): R {
  if (post.stop) throw new HookwiseStopError(stopText(post), 'PostModelCall');
  return response;
}

function responseOf(output: ModelResponse['output']): { text: string; tool_calls: Array<{ id: string; name: string; input: unknown }> } {
  let text = '';
  const toolCalls: Array<{ id: string; name: string; input: unknown }> = [];
  for (const item of output) {
    if (item.type === 'message' && item.role === 'assistant') {
      for (const part of item.content) if (part.type === 'output_text') text += part.text;
    }
    if (item.type === 'function_call') toolCalls.push({ id: item.callId, name: item.name, input: item.arguments });
  }
  return { text, tool_calls: toolCalls };
}
