import { invalidResponse } from './http.js';
import { HttpProvider, type HttpProviderOptions } from './http-provider.js';
import type { ChatMessage, ModelRequest, ModelResponse, ToolCall } from './types.js';

/**
 * The Anthropic Messages API over plain HTTP. `baseUrl` defaults to
 * https://api.anthropic.com; requests go to `{baseUrl}/v1/messages`.
 */
export interface AnthropicProviderOptions extends HttpProviderOptions {
  /** max_tokens is required by the API; used when the request gives none. Default 4096. */
  defaultMaxTokens?: number;
}

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';

type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean };

interface WireMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

function blocksOf(message: Exclude<ChatMessage, { role: 'system' }>): Block[] {
  switch (message.role) {
    case 'user':
      return [{ type: 'text', text: message.content }];
    case 'assistant': {
      const blocks: Block[] = message.content ? [{ type: 'text', text: message.content }] : [];
      for (const call of message.toolCalls ?? []) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.input });
      return blocks;
    }
    case 'tool': {
      const result: Block = { type: 'tool_result', tool_use_id: message.toolCallId, content: message.content };
      if (message.isError) result.is_error = true;
      return [result];
    }
  }
}

/**
 * System messages go to the top-level `system` field; tool results travel as
 * user messages; consecutive messages of one role are merged, since the API
 * wants user and assistant turns to alternate.
 */
export function toAnthropicMessages(messages: ChatMessage[]): { system?: string; messages: WireMessage[] } {
  const system: string[] = [];
  const wire: WireMessage[] = [];
  for (const message of messages) {
    if (message.role === 'system') {
      system.push(message.content);
      continue;
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = blocksOf(message);
    if (blocks.length === 0) continue;
    const last = wire[wire.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else wire.push({ role, content: blocks });
  }
  return system.length ? { system: system.join('\n\n'), messages: wire } : { messages: wire };
}

const STOP_REASONS: Record<string, string> = { end_turn: 'end', stop_sequence: 'end', tool_use: 'tool_use', max_tokens: 'max_tokens' };

export function parseAnthropicResponse(body: unknown): ModelResponse {
  const content = (body as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) throw invalidResponse('anthropic', 'content is missing');
  const text: string[] = [];
  const toolCalls: ToolCall[] = [];
  content.forEach((block: { type?: unknown; text?: unknown; id?: unknown; name?: unknown; input?: unknown }, i) => {
    if (block?.type === 'text' && typeof block.text === 'string') text.push(block.text);
    else if (block?.type === 'tool_use') {
      if (typeof block.name !== 'string' || typeof block.id !== 'string')
        throw invalidResponse('anthropic', `content[${i}] tool_use lacks id or name`);
      const input = typeof block.input === 'object' && block.input !== null && !Array.isArray(block.input) ? block.input : {};
      toolCalls.push({ id: block.id, name: block.name, input: input as Record<string, unknown> });
    }
  });
  const { usage, stop_reason: stop } = body as { usage?: { input_tokens?: unknown; output_tokens?: unknown }; stop_reason?: unknown };
  const stopReason = typeof stop === 'string' ? stop : toolCalls.length ? 'tool_use' : 'end_turn';
  return {
    text: text.join(''),
    toolCalls,
    usage: {
      inputTokens: typeof usage?.input_tokens === 'number' ? usage.input_tokens : 0,
      outputTokens: typeof usage?.output_tokens === 'number' ? usage.output_tokens : 0,
    },
    stopReason: STOP_REASONS[stopReason] ?? stopReason,
  };
}

export class AnthropicProvider extends HttpProvider<AnthropicProviderOptions> {
  constructor(options: AnthropicProviderOptions) {
    super('anthropic', options, ANTHROPIC_DEFAULT_BASE_URL, '/v1/messages');
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    const { system, messages } = toAnthropicMessages(request.messages);
    const body: Record<string, unknown> = {
      model: this.model,
      max_tokens: request.maxTokens ?? this.options.defaultMaxTokens ?? 4096,
      messages,
    };
    if (system !== undefined) body.system = system;
    if (request.tools?.length) {
      body.tools = request.tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema }));
    }
    const auth: Record<string, string> = this.options.apiKey ? { 'x-api-key': this.options.apiKey } : {};
    return parseAnthropicResponse(await this.post({ 'anthropic-version': ANTHROPIC_VERSION, ...auth }, body, request.signal));
  }
}
