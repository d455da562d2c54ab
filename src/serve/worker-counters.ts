import type { Worker } from 'node:cluster';
import type { CounterStore } from '../counters/types.js';
import { CounterConnectionError } from '../counters/errors.js';

/**
 * `hookwise serve --workers N` with the default in-memory counters: the primary holds
 * the one store, and every worker counts through it over the cluster's IPC channel, so
 * a rate limit or a budget means the same with one worker or eight (docs/serve.md,
 * "Workers"). Each operation is one message and one answer; the primary applies them
 * one at a time, so they stay atomic.
 */

type Operation = 'increment' | 'get' | 'setOnce';

interface CounterRequest {
  hookwise: 'counters';
  id: number;
  op: Operation;
  key: string;
  /** `by` for increment, `value` for setOnce. */
  amount?: number;
  ttlMs?: number;
}

interface CounterAnswer {
  hookwise: 'counters';
  id: number;
  value?: number;
  error?: string;
}

const isRequest = (m: unknown): m is CounterRequest =>
  typeof m === 'object' && m !== null && (m as CounterRequest).hookwise === 'counters' && typeof (m as CounterRequest).op === 'string';

const isAnswer = (m: unknown): m is CounterAnswer =>
  typeof m === 'object' && m !== null && (m as CounterAnswer).hookwise === 'counters' && !('op' in m);

/** The primary's side: answers every worker's counter messages from one in-memory store. */
export function serveWorkerCounters(worker: Worker, store: CounterStore): void {
  worker.on('message', (message: unknown) => {
    if (!isRequest(message)) return;
    const { id, op, key, amount, ttlMs } = message;
    const options = ttlMs === undefined ? {} : { ttlMs };
    const answer =
      op === 'increment'
        ? store.increment(key, amount, options)
        : op === 'setOnce'
          ? store.setOnce(key, amount ?? 0, options)
          : store.get(key);
    answer.then(
      (value) => reply(worker, { hookwise: 'counters', id, value }),
      (error: Error) => reply(worker, { hookwise: 'counters', id, error: error.message }),
    );
  });
}

function reply(worker: Worker, answer: CounterAnswer): void {
  // A worker that has gone no longer waits for anything.
  if (worker.isConnected()) worker.send(answer);
}

/** What a worker's store and its scoped views share: the calls waiting for an answer. */
interface Link {
  waiting: Map<number, { resolve: (n: number) => void; reject: (e: Error) => void }>;
  next: number;
  closed: boolean;
}

/** A worker's side: a CounterStore whose every operation the primary carries out. */
export class WorkerCounterStore implements CounterStore {
  private readonly link: Link;

  constructor(
    private readonly channel: NodeJS.Process = process,
    private readonly prefix = '',
    link?: Link,
  ) {
    this.link = link ?? { waiting: new Map(), next: 0, closed: false };
    if (!link) this.listen();
  }

  increment(key: string, by = 1, options: { ttlMs?: number } = {}): Promise<number> {
    return this.ask('increment', key, by, options.ttlMs);
  }

  get(key: string): Promise<number> {
    return this.ask('get', key);
  }

  setOnce(key: string, value: number, options: { ttlMs?: number } = {}): Promise<number> {
    return this.ask('setOnce', key, value, options.ttlMs);
  }

  scoped(prefix: string): CounterStore {
    return new WorkerCounterStore(this.channel, this.prefix + prefix, this.link);
  }

  close(): Promise<void> {
    this.link.closed = true;
    this.failAll('the counter store is closed');
    return Promise.resolve();
  }

  private ask(op: Operation, key: string, amount?: number, ttlMs?: number): Promise<number> {
    if (this.link.closed) return Promise.reject(new CounterConnectionError('the counter store is closed'));
    if (!this.channel.connected || !this.channel.send)
      return Promise.reject(new CounterConnectionError('the serve primary holding the counters is gone'));
    const id = ++this.link.next;
    const request: CounterRequest = { hookwise: 'counters', id, op, key: this.prefix + key };
    if (amount !== undefined) request.amount = amount;
    if (ttlMs !== undefined) request.ttlMs = ttlMs;
    return new Promise<number>((resolve, reject) => {
      this.link.waiting.set(id, { resolve, reject });
      this.channel.send!(request);
    });
  }

  private listen(): void {
    const waiting = this.link.waiting;
    this.channel.on('message', (message: unknown) => {
      if (!isAnswer(message)) return;
      const waiter = waiting.get(message.id);
      if (!waiter) return;
      waiting.delete(message.id);
      if (message.error !== undefined || typeof message.value !== 'number')
        waiter.reject(new CounterConnectionError(`counters: ${message.error ?? 'no value in the answer'}`));
      else waiter.resolve(message.value);
    });
    // Whatever waits when the primary goes fails, as with Redis down: serve refuses a
    // rate-limited request (a block), and a budget guard (onError 'continue') lets its call through (docs/fleet.md).
    this.channel.once('disconnect', () => this.failAll('the serve primary holding the counters is gone'));
  }

  private failAll(why: string): void {
    for (const waiter of this.link.waiting.values()) waiter.reject(new CounterConnectionError(why));
    this.link.waiting.clear();
  }
}
