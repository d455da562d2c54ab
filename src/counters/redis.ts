import type { Redis, RedisOptions } from 'ioredis';
import type { CounterStore } from './types.js';
import { missingPackage } from '../core/missing-package.js';
import { CounterConnectionError } from './errors.js';

// One round trip, atomic in Redis: the key's expiry is set by the call that created it.
const INCREMENT = `
local v = redis.call('INCRBY', KEYS[1], ARGV[1])
if tonumber(ARGV[2]) > 0 and redis.call('PTTL', KEYS[1]) == -1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return v`;
const SET_ONCE = `
if tonumber(ARGV[2]) > 0 then redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) else redis.call('SET', KEYS[1], ARGV[1], 'NX') end
return redis.call('GET', KEYS[1])`;

type CountingRedis = Redis & {
  hookwiseIncrement(key: string, by: number, ttlMs: number): Promise<number>;
  hookwiseSetOnce(key: string, value: number, ttlMs: number): Promise<string>;
};

export interface RedisCounterOptions {
  /** Prepended to every key. Default `hookwise:`. */
  keyPrefix?: string;
  /** Passed to ioredis. */
  redis?: RedisOptions;
}

/**
 * Counters in Redis, shared by every process that uses the same server and prefix.
 * Increments are INCRBY inside one Lua script, so concurrent clients never lose one.
 */
export class RedisCounterStore implements CounterStore {
  private constructor(
    private readonly client: CountingRedis,
    private readonly prefix: string,
    readonly url: string,
  ) {}

  /** Connects and checks the server answers; rejects with the URL and the reason when it does not. */
  static async connect(url: string, options: RedisCounterOptions = {}): Promise<RedisCounterStore> {
    const { Redis } = await import('ioredis').catch((error: unknown) => {
      throw missingPackage(error, 'ioredis', 'Redis counters (a redis:// URL)');
    });
    const client = new Redis(url, {
      lazyConnect: true,
      maxRetriesPerRequest: 2,
      enableOfflineQueue: true,
      ...options.redis,
    }) as CountingRedis;
    client.defineCommand('hookwiseIncrement', { numberOfKeys: 1, lua: INCREMENT });
    client.defineCommand('hookwiseSetOnce', { numberOfKeys: 1, lua: SET_ONCE });
    // Errors surface on the commands that fail; without a listener ioredis would also print each one.
    client.on('error', () => {});
    try {
      await client.connect();
      await client.ping();
    } catch (error) {
      // A client that never connected has already ended; disconnect() would start a 2 s timer.
      if (client.status !== 'end') client.disconnect();
      throw new CounterConnectionError(`cannot reach Redis at ${redact(url)}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return new RedisCounterStore(client, options.keyPrefix ?? 'hookwise:', url);
  }

  async increment(key: string, by = 1, options: { ttlMs?: number } = {}): Promise<number> {
    return Number(await this.client.hookwiseIncrement(this.prefix + key, by, Math.max(0, Math.ceil(options.ttlMs ?? 0))));
  }

  async get(key: string): Promise<number> {
    return Number((await this.client.get(this.prefix + key)) ?? 0);
  }

  async setOnce(key: string, value: number, options: { ttlMs?: number } = {}): Promise<number> {
    return Number(await this.client.hookwiseSetOnce(this.prefix + key, value, Math.max(0, Math.ceil(options.ttlMs ?? 0))));
  }

  scoped(prefix: string): CounterStore {
    return new RedisCounterStore(this.client, this.prefix + prefix, this.url);
  }

  /** Whether the connection is up (for a readiness check). */
  async ping(): Promise<boolean> {
    try {
      return (await this.client.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.client.status === 'end') return;
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }
}

/** The URL without its password, for messages. */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}
