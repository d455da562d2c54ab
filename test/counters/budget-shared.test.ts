import { afterAll, describe, expect, it } from 'vitest';
import { HookEngine } from '../../src/core/engine.js';
import { MemoryCounterStore, RedisCounterStore, type CounterStore } from '../../src/counters/index.js';
import { budgetGuard } from '../../src/guards/index.js';
import { dropRedisPrefix, requireRedis, uniqueNamespace } from '../support/services.js';

const redis = await requireRedis();
const prefix = `${uniqueNamespace('budget')}:`;
const opened: CounterStore[] = [];
afterAll(async () => {
  for (const store of opened) await store.close();
  if (redis.url) await dropRedisPrefix(redis.url, prefix);
});

const call = (engine: HookEngine, session: string, tool = 'Bash', counters?: CounterStore) =>
  engine.fire('PreToolUse', { session_id: session, tool_name: tool, tool_input: { command: 'ls' } }, counters && { counters });

describe('budgetGuard with a counter store', () => {
  it('counts in the store it is given, with the same messages', async () => {
    const store = new MemoryCounterStore();
    const engine = new HookEngine().register(budgetGuard({ maxToolCalls: 2, maxCallsPerTool: { Read: 1 }, counters: store }));
    expect((await call(engine, 's')).stop).toBe(false);
    expect((await call(engine, 's', 'Read')).stop).toBe(false);
    const third = await call(engine, 's');
    expect(third.stopReason).toBe('tool-call budget exceeded: this would be tool call 3 of the session, limit 2');
    expect(await store.get('budget:guard:budget:s:toolCalls')).toBe(3);
    const other = new HookEngine().register(budgetGuard({ maxCallsPerTool: { Read: 1 }, counters: store }));
    expect((await call(other, 's', 'Read')).stopReason).toBe(
      'tool-call budget exceeded for Read: this would be call 2 of the session, limit 1',
    );
  });

  it('uses the store a host lends the fire when it was given none', async () => {
    const lent = new MemoryCounterStore();
    const engine = new HookEngine().register(budgetGuard({ maxToolCalls: 1 }));
    await call(engine, 'x', 'Bash', lent);
    expect(await lent.get('budget:guard:budget:x:toolCalls')).toBe(1);
    // A fresh engine lent the same store sees the count: the limit is the store's, not the engine's.
    const fresh = new HookEngine().register(budgetGuard({ maxToolCalls: 1 }));
    expect((await call(fresh, 'x', 'Bash', lent)).stop).toBe(true);
    // Without a lent store the engine's own session state counts, as before.
    expect((await call(fresh, 'x')).stop).toBe(false);
  });

  it('shares tokens and wall clock through the store', async () => {
    let now = 1000;
    const store = new MemoryCounterStore();
    const make = () => new HookEngine().register(budgetGuard({ maxTokens: 100, maxWallClockMs: 60_000, counters: store, now: () => now }));
    const [a, b] = [make(), make()];
    expect((await a.fire('PostModelCall', { session_id: 't', usage: { input_tokens: 60 } })).stop).toBe(false);
    const over = await b.fire('PostModelCall', { session_id: 't', usage: { input_tokens: 41 } });
    expect(over.stopReason).toBe('token budget exceeded: 101 tokens used this session, limit 100');
    expect((await a.fire('PreModelCall', { session_id: 't' })).stop).toBe(true);
    now = 62_000;
    expect((await b.fire('UserPromptSubmit', { session_id: 't', prompt: 'x' })).stopReason).toBe(
      'time budget exceeded: this session has run 61 s, limit 60 s',
    );
  });
});

describe.skipIf(!redis.url)('budgetGuard on real Redis across engines', () => {
  it('stops exactly at the limit under 300 concurrent calls from 3 engines with 3 connections', async () => {
    const stores = await Promise.all([0, 1, 2].map(() => RedisCounterStore.connect(redis.url!, { keyPrefix: prefix })));
    opened.push(...stores);
    const engines = stores.map((counters) => new HookEngine().register(budgetGuard({ maxToolCalls: 120, counters })));
    const outcomes = await Promise.all(Array.from({ length: 300 }, (_, i) => call(engines[i % 3]!, 'fleet')));
    expect(outcomes.filter((o) => !o.stop)).toHaveLength(120);
    expect(outcomes.filter((o) => o.stop)).toHaveLength(180);
    expect(await stores[0]!.get('budget:guard:budget:fleet:toolCalls')).toBe(300);
  });
});
