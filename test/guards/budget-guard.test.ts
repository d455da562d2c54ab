import { describe, expect, it } from 'vitest';
import { HookEngine } from '../../src/core/engine.js';
import { budgetGuard, tokensOf } from '../../src/guards/index.js';

describe('budgetGuard through engine.fire', () => {
  it('sums usage in every provider shape and stops over the token budget', async () => {
    const engine = new HookEngine().register(budgetGuard({ maxTokens: 1000 }));
    const s = { session_id: 's1' };
    expect((await engine.fire('PostModelCall', { ...s, usage: { input_tokens: 300, output_tokens: 100 } })).stop).toBe(false);
    expect((await engine.fire('PostModelCall', { ...s, usage: { inputTokens: 200, outputTokens: 100 } })).stop).toBe(false);
    const over = await engine.fire('PostModelCall', { ...s, usage: { prompt_tokens: 250, completion_tokens: 51, total_tokens: 301 } });
    expect(over.stop).toBe(true);
    expect(over.stopReason).toBe('token budget exceeded: 1,001 tokens used this session, limit 1,000');
  });

  it('counts tokens per session', async () => {
    const engine = new HookEngine().register(budgetGuard({ maxTokens: 100 }));
    const a = await engine.fire('PostModelCall', { session_id: 'a', usage: { input_tokens: 101 } });
    const b = await engine.fire('PostModelCall', { session_id: 'b', usage: { input_tokens: 99 } });
    expect(a.stop).toBe(true);
    expect(a.stopReason).toBe('token budget exceeded: 101 tokens used this session, limit 100');
    expect(b.stop).toBe(false);
  });

  it('limits tool calls per session and per tool', async () => {
    const engine = new HookEngine().register(budgetGuard({ maxToolCalls: 3, maxCallsPerTool: { Bash: 1 } }));
    const call = (tool: string) => engine.fire('PreToolUse', { session_id: 't', tool_name: tool, tool_input: {} });
    expect((await call('Bash')).stop).toBe(false);
    const second = await call('Bash');
    expect(second.stop).toBe(true);
    expect(second.stopReason).toBe('tool-call budget exceeded for Bash: this would be call 2 of the session, limit 1');
    expect((await call('Read')).stop).toBe(false);
    const fourth = await call('Read');
    expect(fourth.stopReason).toBe('tool-call budget exceeded: this would be tool call 4 of the session, limit 3');
  });

  it('stops after the wall-clock budget, measured from the first event seen', async () => {
    let now = 1_000_000;
    const engine = new HookEngine().register(budgetGuard({ maxWallClockMs: 60_000, now: () => now }));
    expect((await engine.fire('UserPromptSubmit', { session_id: 'w', prompt: 'hi' })).stop).toBe(false);
    now += 59_000;
    expect((await engine.fire('PreToolUse', { session_id: 'w', tool_name: 'Bash' })).stop).toBe(false);
    now += 2_000;
    const late = await engine.fire('PreModelCall', { session_id: 'w' });
    expect(late.stop).toBe(true);
    expect(late.stopReason).toBe('time budget exceeded: this session has run 61 s, limit 60 s');
  });

  it('answers a rate-limited model call with retry after the delay the provider asked for', async () => {
    const engine = new HookEngine().register(budgetGuard({ maxTokens: 10 }));
    const out = await engine.fire('PostModelCall', {
      session_id: 'r',
      error: { type: 'rate_limit', message: '429 Too Many Requests', retry_after_ms: 2500 },
    });
    expect(out.retry).toEqual({ delayMs: 2500 });
    expect(out.stop).toBe(false);
    const noDelay = await engine.fire('PostModelCall', { session_id: 'r', error: { type: 'rate_limit', message: 'slow down' } });
    expect(noDelay.retry).toEqual({ delayMs: 1000 });
    const other = await engine.fire('PostModelCall', { session_id: 'r', error: { type: 'server_error' } });
    expect(other.retry).toBeNull();
  });

  it('reads usage shapes and validates limits', () => {
    expect(tokensOf({ input_tokens: 1, output_tokens: 2 })).toBe(3);
    expect(tokensOf({ inputTokens: 4, outputTokens: 5 })).toBe(9);
    expect(tokensOf({ prompt_tokens: 1, completion_tokens: 1, total_tokens: 7 })).toBe(7);
    expect(tokensOf(undefined)).toBe(0);
    expect(() => budgetGuard({ maxTokens: -1 })).toThrow(/maxTokens must be a positive number/);
    expect(() => budgetGuard({ maxCallsPerTool: { Bash: 0 } })).toThrow(/maxCallsPerTool.Bash/);
  });
});
