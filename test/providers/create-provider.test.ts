import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicProvider } from '../../src/providers/anthropic.js';
import { createProvider } from '../../src/providers/index.js';
import { OpenAIProvider } from '../../src/providers/openai.js';
import { json, WireServer } from './wire-server.js';

const openai = new WireServer(
  json(200, {
    choices: [{ index: 0, message: { role: 'assistant', content: 'from openai' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1, completion_tokens: 2 },
  }),
);
const anthropic = new WireServer(
  json(200, {
    type: 'message',
    role: 'assistant',
    content: [{ type: 'text', text: 'from anthropic' }],
    stop_reason: 'end_turn',
    usage: { input_tokens: 3, output_tokens: 4 },
  }),
);
beforeAll(async () => {
  await openai.start();
  await anthropic.start();
});
afterAll(async () => {
  await openai.stop();
  await anthropic.stop();
});

describe('createProvider', () => {
  it('openai:<model> takes key and base URL from the environment', async () => {
    const p = createProvider('openai:gpt-4o-mini', {}, { OPENAI_API_KEY: 'sk-env', OPENAI_BASE_URL: `${openai.url}/v1/` });
    expect(p).toBeInstanceOf(OpenAIProvider);
    expect([p.name, p.model]).toEqual(['openai', 'gpt-4o-mini']);
    expect((await p.complete({ messages: [{ role: 'user', content: 'x' }] })).text).toBe('from openai');
    expect(openai.requests[0]).toMatchObject({ path: '/v1/chat/completions' });
    expect(openai.requests[0]!.headers.authorization).toBe('Bearer sk-env');
  });

  it('anthropic:<model> takes key and base URL from the environment; options win over it', async () => {
    const p = createProvider(
      'anthropic:claude-haiku-4-5',
      { apiKey: 'sk-opt' },
      { ANTHROPIC_API_KEY: 'sk-env', ANTHROPIC_BASE_URL: anthropic.url },
    );
    expect(p).toBeInstanceOf(AnthropicProvider);
    const response = await p.complete({ messages: [{ role: 'user', content: 'x' }] });
    expect(response).toMatchObject({ text: 'from anthropic', usage: { inputTokens: 3, outputTokens: 4 } });
    expect(anthropic.requests[0]!.headers['x-api-key']).toBe('sk-opt');
    expect((anthropic.requests[0]!.body as { model: string }).model).toBe('claude-haiku-4-5');
  });

  it('a model name may contain colons', () => {
    expect(createProvider('openai:llama3.1:8b', {}, {}).model).toBe('llama3.1:8b');
  });

  it('an unknown or incomplete spec is a clear error', () => {
    const message = (spec: string) =>
      `invalid model provider "${spec}"; expected "openai:<model>" or "anthropic:<model>" (e.g. "anthropic:claude-haiku-4-5")`;
    for (const spec of ['gemini:pro', 'openai:', 'gpt-4o', '']) expect(() => createProvider(spec, {}, {})).toThrow(message(spec));
  });
});
