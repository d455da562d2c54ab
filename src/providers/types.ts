import { HookwiseError } from '../core/errors.js';
/**
 * The one interface every model provider implements: prompt hooks judge with it,
 * the runtime drives agents with it. Messages are provider-neutral.
 */
export interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError?: boolean };

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the tool's input. */
  inputSchema: Record<string, unknown>;
}

export interface ModelRequest {
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  maxTokens?: number;
  signal?: AbortSignal;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ModelResponse {
  text: string;
  toolCalls: ToolCall[];
  usage: TokenUsage;
  /** 'end' | 'tool_use' | 'max_tokens' or the provider's own word. */
  stopReason: string;
}

export interface ModelProvider {
  /** e.g. "openai", "anthropic", "scripted". */
  readonly name: string;
  readonly model: string;
  complete(request: ModelRequest): Promise<ModelResponse>;
}

export type ModelErrorKind = 'rate_limit' | 'timeout' | 'http' | 'network' | 'invalid_response' | 'aborted';

/** A provider failure the caller can act on: a rate limit carries the delay the server asked for. */
export class ModelError extends HookwiseError {
  override readonly code = 'MODEL';
  constructor(
    message: string,
    readonly kind: ModelErrorKind,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}
