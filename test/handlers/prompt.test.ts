import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HookEngine } from '../../src/core/engine.js';
import { fillPrompt, promptHandler } from '../../src/handlers/prompt.js';
import { readVerdict } from '../../src/handlers/verdict-text.js';
import { createProvider } from '../../src/providers/index.js';
import { json, WireServer, type Reply } from '../providers/wire-server.js';

const openaiSays = (content: string): Reply =>
  json(200, {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 40, completion_tokens: 6 },
  });
const anthropicSays = (text: string): Reply =>
  json(200, {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    usage: { input_tokens: 40, output_tokens: 6 },
  });

const openai = new WireServer(openaiSays('{"ok": true}'));
const anthropic = new WireServer(anthropicSays('{"ok": true}'));
beforeAll(async () => {
  await openai.start();
  await anthropic.start();
});
afterAll(async () => {
  await openai.stop();
  await anthropic.stop();
});
beforeEach(() => {
  openai.reset();
  anthropic.reset();
});

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const TEMPLATE = 'Is this {event} safe? Step {stepName}. Tool: {toolName}, Args: {toolArgs}. Reply ALLOW or DENY.';
const INPUT = { session_id: 's1', step_name: 'Agent', tool_name: 'run_query', tool_input: { sql: 'DROP TABLE users' } };

function engineWith(
  provider: ReturnType<typeof createProvider>,
  prompt = TEMPLATE,
  onError: 'block' | 'continue' = 'continue',
): HookEngine {
  const engine = new HookEngine({ logger: silent });
  engine.register({
    name: 'judge',
    events: ['PreToolUse', 'UserPromptSubmit', 'Stop'],
    onError,
    handler: promptHandler({ prompt, provider }),
  });
  return engine;
}

const viaOpenAI = () => createProvider('openai:gpt-4o-mini', { baseUrl: `${openai.url}/v1`, apiKey: 'k' });
const viaAnthropic = () => createProvider('anthropic:claude-haiku-4-5', { baseUrl: anthropic.url, apiKey: 'k' });

describe('prompt hook through a real OpenAI-compatible endpoint', () => {
  it('fills the template, asks without tools, and denies on {"ok": false}', async () => {
    openai.next(openaiSays('{"ok": false, "reason": "drops a production table"}'));
    const o = await engineWith(viaOpenAI()).fire('PreToolUse', INPUT);
    expect(o).toMatchObject({ blocked: true, decision: 'deny', reason: 'drops a production table' });
    expect(o.hooks[0]).toMatchObject({
      status: 'ok',
      result: 'deny',
      model: 'openai:gpt-4o-mini',
      usage: { inputTokens: 40, outputTokens: 6 },
    });
    const body = openai.requests[0]!.body as { messages: Array<{ role: string; content: string }>; tools?: unknown };
    expect(body.tools).toBeUndefined();
    expect(body.messages[0]!.role).toBe('system');
    expect(body.messages[1]).toEqual({
      role: 'user',
      content: 'Is this PreToolUse safe? Step Agent. Tool: run_query, Args: {"sql":"DROP TABLE users"}. Reply ALLOW or DENY.',
    });
  });

  it('allows on a leading ALLOW word', async () => {
    openai.next(openaiSays('ALLOW - read-only query'));
    const o = await engineWith(viaOpenAI()).fire('PreToolUse', INPUT);
    expect(o).toMatchObject({ blocked: false, decision: 'allow', reason: 'read-only query' });
  });

  it('a deny off a permission event is a block (Stop keeps the agent going)', async () => {
    openai.next(openaiSays('```json\n{"decision": "block", "reason": "tests not run"}\n```'));
    const o = await engineWith(viaOpenAI()).fire('Stop', { session_id: 's1' });
    expect(o).toMatchObject({ blocked: true, decision: null, reason: 'tests not run', stop: false });
  });

  it('no verdict is a failure (fail-closed under onError block)', async () => {
    openai.next(openaiSays('I am not sure what you want me to do.'));
    const o = await engineWith(viaOpenAI(), TEMPLATE, 'block').fire('PreToolUse', INPUT);
    expect(o).toMatchObject({
      blocked: true,
      reason: `hook judge failed: prompt hook: no verdict in the model's answer: "I am not sure what you want me to do."`,
    });
  });

  it('a provider error is a failure (non-blocking by default here)', async () => {
    openai.next(json(429, { error: { message: 'slow down' } }, { 'retry-after': '2' }));
    const o = await engineWith(viaOpenAI()).fire('PreToolUse', INPUT);
    expect(o.blocked).toBe(false);
    expect(o.hooks[0]).toMatchObject({ status: 'error' });
    expect(o.hooks[0]!.error).toContain('rate limited (HTTP 429): slow down');
  });

  it('$ARGUMENTS is the input JSON', async () => {
    await engineWith(viaOpenAI(), 'Judge: $ARGUMENTS').fire('UserPromptSubmit', { session_id: 's1', prompt: 'rm everything' });
    const content = (openai.requests[0]!.body as { messages: Array<{ content: string }> }).messages[1]!.content;
    expect(content.startsWith('Judge: ')).toBe(true);
    expect(JSON.parse(content.slice('Judge: '.length))).toEqual({
      session_id: 's1',
      prompt: 'rm everything',
      hook_event_name: 'UserPromptSubmit',
    });
  });
});

