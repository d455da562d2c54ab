import type { Model, ModelRequest, ModelResponse } from '@openai/agents';
import { HookwiseStopError } from '../shared/errors.js';
import { HookwiseBlockedError } from '../shared/lifecycle.js';
import { stopText, type ToolGate } from '../shared/tool-gate.js';

/** PreModelCall / PostModelCall around a Model instance, streaming or not. */
export function hookModelInstance(gate: ToolGate, model: Model, fields: () => Record<string, unknown>): Model {
  const before = async (request: ModelRequest) => {
    const pre = await gate.fire('PreModelCall', {
      ...fields(),
      input: request.input,
      tool_names: request.tools.map((t) => (t as { name?: string }).name ?? (t as { type: string }).type),
    });
    if (pre.stop) throw new HookwiseStopError(stopText(pre), 'PreModelCall');
    if (pre.blocked) throw new HookwiseBlockedError(pre.reason ?? 'blocked', 'PreModelCall');
  };
  const after = async (output: ModelResponse['output']) => {
    const post = await gate.fire('PostModelCall', { ...fields(), response: responseOf(output) });
    if (post.stop) throw new HookwiseStopError(stopText(post), 'PostModelCall');
  };
  const hooked: Model = {
    async getResponse(request) {
      await before(request);
      const response = await model.getResponse(request);
      await after(response.output);
      return response;
    },
    async *getStreamedResponse(request) {
      await before(request);
      let output: ModelResponse['output'] = [];
      for await (const event of model.getStreamedResponse(request)) {
        const done = event as { type: string; response?: { output?: ModelResponse['output'] } };
        if (done.type === 'response_done') output = done.response?.output ?? [];
        yield event;
      }
      await after(output);
    },
  };
  if (model.getRetryAdvice) hooked.getRetryAdvice = model.getRetryAdvice.bind(model);
  return hooked;
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
