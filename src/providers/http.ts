import { ModelError } from './types.js';

/**
 * The one HTTP call every HTTP provider makes: POST JSON, get JSON, with a
 * timeout, the caller's AbortSignal, typed ModelErrors and optional retries.
 */
export interface PostJsonOptions {
  /** Names the provider in error messages ("openai", "anthropic"). */
  provider: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Retries on 429, 5xx and network errors. Default 0: a ModelError carries retryAfterMs for the caller. */
  maxRetries?: number;
  /** Longest wait between retries; a longer Retry-After is not waited for (the error is thrown). Default 60 s. */
  maxRetryDelayMs?: number;
}

export const DEFAULT_TIMEOUT_MS = 60_000;

/** `Retry-After` in seconds or as an HTTP date; OpenAI also sends `retry-after-ms`. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.round(seconds * 1000));
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The server's own words: `{error: {message}}` (OpenAI, Anthropic), `{error: "..."}`, `{message}`, or the body text. */
function serverMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    const error = body.error as { message?: unknown; type?: unknown } | string | undefined;
    if (typeof error === 'string') return error;
    if (error && typeof error.message === 'string')
      return typeof error.type === 'string' ? `${error.type}: ${error.message}` : error.message;
    if (typeof body.message === 'string') return body.message;
  } catch {
    // Not JSON: the text itself says what went wrong.
  }
  const flat = text.trim().replace(/\s+/g, ' ');
  return flat.length > 300 ? `${flat.slice(0, 300)}...` : flat;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ModelError('request aborted', 'aborted'));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ModelError('request aborted', 'aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

async function postOnce(o: PostJsonOptions): Promise<unknown> {
  const where = `${o.provider}: POST ${o.url}`;
  if (o.signal?.aborted) throw new ModelError(`${where}: aborted`, 'aborted');
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, o.timeoutMs);
  const onAbort = () => controller.abort();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  const failed = (error: unknown): ModelError => {
    if (timedOut) return new ModelError(`${where}: timed out after ${o.timeoutMs} ms`, 'timeout');
    if (o.signal?.aborted) return new ModelError(`${where}: aborted`, 'aborted');
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return new ModelError(`${where}: ${cause?.code ?? cause?.message ?? (error as Error).message}`, 'network');
  };
  try {
    let response: Response;
    let text: string;
    try {
      response = await fetch(o.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...o.headers },
        body: JSON.stringify(o.body),
        signal: controller.signal,
      });
      text = await response.text();
    } catch (error) {
      throw failed(error);
    }
    if (response.status === 429) {
      throw new ModelError(`${where}: rate limited (HTTP 429): ${serverMessage(text)}`, 'rate_limit', 429, retryAfterMs(response.headers));
    }
    if (!response.ok) {
      throw new ModelError(
        `${where}: HTTP ${response.status}: ${serverMessage(text)}`,
        'http',
        response.status,
        retryAfterMs(response.headers),
      );
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new ModelError(`${where}: response is not JSON: ${serverMessage(text)}`, 'invalid_response', response.status);
    }
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', onAbort);
  }
}

function retryable(error: ModelError): boolean {
  return error.kind === 'rate_limit' || error.kind === 'network' || (error.kind === 'http' && (error.status ?? 0) >= 500);
}

export async function postJson(o: PostJsonOptions): Promise<unknown> {
  const maxRetries = o.maxRetries ?? 0;
  const maxDelay = o.maxRetryDelayMs ?? 60_000;
  for (let attempt = 0; ; attempt++) {
    try {
      return await postOnce(o);
    } catch (error) {
      if (!(error instanceof ModelError) || attempt >= maxRetries || !retryable(error)) throw error;
      const delay = error.retryAfterMs ?? Math.min(500 * 2 ** attempt, 8000);
      if (delay > maxDelay) throw error;
      await sleep(delay, o.signal);
    }
  }
}

/** A field the response must have; its absence is an invalid response, not a crash. */
export function invalidResponse(provider: string, what: string): ModelError {
  return new ModelError(`${provider}: invalid response: ${what}`, 'invalid_response');
}

export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}
