import type { CounterStore } from './types.js';

interface Entry {
  value: number;
  /** Epoch ms after which the entry is gone; Infinity for none. */
  expiresAt: number;
}

/**
 * The default store: one process, no I/O. Expired keys are dropped when next touched
 * (and swept every so often), so no timer keeps the process alive.
 */
export class MemoryCounterStore implements CounterStore {
  private readonly entries: Map<string, Entry>;
  private readonly prefix: string;
  private readonly now: () => number;
  private writes = 0;

  constructor(options: { now?: () => number } = {}, entries = new Map<string, Entry>(), prefix = '') {
    this.now = options.now ?? Date.now;
    this.entries = entries;
    this.prefix = prefix;
  }

  increment(key: string, by = 1, options: { ttlMs?: number } = {}): Promise<number> {
    const entry = this.live(this.prefix + key) ?? this.create(this.prefix + key, 0, options.ttlMs);
    entry.value += by;
    return Promise.resolve(entry.value);
  }

  get(key: string): Promise<number> {
    return Promise.resolve(this.live(this.prefix + key)?.value ?? 0);
  }

  setOnce(key: string, value: number, options: { ttlMs?: number } = {}): Promise<number> {
    const entry = this.live(this.prefix + key) ?? this.create(this.prefix + key, value, options.ttlMs);
    return Promise.resolve(entry.value);
  }

  scoped(prefix: string): CounterStore {
    return new MemoryCounterStore({ now: this.now }, this.entries, this.prefix + prefix);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private create(key: string, value: number, ttlMs: number | undefined): Entry {
    const entry = { value, expiresAt: ttlMs !== undefined && ttlMs > 0 ? this.now() + ttlMs : Infinity };
    this.entries.set(key, entry);
    if (++this.writes % 10_000 === 0) this.sweep();
    return entry;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}
