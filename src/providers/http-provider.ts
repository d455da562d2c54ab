import { DEFAULT_TIMEOUT_MS, joinUrl, postJson } from './http.js';
import type { ModelProvider, ModelRequest, ModelResponse } from './types.js';
import { ProviderOptionError } from './errors.js';

/** What every HTTP provider is configured with. */
export interface HttpProviderOptions {
  model: string;
  apiKey?: string;
  /** The API's base URL; each provider documents its default and the path it adds. */
  baseUrl?: string;
  timeoutMs?: number;
  maxRetries?: number;
  /** Extra headers (an organisation id, a proxy's auth, ...). */
  headers?: Record<string, string>;
}

/**
 * The part of an HTTP provider that does not depend on the API's wire format:
 * the model, the endpoint, and one POST with timeout, signal and retries.
 */
export abstract class HttpProvider<O extends HttpProviderOptions = HttpProviderOptions> implements ModelProvider {
  readonly model: string;
  private readonly url: string;

  constructor(
    readonly name: string,
    protected readonly options: O,
    defaultBaseUrl: string,
    endpoint: string,
  ) {
    if (typeof options.model !== 'string' || options.model === '')
      throw new ProviderOptionError(`${name} provider: \`model\` must be a non-empty string`);
    this.model = options.model;
    this.url = joinUrl(options.baseUrl ?? defaultBaseUrl, endpoint);
  }

  abstract complete(request: ModelRequest): Promise<ModelResponse>;

  /** POST the API's body with the API's auth headers (plus the configured extras). */
  protected post(authHeaders: Record<string, string>, body: unknown, signal: AbortSignal | undefined): Promise<unknown> {
    return postJson({
      provider: this.name,
      url: this.url,
      headers: { ...this.options.headers, ...authHeaders },
      body,
      timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      signal,
      maxRetries: this.options.maxRetries,
    });
  }
}
