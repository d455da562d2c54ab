/**
 * Counters that budgets and rate limits share. Every operation is atomic in the
 * store itself (no read-modify-write in the caller), so any number of processes
 * counting on one store never lose an update.
 */
export interface CounterStore {
  /**
   * Adds `by` (default 1) to `key` and resolves to the new total. `ttlMs` makes a key
   * created by this call expire that long after; an existing key keeps its expiry.
   */
  increment(key: string, by?: number, options?: { ttlMs?: number }): Promise<number>;
  /** The current total of `key`; 0 when it does not exist. */
  get(key: string): Promise<number>;
  /** Sets `key` to `value` unless it exists; resolves to the value it holds afterwards. */
  setOnce(key: string, value: number, options?: { ttlMs?: number }): Promise<number>;
  /** The same store with every key under `prefix` (for a tenant, a test). */
  scoped(prefix: string): CounterStore;
  /** Releases connections; the store is unusable afterwards. A scoped view closes its parent. */
  close(): Promise<void>;
}
