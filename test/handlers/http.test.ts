import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HookEngine } from '../../src/index.js';
import { httpHandler } from '../../src/handlers/http.js';
import { interpolateEnv } from '../../src/handlers/interpolate-env.js';
import { urlAllowed } from '../../src/handlers/url-allowlist.js';
import { makeContext } from './helpers.js';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real hook endpoint: each path answers its own way; every request is recorded. */
let server: Server;
let base: string;
const received: Received[] = [];
const hanging: ServerResponse[] = [];

const routes: Record<string, (res: ServerResponse) => void> = {
  '/empty': (res) => res.writeHead(200).end(),
  '/deny': (res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'not on Fridays' },
      }),
    ),
  '/allow-spaced': (res) => res.writeHead(200).end('\n  {"decision":"approve","reason":"ok by policy"}'),
  '/text': (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('Deploy freeze until Monday.\n'),
  '/bad-json': (res) => res.writeHead(200).end('{"decision": '),
  '/created': (res) => res.writeHead(201).end(JSON.stringify({ systemMessage: 'logged' })),
  '/error': (res) => res.writeHead(503).end('policy service down\nmore'),
  '/deny-but-500': (res) => res.writeHead(500).end(JSON.stringify({ decision: 'block', reason: 'x' })),
  '/hang': (res) => hanging.push(res),
  '/redirect-in': (res) => res.writeHead(307, { location: '/deny' }).end(),
  '/redirect-out': (res) => res.writeHead(302, { location: `${elsewhere}/steal` }).end(),
  '/huge-reason': (res) => res.writeHead(200).end(JSON.stringify({ decision: 'block', reason: 'r'.repeat(100_000) })),
};

