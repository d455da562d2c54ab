import { invalidResponse } from './http.js';
import { HttpProvider, type HttpProviderOptions } from './http-provider.js';
import type { ChatMessage, ModelRequest, ModelResponse, ToolCall } from './types.js';

/**
 * Any OpenAI-compatible chat completions endpoint (OpenAI, vLLM, Ollama, LM Studio, ...).
 * `baseUrl` defaults to https://api.openai.com/v1; requests go to `{baseUrl}/chat/completions`.
 */
export type OpenAIProviderOptions = HttpProviderOptions;

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

interface WireToolCall {
  id?: unknown;
  type?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

function toWire(message: ChatMessage): Record<string, unknown> {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'assistant': {
      const wire: Record<string, unknown> = {
        role: 'assistant',
        content: message.content === '' && message.toolCalls?.length ? null : message.content,
      };
      if (message.toolCalls?.length) {
        wire.tool_calls = message.toolCalls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: JSON.stringify(call.input) },
        }));
      }
      return wire;
    }
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}

function toolCallOf(call: WireToolCall, index: number): ToolCall {
  const name = call.function?.name;
  if (typeof name !== 'string') throw invalidResponse('openai', `tool_calls[${index}].function.name is missing`);
  const raw = call.function?.arguments;
  let input: unknown = {};
  if (typeof raw === 'string' && raw.trim() !== '') {
    try {
      input = JSON.parse(raw);
    } catch {
      throw invalidResponse('openai', `tool_calls[${index}] (${name}) arguments are not JSON: ${raw.slice(0, 200)}`);
    }
  } else if (typeof raw === 'object' && raw !== null) {
    input = raw;
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw invalidResponse('openai', `tool_calls[${index}] (${name}) arguments are not a JSON object`);
  }
  return { id: typeof call.id === 'string' ? call.id : `call_${index}`, name, input: input as Record<string, unknown> };
}

const STOP_REASONS: Record<string, string> = { stop: 'end', tool_calls: 'tool_use', function_call: 'tool_use', length: 'max_tokens' };

export function parseOpenAIResponse(body: unknown): ModelResponse {
  const choice = (body as { choices?: Array<{ message?: unknown; finish_reason?: unknown }> } | null)?.choices?.[0];
  if (!choice || typeof choice.message !== 'object' || choice.message === null)
    throw invalidResponse('openai', 'choices[0].message is missing');
  const message = choice.message as { content?: unknown; tool_calls?: unknown };
  const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as WireToolCall[]) : [];
  const usage = (body as { usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } }).usage;
  const finish = typeof choice.finish_reason === 'string' ? choice.finish_reason : calls.length ? 'tool_calls' : 'stop';
  return {
    text: typeof message.content === 'string' ? message.content : '',
    toolCalls: calls.map(toolCallOf),
    usage: {
      inputTokens: typeof usage?.prompt_tokens === 'number' ? usage.prompt_tokens : 0,
      outputTokens: typeof usage?.completion_tokens === 'number' ? usage.completion_tokens : 0,
    },
    stopReason: STOP_REASONS[finish] ?? finish,
  };
}

export class OpenAIProvider extends HttpProvider {
  constructor(options: OpenAIProviderOptions) {
    super('openai', options, OPENAI_DEFAULT_BASE_URL, '/chat/completions');
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    const body: Record<string, unknown> = { model: this.model, messages: request.messages.map(toWire) };
    if (request.tools?.length) {
      body.tools = request.tools.map((tool) => ({
        type: 'function',
        function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
      }));
    }
    if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
    const auth: Record<string, string> = this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {};
    return parseOpenAIResponse(await this.post(auth, body, request.signal));
  }
}
