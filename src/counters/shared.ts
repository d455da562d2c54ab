import { AsyncLocalStorage } from 'node:async_hooks';
import type { CounterStore } from './types.js';

/**
 * The store a host (hookwise serve) lends the guards of one fire: a tenant's view of
 * Redis. Kept on globalThis so a config that imports its own copy of hookwise still
 * sees the server's store.
 */
const KEY = Symbol.for('hookwise.counters.scope');
const scope: AsyncLocalStorage<CounterStore> = ((globalThis as Record<symbol, unknown>)[KEY] ??=
  new AsyncLocalStorage<CounterStore>()) as AsyncLocalStorage<CounterStore>;

/** Run `fn` with `store` as the counters of every guard it fires that was not given one. */
export function withCounters<T>(store: CounterStore, fn: () => T): T {
  return scope.run(store, fn);
}

/** The store lent by the host for the current fire, if any. */
export function lentCounters(): CounterStore | undefined {
  return scope.getStore();
}
