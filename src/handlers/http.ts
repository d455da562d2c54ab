import { canonicalEvent } from '../core/events.js';
import type { HookHandler } from '../core/spec.js';
import { CappedBuffer } from './capped-buffer.js';
import { DEFAULT_OUTPUT_LIMIT_BYTES } from './command.js';
import { interpolateEnv } from './interpolate-env.js';
import { readHttpBody } from './protocols/claude-code.js';
import type { HttpHandlerOptions } from './types.js';
import { urlAllowed } from './url-allowlist.js';

function parseUrl(url: unknown): URL {
  if (typeof url !== 'string' || url === '') throw new TypeError('http hook: `url` must be a non-empty string');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`http hook: invalid url "${url}"; expected an absolute http(s) URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new TypeError(`http hook: url "${url}" must use http or https, not ${parsed.protocol}`);
  }
  return parsed;
}

function networkError(url: string, error: unknown): Error {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const why = cause?.code ?? cause?.message ?? (error as Error).message;
  return new Error(`POST ${url} failed: ${why}`);
}

async function readCapped(response: Response, limit: number): Promise<{ text: string; truncated: boolean }> {
  const buffer = new CappedBuffer(limit);
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer.push(Buffer.from(value));
      if (buffer.truncated) {
        await reader.cancel();
        break;
      }
    }
  }
  return { text: buffer.text(), truncated: buffer.truncated };
}

/**
 * A hook that POSTs the input JSON to an endpoint. A 2xx body is read like a
 * Claude Code command's stdout; any other status, or no connection, is a failure
 * (the hook's onError decides what that means).
 */
export function httpHandler(options: HttpHandlerOptions): HookHandler {
  const url = parseUrl(options.url).href;
  const allowedEnvVars = options.allowedEnvVars ?? [];
  const headerTemplates = Object.entries(options.headers ?? {});

  return async (input, ctx) => {
    if (options.allowedUrls !== undefined && !urlAllowed(options.url, options.allowedUrls) && !urlAllowed(url, options.allowedUrls)) {
      throw new Error(`http hook url ${options.url} is not in allowedUrls (${options.allowedUrls.join(', ') || 'empty'})`);
    }
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    for (const [name, value] of headerTemplates) headers[name] = interpolateEnv(value, allowedEnvVars);
    let response: Response;
    try {
      response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(input), signal: ctx.signal });
    } catch (error) {
      if (ctx.signal.aborted) throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error('aborted');
      throw networkError(url, error);
    }
    const body = await readCapped(response, DEFAULT_OUTPUT_LIMIT_BYTES);
    ctx.annotate(body.truncated ? { httpStatus: response.status, truncated: true } : { httpStatus: response.status });
    if (response.status < 200 || response.status > 299) {
      const detail = body.text.trim().split('\n')[0]?.slice(0, 300);
      throw new Error(`POST ${url} answered HTTP ${response.status}${detail ? `: ${detail}` : ''}`);
    }
    const event = canonicalEvent(typeof input.hook_event_name === 'string' ? input.hook_event_name : '');
    if (body.truncated) throw new Error(`POST ${url} answered more than ${DEFAULT_OUTPUT_LIMIT_BYTES} bytes; the answer was cut and cannot be read`);
    return readHttpBody(body.text, event, input);
  };
}
