import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIProvider } from '../../src/providers/openai.js';
import { ModelError, type ChatMessage } from '../../src/providers/types.js';
import { json, WireServer } from './wire-server.js';

/** A chat.completion object as api.openai.com returns it. */
const completion = (
  message: Record<string, unknown>,
  finish: string,
  usage = { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
) => ({
  id: 'chatcmpl-abc123',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'gpt-4o-mini-2024-07-18',
  choices: [{ index: 0, message: { role: 'assistant', refusal: null, ...message }, logprobs: null, finish_reason: finish }],
  usage,
  system_fingerprint: 'fp_1',
});

const server = new WireServer(json(200, completion({ content: 'Hello!' }, 'stop')));
beforeAll(() => server.start());
afterAll(() => server.stop());
beforeEach(() => server.reset());

const provider = (options: Partial<ConstructorParameters<typeof OpenAIProvider>[0]> = {}) =>
  new OpenAIProvider({ model: 'gpt-4o-mini', apiKey: 'sk-test', baseUrl: `${server.url}/v1`, ...options });

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ModelError);
    return error as ModelError;
  }
  throw new Error('expected a ModelError');
}

describe('OpenAI-compatible provider', () => {
  it('POSTs {model, messages, max_tokens} to /chat/completions with a bearer key and reads text and usage', async () => {
    const response = await provider().complete({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
      maxTokens: 64,
    });
    expect(response).toEqual({ text: 'Hello!', toolCalls: [], usage: { inputTokens: 12, outputTokens: 5 }, stopReason: 'end' });
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(request!.headers.authorization).toBe('Bearer sk-test');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.body).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
      max_tokens: 64,
    });
  });

  it('sends tools as functions and reads tool calls with JSON-string arguments', async () => {
    server.next(
      json(
        200,
        completion(
          {
            content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris","unit":"c"}' } },
              { id: 'call_2', type: 'function', function: { name: 'now', arguments: '' } },
            ],
          },
          'tool_calls',
        ),
      ),
    );
    const schema = { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] };
    const response = await provider().complete({
      messages: [{ role: 'user', content: 'Weather?' }],
      tools: [{ name: 'get_weather', description: 'Current weather', inputSchema: schema }],
    });
    expect(response.toolCalls).toEqual([
      { id: 'call_1', name: 'get_weather', input: { location: 'Paris', unit: 'c' } },
      { id: 'call_2', name: 'now', input: {} },
    ]);
    expect(response.stopReason).toBe('tool_use');
    expect(response.text).toBe('');
    expect((server.requests[0]!.body as { tools: unknown }).tools).toEqual([
      { type: 'function', function: { name: 'get_weather', description: 'Current weather', parameters: schema } },
    ]);
  });

  it('sends earlier tool calls and their results in the wire format', async () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'get_weather', input: { location: 'Paris' } }] },
      { role: 'tool', toolCallId: 'call_1', name: 'get_weather', content: '18C, sunny' },
    ];
    await provider().complete({ messages });
    expect((server.requests[0]!.body as { messages: unknown }).messages).toEqual([
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '18C, sunny' },
    ]);
  });

  it('maps finish_reason length to max_tokens and omits Authorization without a key', async () => {
    server.next(json(200, completion({ content: 'Once upon' }, 'length')));
    const response = await provider({ apiKey: undefined }).complete({ messages: [{ role: 'user', content: 'story' }] });
    expect(response.stopReason).toBe('max_tokens');
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('429 with Retry-After in seconds is a rate_limit error with retryAfterMs', async () => {
    server.next(
      json(
        429,
        { error: { message: 'Rate limit reached for gpt-4o-mini', type: 'requests', code: 'rate_limit_exceeded' } },
        { 'retry-after': '7' },
      ),
    );
    const error = await failure(provider().complete({ messages: [{ role: 'user', content: 'x' }] }));
    expect(error).toMatchObject({ kind: 'rate_limit', status: 429, retryAfterMs: 7000 });
    expect(error.message).toBe(
      `openai: POST ${server.url}/v1/chat/completions: rate limited (HTTP 429): requests: Rate limit reached for gpt-4o-mini`,
    );
  });

  it('429 with Retry-After as an HTTP date', async () => {
    const at = new Date(Date.now() + 30_000).toUTCString();
    server.next(json(429, { error: { message: 'slow down' } }, { 'retry-after': at }));
    const error = await failure(provider().complete({ messages: [{ role: 'user', content: 'x' }] }));
    expect(error.kind).toBe('rate_limit');
    expect(error.retryAfterMs).toBeGreaterThan(25_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(30_000);
  });

  it('other statuses are http errors carrying the server message', async () => {
    server.next(
      json(401, {
        error: { message: 'Incorrect API key provided: sk-test.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' },
      }),
    );
    const error = await failure(provider().complete({ messages: [{ role: 'user', content: 'x' }] }));
    expect(error).toMatchObject({ kind: 'http', status: 401 });
    expect(error.message).toContain('HTTP 401: invalid_request_error: Incorrect API key provided: sk-test.');
  });

  it('a body that is not JSON, or lacks choices, is invalid_response', async () => {
    server.next(json(200, '<html>gateway</html>'));
    expect((await failure(provider().complete({ messages: [] }))).kind).toBe('invalid_response');
    server.next(json(200, { object: 'chat.completion', choices: [] }));
    const error = await failure(provider().complete({ messages: [] }));
    expect(error).toMatchObject({ kind: 'invalid_response', message: 'openai: invalid response: choices[0].message is missing' });
    server.next(
      json(
        200,
        completion(
          { content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{oops' } }] },
          'tool_calls',
        ),
      ),
    );
    expect((await failure(provider().complete({ messages: [] }))).message).toBe(
      'openai: invalid response: tool_calls[0] (f) arguments are not JSON: {oops',
    );
  });

  it('a server that does not answer in time is a timeout', async () => {
    server.next(server.hold());
    const error = await failure(provider({ timeoutMs: 200 }).complete({ messages: [{ role: 'user', content: 'x' }] }));
    expect(error).toMatchObject({ kind: 'timeout', message: `openai: POST ${server.url}/v1/chat/completions: timed out after 200 ms` });
  });

  it("the caller's signal aborts the request", async () => {
    server.next(server.hold());
    const controller = new AbortController();
    const pending = provider().complete({ messages: [{ role: 'user', content: 'x' }], signal: controller.signal });
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    expect((await failure(pending)).kind).toBe('aborted');
  });

  it('no server at all is a network error', async () => {
    const closed = await new WireServer(json(200, {})).start();
    await closed.stop();
    const error = await failure(new OpenAIProvider({ model: 'm', baseUrl: `${closed.url}/v1` }).complete({ messages: [] }));
    expect(error).toMatchObject({ kind: 'network', message: `openai: POST ${closed.url}/v1/chat/completions: ECONNREFUSED` });
  });

  it('with maxRetries it waits Retry-After and tries again', async () => {
    server.next(json(429, { error: { message: 'busy' } }, { 'retry-after': '0' }));
    server.next(json(503, { error: { message: 'overloaded' } }, { 'retry-after-ms': '10' }));
    const response = await provider({ maxRetries: 2 }).complete({ messages: [{ role: 'user', content: 'x' }] });
    expect(response.text).toBe('Hello!');
    expect(server.requests).toHaveLength(3);
  });

  it('without retries the first 429 is thrown', async () => {
    server.next(json(429, { error: { message: 'busy' } }, { 'retry-after': '0' }));
    expect((await failure(provider().complete({ messages: [] }))).kind).toBe('rate_limit');
    expect(server.requests).toHaveLength(1);
  });
});
