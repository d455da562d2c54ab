import { AnthropicProvider } from './anthropic.js';
import { OpenAIProvider } from './openai.js';
import type { ModelProvider } from './types.js';

export * from './types.js';
export { OpenAIProvider, parseOpenAIResponse, OPENAI_DEFAULT_BASE_URL, type OpenAIProviderOptions } from './openai.js';
export {
  AnthropicProvider,
  parseAnthropicResponse,
  toAnthropicMessages,
  ANTHROPIC_DEFAULT_BASE_URL,
  ANTHROPIC_VERSION,
  type AnthropicProviderOptions,
} from './anthropic.js';
import { ProviderOptionError } from './errors.js';
export { postJson, retryAfterMs, DEFAULT_TIMEOUT_MS, type PostJsonOptions } from './http.js';
export { HttpProvider, type HttpProviderOptions } from './http-provider.js';

export interface CreateProviderOptions {
  baseUrl?: string;
  apiKey?: string;
  timeoutMs?: number;
  maxRetries?: number;
}

const nonEmpty = (value: string | undefined): string | undefined => (value ? value : undefined);

/**
 * A provider from a spec string: `openai:<model>` (any OpenAI-compatible server)
 * or `anthropic:<model>`. Keys come from OPENAI_API_KEY / ANTHROPIC_API_KEY and
 * base URLs from OPENAI_BASE_URL / ANTHROPIC_BASE_URL unless given.
 */
export function createProvider(spec: string, opts: CreateProviderOptions = {}, env: NodeJS.ProcessEnv = process.env): ModelProvider {
  const colon = typeof spec === 'string' ? spec.indexOf(':') : -1;
  const kind = colon > 0 ? spec.slice(0, colon) : '';
  const model = colon > 0 ? spec.slice(colon + 1).trim() : '';
  const shared = { model, timeoutMs: opts.timeoutMs, maxRetries: opts.maxRetries };
  if (model !== '' && kind === 'openai') {
    return new OpenAIProvider({
      ...shared,
      apiKey: opts.apiKey ?? nonEmpty(env.OPENAI_API_KEY),
      baseUrl: opts.baseUrl ?? nonEmpty(env.OPENAI_BASE_URL),
    });
  }
  if (model !== '' && kind === 'anthropic') {
    return new AnthropicProvider({
      ...shared,
      apiKey: opts.apiKey ?? nonEmpty(env.ANTHROPIC_API_KEY),
      baseUrl: opts.baseUrl ?? nonEmpty(env.ANTHROPIC_BASE_URL),
    });
  }
  throw new ProviderOptionError(
    `invalid model provider "${String(spec)}"; expected "openai:<model>" or "anthropic:<model>" (e.g. "anthropic:claude-haiku-4-5")`,
  );
}
