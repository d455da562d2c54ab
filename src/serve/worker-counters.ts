import type { Worker } from 'node:cluster';
import type { CounterStore } from '../counters/types.js';

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

/** A worker's side: a CounterStore whose every operation the primary carries out. */
export class WorkerCounterStore implements CounterStore {
  private readonly waiting: Map<number, { resolve: (n: number) => void; reject: (e: Error) => void }>;
  private readonly state: { next: number; closed: boolean };

  constructor(
    private readonly channel: NodeJS.Process = process,
    private readonly prefix = '',
    waiting?: WorkerCounterStore['waiting'],
    state?: WorkerCounterStore['state'],
  ) {
    this.waiting = waiting ?? new Map();
    this.state = state ?? { next: 0, closed: false };
    if (!waiting) this.listen();
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
    return new WorkerCounterStore(this.channel, this.prefix + prefix, this.waiting, this.state);
  }

  close(): Promise<void> {
    this.state.closed = true;
    this.failAll('the counter store is closed');
    return Promise.resolve();
  }

  private ask(op: Operation, key: string, amount?: number, ttlMs?: number): Promise<number> {
    if (this.state.closed) return Promise.reject(new Error('the counter store is closed'));
    if (!this.channel.connected || !this.channel.send) return Promise.reject(new Error('the serve primary holding the counters is gone'));
    const id = ++this.state.next;
    const request: CounterRequest = { hookwise: 'counters', id, op, key: this.prefix + key };
    if (amount !== undefined) request.amount = amount;
    if (ttlMs !== undefined) request.ttlMs = ttlMs;
    return new Promise<number>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.channel.send!(request);
    });
  }

  private listen(): void {
    this.channel.on('message', (message: unknown) => {
      if (!isAnswer(message)) return;
      const waiter = this.waiting.get(message.id);
      if (!waiter) return;
      this.waiting.delete(message.id);
      if (message.error !== undefined || typeof message.value !== 'number')
        waiter.reject(new Error(`counters: ${message.error ?? 'no value in the answer'}`));
      else waiter.resolve(message.value);
    });
    // Whatever waits when the primary goes fails, so the guard counting fails closed.
    this.channel.once('disconnect', () => this.failAll('the serve primary holding the counters is gone'));
  }

  private failAll(why: string): void {
    for (const waiter of this.waiting.values()) waiter.reject(new Error(why));
    this.waiting.clear();
  }
}
