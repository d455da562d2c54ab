import { afterAll, describe, expect, it } from 'vitest';
import { MemoryCounterStore, RedisCounterStore, openCounterStore, type CounterStore } from '../../src/counters/index.js';
import { dropRedisPrefix, requireRedis, uniqueNamespace } from '../support/services.js';

const redis = await requireRedis();
const prefix = `${uniqueNamespace('counters')}:`;
const opened: CounterStore[] = [];
afterAll(async () => {
  for (const store of opened) await store.close();
  if (redis.url) await dropRedisPrefix(redis.url, prefix);
});

async function redisStore(): Promise<RedisCounterStore> {
  const store = await RedisCounterStore.connect(redis.url!, { keyPrefix: prefix });
  opened.push(store);
  return store;
}

/** The contract both stores keep. */
function contract(make: () => Promise<CounterStore>) {
  it('increments atomically and reports the new total', async () => {
    const store = await make();
    expect(await store.get('a')).toBe(0);
    expect(await store.increment('a')).toBe(1);
    expect(await store.increment('a', 41)).toBe(42);
    expect(await store.get('a')).toBe(42);
  });

  it('sets a value once: later calls get the first value', async () => {
    const store = await make();
    expect(await store.setOnce('started', 1000)).toBe(1000);
    expect(await store.setOnce('started', 2000)).toBe(1000);
  });

  it('scoped views do not see each other', async () => {
    const store = await make();
    const a = store.scoped('tenant-a:');
    const b = store.scoped('tenant-b:');
    await a.increment('n', 5);
    await b.increment('n', 7);
    expect(await a.get('n')).toBe(5);
    expect(await b.get('n')).toBe(7);
    expect(await store.get('tenant-a:n')).toBe(5);
  });
}

describe('MemoryCounterStore', () => {
  contract(async () => new MemoryCounterStore());

  it('forgets a key once its ttl has passed, counted from its creation', async () => {
    let now = 0;
    const store = new MemoryCounterStore({ now: () => now });
    await store.increment('w', 1, { ttlMs: 1000 });
    now = 900;
    expect(await store.increment('w', 1, { ttlMs: 1000 })).toBe(2);
    now = 1000;
    expect(await store.get('w')).toBe(0);
    expect(await store.increment('w', 1, { ttlMs: 1000 })).toBe(1);
  });

  it('is what openCounterStore gives without a URL', async () => {
    expect(await openCounterStore(undefined)).toBeInstanceOf(MemoryCounterStore);
    await expect(openCounterStore('mysql://x')).rejects.toThrow(/unknown counter store "mysql:\/\/x"; expected redis:/);
  });
});

describe.skipIf(!redis.url)('RedisCounterStore (real Redis)', () => {
  contract(redisStore);

  it('loses no update: 4 clients x 500 concurrent increments', async () => {
    const clients = await Promise.all([redisStore(), redisStore(), redisStore(), redisStore()]);
    const key = 'race';
    const totals = await Promise.all(clients.flatMap((c) => Array.from({ length: 500 }, () => c.increment(key, 1, { ttlMs: 60_000 }))));
    expect(await clients[0]!.get(key)).toBe(2000);
    // Every increment saw a distinct total: none was applied twice or read stale.
    expect(new Set(totals).size).toBe(2000);
    expect(Math.max(...totals)).toBe(2000);
  });

  it('sets the expiry when the key is created, not on later increments', async () => {
    const store = await redisStore();
    await store.increment('ttl', 1, { ttlMs: 200 });
    await new Promise((r) => setTimeout(r, 120));
    await store.increment('ttl', 1, { ttlMs: 200 });
    await new Promise((r) => setTimeout(r, 150));
    expect(await store.get('ttl')).toBe(0);
  });

  it('names the URL when Redis cannot be reached', async () => {
    await expect(
      RedisCounterStore.connect('redis://:secret@127.0.0.1:1', { redis: { maxRetriesPerRequest: 0, retryStrategy: () => null } }),
    ).rejects.toThrow(/cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1/);
  });
});
