export type { CounterStore } from './types.js';
export { MemoryCounterStore } from './memory.js';
export { RedisCounterStore, type RedisCounterOptions } from './redis.js';

import { MemoryCounterStore } from './memory.js';
import type { CounterStore } from './types.js';
import { CounterStoreUrlError } from './errors.js';

/** A store from a URL: `redis://` / `rediss://` for Redis, `memory:` (or nothing) for this process only. */
export async function openCounterStore(url: string | undefined, options: { keyPrefix?: string } = {}): Promise<CounterStore> {
  if (!url || url === 'memory:') return new MemoryCounterStore();
  if (/^rediss?:\/\//.test(url)) {
    const { RedisCounterStore } = await import('./redis.js');
    return RedisCounterStore.connect(url, options);
  }
  throw new CounterStoreUrlError(`unknown counter store ${JSON.stringify(url)}; expected redis://host:port[/db] or memory:`);
}
