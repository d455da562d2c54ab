import { canonicalEvent } from '../compat/event-aliases.js';
import type { HookHandler } from '../core/spec.js';
import { capReasons } from './cap-reason.js';
import { CappedBuffer } from './capped-buffer.js';
import { DEFAULT_OUTPUT_LIMIT_BYTES } from './command.js';
import { interpolateEnv } from './interpolate-env.js';
import { InvalidHookOutputError, readHttpBody } from './protocols/claude-code.js';
import type { HttpHandlerOptions } from './types.js';
import { urlAllowed } from './url-allowlist.js';
import { HandlerOptionError, HookFailedError } from './errors.js';
import { AbortedError } from '../core/errors.js';

function parseUrl(url: unknown): URL {
  if (typeof url !== 'string' || url === '') throw new HandlerOptionError('http hook: `url` must be a non-empty string');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new HandlerOptionError(`http hook: invalid url "${url}"; expected an absolute http(s) URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new HandlerOptionError(`http hook: url "${url}" must use http or https, not ${parsed.protocol}`);
  }
  return parsed;
}

function networkError(url: string, error: unknown): Error {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const why = cause?.code ?? cause?.message ?? (error as Error).message;
  return new HookFailedError(`POST ${url} failed: ${why}`);
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

const MAX_REDIRECTS = 5;

/**
 * POST, following redirects by hand: fetch's own following would re-send the headers
 * (an interpolated secret among them) to wherever a server points. A redirect is
 * followed only to a URL in `allowedUrls`, or without an allowlist to the same
 * origin; anything else is a failure and nothing is sent there.
 */
async function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
  allowedUrls: readonly string[] | undefined,
): Promise<Response> {
  let target = url;
  for (let hop = 0; ; hop++) {
    let response: Response;
    try {
      response = await fetch(target, { method: 'POST', headers, body, signal, redirect: 'manual' });
    } catch (error) {
      if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new AbortedError('aborted');
      throw networkError(target, error);
    }
    const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
    if (location === null) return response;
    await response.body?.cancel();
    const next = new URL(location, target).href;
    const allowed = allowedUrls !== undefined ? urlAllowed(next, allowedUrls) : new URL(next).origin === new URL(url).origin;
    if (!allowed) {
      throw new HookFailedError(
        `POST ${url} was redirected to ${next}, ${allowedUrls !== undefined ? 'which is not in allowedUrls' : 'another origin'}; not followed`,
      );
    }
    if (hop + 1 >= MAX_REDIRECTS) throw new HookFailedError(`POST ${url}: more than ${MAX_REDIRECTS} redirects`);
    target = next;
  }
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
      throw new HandlerOptionError(`http hook url ${options.url} is not in allowedUrls (${options.allowedUrls.join(', ') || 'empty'})`);
    }
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    for (const [name, value] of headerTemplates) headers[name] = interpolateEnv(value, allowedEnvVars);
    const response = await post(url, headers, JSON.stringify(input), ctx.signal, options.allowedUrls);
    const body = await readCapped(response, DEFAULT_OUTPUT_LIMIT_BYTES);
    ctx.annotate(body.truncated ? { httpStatus: response.status, truncated: true } : { httpStatus: response.status });
    if (response.status < 200 || response.status > 299) {
      const detail = body.text.trim().split('\n')[0]?.slice(0, 300);
      throw new HookFailedError(`POST ${url} answered HTTP ${response.status}${detail ? `: ${detail}` : ''}`);
    }
    const event = canonicalEvent(typeof input.hook_event_name === 'string' ? input.hook_event_name : '');
    if (body.truncated)
      throw new InvalidHookOutputError(
        `POST ${url} answered more than ${DEFAULT_OUTPUT_LIMIT_BYTES} bytes; the answer was cut and cannot be read`,
      );
    return capReasons(readHttpBody(body.text, event, input));
  };
}
