import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicProvider } from '../../src/providers/anthropic.js';
import { ModelError, type ChatMessage } from '../../src/providers/types.js';
import { json, WireServer } from './wire-server.js';

/** A Message object as api.anthropic.com returns it. */
const message = (content: unknown[], stopReason: string, usage = { input_tokens: 25, output_tokens: 11 }) => ({
  id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
  type: 'message',
  role: 'assistant',
  model: 'claude-haiku-4-5',
  content,
  stop_reason: stopReason,
  stop_sequence: null,
  usage: { cache_creation_input_tokens: 0, cache_read_input_tokens: 0, ...usage },
});

const server = new WireServer(json(200, message([{ type: 'text', text: 'Hello!' }], 'end_turn')));
beforeAll(() => server.start());
afterAll(() => server.stop());
beforeEach(() => server.reset());

const provider = (options: Partial<ConstructorParameters<typeof AnthropicProvider>[0]> = {}) =>
  new AnthropicProvider({ model: 'claude-haiku-4-5', apiKey: 'sk-ant-test', baseUrl: server.url, ...options });

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ModelError);
    return error as ModelError;
  }
  throw new Error('expected a ModelError');
}

describe('Anthropic Messages provider', () => {
  it('POSTs to /v1/messages with x-api-key and anthropic-version, system as a top-level field', async () => {
    const response = await provider().complete({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
      maxTokens: 100,
    });
    expect(response).toEqual({ text: 'Hello!', toolCalls: [], usage: { inputTokens: 25, outputTokens: 11 }, stopReason: 'end' });
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/messages' });
    expect(request!.headers).toMatchObject({
      'x-api-key': 'sk-ant-test',
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
    });
    expect(request!.headers.authorization).toBeUndefined();
    expect(request!.body).toEqual({
      model: 'claude-haiku-4-5',
      max_tokens: 100,
      system: 'Be brief.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello' }] }],
    });
  });

  it('max_tokens is always sent (the API requires it)', async () => {
    await provider().complete({ messages: [{ role: 'user', content: 'x' }] });
    expect((server.requests[0]!.body as { max_tokens: number }).max_tokens).toBe(4096);
    expect(server.requests[0]!.body).not.toHaveProperty('system');
  });

  it('sends tools with input_schema and reads text plus tool_use blocks', async () => {
    server.next(
      json(
        200,
        message(
          [
            { type: 'text', text: 'Let me check.' },
            { type: 'tool_use', id: 'toolu_01A', name: 'get_weather', input: { location: 'Paris' } },
          ],
          'tool_use',
        ),
      ),
    );
    const schema = { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] };
    const response = await provider().complete({
      messages: [{ role: 'user', content: 'Weather?' }],
      tools: [{ name: 'get_weather', description: 'Current weather', inputSchema: schema }],
    });
    expect(response).toEqual({
      text: 'Let me check.',
      toolCalls: [{ id: 'toolu_01A', name: 'get_weather', input: { location: 'Paris' } }],
      usage: { inputTokens: 25, outputTokens: 11 },
      stopReason: 'tool_use',
    });
    expect((server.requests[0]!.body as { tools: unknown }).tools).toEqual([
      { name: 'get_weather', description: 'Current weather', input_schema: schema },
    ]);
  });

  it('sends tool calls as tool_use blocks and their results as tool_result blocks in one user turn', async () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You are a weather bot.' },
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: 'Checking both.',
        toolCalls: [
          { id: 'toolu_1', name: 'get_weather', input: { location: 'Paris' } },
          { id: 'toolu_2', name: 'get_weather', input: { location: 'Rome' } },
        ],
      },
      { role: 'tool', toolCallId: 'toolu_1', name: 'get_weather', content: '18C' },
      { role: 'tool', toolCallId: 'toolu_2', name: 'get_weather', content: 'service down', isError: true },
      { role: 'system', content: 'Answer in one line.' },
    ];
    await provider().complete({ messages });
    const body = server.requests[0]!.body as { system: string; messages: unknown };
    expect(body.system).toBe('You are a weather bot.\n\nAnswer in one line.');
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking both.' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { location: 'Paris' } },
          { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { location: 'Rome' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '18C' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: 'service down', is_error: true },
        ],
      },
    ]);
  });

  it('maps stop_reason max_tokens', async () => {
    server.next(json(200, message([{ type: 'text', text: 'Once' }], 'max_tokens')));
    expect((await provider().complete({ messages: [{ role: 'user', content: 'x' }] })).stopReason).toBe('max_tokens');
  });

  it('429 with Retry-After is a rate_limit error carrying the delay and the server message', async () => {
    server.next(
      json(
        429,
        { type: 'error', error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' } },
        { 'retry-after': '12' },
      ),
    );
    const error = await failure(provider().complete({ messages: [{ role: 'user', content: 'x' }] }));
    expect(error).toMatchObject({ kind: 'rate_limit', status: 429, retryAfterMs: 12_000 });
    expect(error.message).toContain('rate_limit_error: Number of request tokens has exceeded your per-minute rate limit');
  });

  it('529 overloaded is an http error with the status and the message', async () => {
    server.next(json(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }));
    const error = await failure(provider().complete({ messages: [{ role: 'user', content: 'x' }] }));
    expect(error).toMatchObject({ kind: 'http', status: 529 });
    expect(error.message).toBe(`anthropic: POST ${server.url}/v1/messages: HTTP 529: overloaded_error: Overloaded`);
  });

  it('invalid JSON and a response without content are invalid_response', async () => {
    server.next(json(200, 'not json'));
    expect((await failure(provider().complete({ messages: [] }))).kind).toBe('invalid_response');
    server.next(json(200, { type: 'message' }));
    expect((await failure(provider().complete({ messages: [] }))).message).toBe('anthropic: invalid response: content is missing');
  });

  it('times out', async () => {
    server.next(server.hold());
    expect((await failure(provider({ timeoutMs: 150 }).complete({ messages: [] }))).kind).toBe('timeout');
  });
});