describe('prompt hook through a real Anthropic Messages endpoint', () => {
  it('denies with the reason the model gives in prose around JSON', async () => {
    anthropic.next(anthropicSays('Looking at this call:\n{"ok": false, "reason": "irreversible"}\nThat is my verdict.'));
    const o = await engineWith(viaAnthropic()).fire('PreToolUse', INPUT);
    expect(o).toMatchObject({ blocked: true, decision: 'deny', reason: 'irreversible' });
    const body = anthropic.requests[0]!.body as { system: string; messages: unknown[]; tools?: unknown; max_tokens: number };
    expect(typeof body.system).toBe('string');
    expect(body.tools).toBeUndefined();
    expect(body.max_tokens).toBe(512);
  });
});

describe('readVerdict', () => {
  it.each([
    ['{"ok": true}', { allow: true }],
    ['{"ok": false, "reason": "bad"}', { allow: false, reason: 'bad' }],
    ['{"decision": "deny", "reason": "r"}', { allow: false, reason: 'r' }],
    ['{"decision": "approve"}', { allow: true }],
    ['Sure.\n```json\n{"ok": false, "reason": "fenced"}\n```', { allow: false, reason: 'fenced' }],
    ['Verdict follows {"decision": "block", "reason": "has {braces} inside"} done', { allow: false, reason: 'has {braces} inside' }],
    ['DENY: deletes data', { allow: false, reason: 'deletes data' }],
    ['deny', { allow: false }],
    ['Allowed. It only reads.', { allow: true, reason: 'It only reads.' }],
    ['**APPROVE** - harmless', { allow: true, reason: 'harmless' }],
    ['Rejected', { allow: false }],
    ['Blocked: secrets in args', { allow: false, reason: 'secrets in args' }],
    ['Verdict: DENY because of rm', { allow: false, reason: 'because of rm' }],
  ])('%s', (text, expected) => {
    expect(readVerdict(text)).toEqual({ reason: undefined, ...expected });
  });

  it.each([
    'unblocked, go ahead',
    'Disallow nothing',
    'allowing this would be fine',
    'I would deny this',
    '',
    '{"reason": "no verdict field"}',
    'blockade',
  ])('no verdict: %s', (text) => {
    expect(readVerdict(text)).toBeUndefined();
  });
});

describe('fillPrompt', () => {
  it('expands each placeholder once, never inside a substituted value', () => {
    const input = { hook_event_name: 'PreToolUse', tool_name: '{event}', tool_input: { q: '$ARGUMENTS' } };
    expect(fillPrompt('{toolName} {toolArgs} {stepName}|', input, 'PreToolUse')).toBe('{event} {"q":"$ARGUMENTS"} |');
  });

  it('appends the input when the template has no placeholder', () => {
    expect(fillPrompt('Is it safe?', { prompt: 'x' }, 'UserPromptSubmit')).toBe('Is it safe?\n\nEvent input:\n{"prompt":"x"}');
  });

  it('validates its options', () => {
    expect(() => promptHandler({ prompt: '', provider: viaOpenAI() })).toThrow('prompt hook: `prompt` must be a non-empty string');
    expect(() => promptHandler({ prompt: 'x', provider: undefined as never })).toThrow('prompt hook: `provider` must be a ModelProvider');
  });
});