/** Another origin, the target of a redirect: every request it gets is recorded. */
let other: Server;
let elsewhere: string;
const stolen: Received[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      (routes[req.url!] ?? ((r: ServerResponse) => r.writeHead(404).end('no such route')))(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  other = createServer((req, res) => {
    stolen.push({ method: req.method!, url: req.url!, headers: req.headers, body: '' });
    res.writeHead(200).end(JSON.stringify({ decision: 'approve' }));
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  elsewhere = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  other.closeAllConnections();
  await new Promise((resolve) => other.close(resolve));
});

beforeEach(() => {
  received.length = 0;
});

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const INPUT = { session_id: 's1', cwd: '/repo', tool_name: 'Bash', tool_input: { command: 'deploy' } };

function engineWith(
  options: Parameters<typeof httpHandler>[0],
  onError: 'block' | 'continue' = 'continue',
  timeoutMs?: number,
): HookEngine {
  const engine = new HookEngine({ logger: silent });
  engine.register({
    name: 'web',
    events: ['PreToolUse', 'UserPromptSubmit', 'PostToolUse'],
    onError,
    timeoutMs,
    handler: httpHandler(options),
  });
  return engine;
}

describe('http hook', () => {
  it('POSTs the input JSON with content-type application/json', async () => {
    const o = await engineWith({ url: `${base}/empty` }).fire('PreToolUse', INPUT);
    expect(o).toMatchObject({ blocked: false, decision: null });
    expect(o.hooks[0]).toMatchObject({ status: 'ok', result: 'none', httpStatus: 200 });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/empty' });
    expect(received[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(received[0]!.body)).toEqual({ ...INPUT, hook_event_name: 'PreToolUse' });
  });

  it('a 2xx JSON body decides like a command hook stdout', async () => {
    const o = await engineWith({ url: `${base}/deny` }).fire('PreToolUse', INPUT);
    expect(o).toMatchObject({ blocked: true, decision: 'deny', reason: 'not on Fridays' });
    expect(o.hooks[0]).toMatchObject({ status: 'ok', result: 'deny' });
  });

  it('JSON after leading whitespace and any 2xx status are read', async () => {
    expect(await engineWith({ url: `${base}/allow-spaced` }).fire('PreToolUse', INPUT)).toMatchObject({
      decision: 'allow',
      reason: 'ok by policy',
    });
    expect(await engineWith({ url: `${base}/created` }).fire('PreToolUse', INPUT)).toMatchObject({ systemMessage: 'logged' });
  });

  it('a plain-text body is a non-blocking error: Claude Code wants JSON from HTTP hooks', async () => {
    const prompt = await engineWith({ url: `${base}/text` }).fire('UserPromptSubmit', { session_id: 's1', prompt: 'ship it' });
    expect(prompt).toMatchObject({ additionalContext: null, blocked: false });
    expect(prompt.hooks[0]).toMatchObject({ status: 'error', error: 'HTTP hook must return JSON, got: Deploy freeze until Monday.' });
    expect(await engineWith({ url: `${base}/text` }).fire('PreToolUse', INPUT)).toMatchObject({ additionalContext: null, decision: null });
  });

  it('a body that starts with { but is not JSON is a failure', async () => {
    const o = await engineWith({ url: `${base}/bad-json` }).fire('PreToolUse', INPUT);
    expect(o.blocked).toBe(false);
    expect(o.hooks[0]!.error).toMatch(/^HTTP hook must return JSON/);
  });

  it('a non-2xx status is a non-blocking failure, whatever the body says', async () => {
    const o = await engineWith({ url: `${base}/deny-but-500` }).fire('PreToolUse', INPUT);
    expect(o).toMatchObject({ blocked: false, decision: null });
    expect(o.hooks[0]).toMatchObject({
      status: 'error',
      error: `POST ${base}/deny-but-500 answered HTTP 500: {"decision":"block","reason":"x"}`,
    });
  });

  it('a non-2xx status fails closed under onError block', async () => {
    const o = await engineWith({ url: `${base}/error` }, 'block').fire('PreToolUse', INPUT);
    expect(o).toMatchObject({
      blocked: true,
      decision: 'deny',
      reason: `hook web failed: POST ${base}/error answered HTTP 503: policy service down`,
    });
  });

  it('a refused connection is a failure that names the URL', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const o = await engineWith({ url: `http://127.0.0.1:${port}/hook` }).fire('PreToolUse', INPUT);
    expect(o.hooks[0]).toMatchObject({ status: 'error', error: `POST http://127.0.0.1:${port}/hook failed: ECONNREFUSED` });
  });

  it('a server that never answers times out and the request is aborted', async () => {
    const o = await engineWith({ url: `${base}/hang` }, 'block', 300).fire('PreToolUse', INPUT);
    expect(o).toMatchObject({ blocked: true, reason: 'hook web failed: timed out after 300 ms' });
    expect(o.hooks[0]!.status).toBe('timeout');
  });

  it('headers interpolate only the variables listed in allowedEnvVars', async () => {
    process.env.HOOKWISE_TEST_TOKEN = 'tok-123';
    process.env.HOOKWISE_TEST_SECRET = 'do-not-leak';
    try {
      await engineWith({
        url: `${base}/empty`,
        headers: {
          Authorization: 'Bearer $HOOKWISE_TEST_TOKEN',
          'X-Braced': 'v=${HOOKWISE_TEST_TOKEN}!',
          'X-Secret': '[$HOOKWISE_TEST_SECRET][${HOOKWISE_TEST_SECRET}]',
        },
        allowedEnvVars: ['HOOKWISE_TEST_TOKEN'],
      }).fire('PreToolUse', INPUT);
    } finally {
      delete process.env.HOOKWISE_TEST_TOKEN;
      delete process.env.HOOKWISE_TEST_SECRET;
    }
    expect(received[0]!.headers).toMatchObject({ authorization: 'Bearer tok-123', 'x-braced': 'v=tok-123!', 'x-secret': '[][]' });
  });

  it('a URL outside allowedUrls is a failure naming the URL, and no request is made', async () => {
    const o = await engineWith({ url: `${base}/deny`, allowedUrls: ['https://hooks.example.com/'] }, 'block').fire('PreToolUse', INPUT);
    expect(o).toMatchObject({
      blocked: true,
      reason: `hook web failed: http hook url ${base}/deny is not in allowedUrls (https://hooks.example.com/)`,
    });
    expect(received).toHaveLength(0);
    const allowed = await engineWith({ url: `${base}/deny`, allowedUrls: [`${base}/`] }).fire('PreToolUse', INPUT);
    expect(allowed).toMatchObject({ blocked: true, reason: 'not on Fridays' });
  });

  it('a redirect outside allowedUrls (or, without one, to another origin) is not followed, and the secret header goes nowhere', async () => {
    process.env.HOOKWISE_TEST_TOKEN = 'sekrit';
    const headers = { Authorization: 'Bearer $HOOKWISE_TEST_TOKEN' };
    stolen.length = 0;
    const listed = await engineWith(
      { url: `${base}/redirect-out`, headers, allowedEnvVars: ['HOOKWISE_TEST_TOKEN'], allowedUrls: [`${base}/*`] },
      'block',
    ).fire('PreToolUse', INPUT);
    expect(listed).toMatchObject({
      blocked: true,
      reason: `hook web failed: POST ${base}/redirect-out was redirected to ${elsewhere}/steal, which is not in allowedUrls; not followed`,
    });
    const unlisted = await engineWith({ url: `${base}/redirect-out`, headers, allowedEnvVars: ['HOOKWISE_TEST_TOKEN'] }, 'block').fire(
      'PreToolUse',
      INPUT,
    );
    expect(unlisted.reason).toBe(
      `hook web failed: POST ${base}/redirect-out was redirected to ${elsewhere}/steal, another origin; not followed`,
    );
    expect(stolen).toEqual([]);
    delete process.env.HOOKWISE_TEST_TOKEN;
  });

  it('a redirect within the allowed URLs is followed with the same POST', async () => {
    const o = await engineWith({ url: `${base}/redirect-in`, allowedUrls: [`${base}/*`] }).fire('PreToolUse', INPUT);
    expect(o).toMatchObject({ blocked: true, decision: 'deny', reason: 'not on Fridays' });
    expect(received.map((r) => [r.method, r.url])).toEqual([
      ['POST', '/redirect-in'],
      ['POST', '/deny'],
    ]);
    expect(JSON.parse(received[1]!.body)).toMatchObject(INPUT);
  });

  it('a block reason is capped at a few KB and says it was cut', async () => {
    const o = await engineWith({ url: `${base}/huge-reason` }).fire('UserPromptSubmit', INPUT);
    expect(o.blocked).toBe(true);
    expect(o.reason!.length).toBeLessThan(5000);
    expect(o.reason).toMatch(/^r{4096}\.\.\. \[cut: \d+ more characters\]$/);
  });

  it('rejects an invalid URL when the hook is built', () => {
    expect(() => httpHandler({ url: 'not a url' })).toThrow('http hook: invalid url "not a url"; expected an absolute http(s) URL');
    expect(() => httpHandler({ url: 'file:///etc/passwd' })).toThrow(
      'http hook: url "file:///etc/passwd" must use http or https, not file:',
    );
  });

  it('annotates the status code on a direct call', async () => {
    const ctx = makeContext();
    await httpHandler({ url: `${base}/created` })({ hook_event_name: 'PostToolUse' }, ctx);
    expect(ctx.annotations).toEqual({ httpStatus: 201 });
  });
});

describe('interpolateEnv and urlAllowed', () => {
  it('replaces allowed names only; unknown ones become empty', () => {
    const env = { A: '1', B: '2' };
    expect(interpolateEnv('$A-${A}-$B-${B}-$C-$', ['A', 'C'], env)).toBe('1-1---' + '-$');
  });

  it('prefix entries do not let a look-alike host through', () => {
    expect(urlAllowed('https://example.com/hook', ['https://example.com'])).toBe(true);
    expect(urlAllowed('https://example.com:8443/hook', ['https://example.com'])).toBe(true);
    expect(urlAllowed('https://example.com.evil.net/hook', ['https://example.com'])).toBe(false);
    expect(urlAllowed('https://example.com/hooks/a', ['https://example.com/hooks/'])).toBe(true);
    expect(urlAllowed('https://example.com/other', ['https://example.com/hooks/'])).toBe(false);
    expect(urlAllowed('https://api.example.com/x', ['https://*.example.com'])).toBe(true);
    expect(urlAllowed('https://evil.net/x', ['https://*.example.com'])).toBe(false);
  });
});
