import cluster, { type Worker } from 'node:cluster';
import { MemoryCounterStore } from '../counters/memory.js';
import { serveWorkerCounters } from './worker-counters.js';

/**
 * `hookwise serve --workers N`: N server processes on one port (node:cluster hands each
 * new connection to the next worker), so one machine's cores all answer hooks. The
 * primary runs no policy: it starts the workers, holds the in-memory counters they
 * share, restarts a worker that dies, and on SIGTERM or SIGINT lets every worker drain
 * (docs/serve.md, "Workers").
 */

/** What a worker tells the primary once its server listens. */
export interface ListeningMessage {
  hookwise: 'listening';
  url: string;
  tenants: string[];
}

const isListening = (m: unknown): m is ListeningMessage =>
  typeof m === 'object' && m !== null && (m as ListeningMessage).hookwise === 'listening';

/** More restarts than this within RESTART_WINDOW_MS, with no worker left answering, is a crash loop: the primary stops. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;
/** A restart waits 250 ms, doubling with each recent one up to this. */
const MAX_RESTART_DELAY_MS = 30_000;

export interface PrimaryOptions {
  count: number;
  /** The workers count through the primary (no --counters URL): one store for all of them. */
  shareMemoryCounters: boolean;
  log: (line: string) => void;
}

/** Runs the workers until a signal (or a worker that cannot start) stops them; resolves with the exit code. */
export function runPrimary({ count, shareMemoryCounters, log }: PrimaryOptions): Promise<number> {
  return new Promise<number>((resolve) => {
    const live = new Set<Worker>();
    const listening = new Set<Worker>();
    const restarts: number[] = [];
    const waiting = new Set<NodeJS.Timeout>();
    let stopping = false;
    let failed = false;
    let announced = false;
    // One store for every worker, replacements included.
    const counters = shareMemoryCounters ? new MemoryCounterStore() : undefined;

    const start = () => {
      const worker = cluster.fork();
      live.add(worker);
      if (counters) serveWorkerCounters(worker, counters);
      worker.on('message', (message: unknown) => {
        if (!isListening(message)) return;
        listening.add(worker);
        // The first worker starts alone: a config that cannot load fails once, not once per worker.
        if (!announced && listening.size === 1 && live.size === 1) for (let i = 1; i < count; i++) start();
        if (!announced && listening.size === count) {
          announced = true;
          process.stdout.write(`hookwise serve: listening on ${message.url} (tenants: ${message.tenants.join(', ')}; ${count} workers)\n`);
        }
      });
      worker.once('exit', (code, signal) => exited(worker, code, signal));
    };

    const exited = (worker: Worker, code: number | null, signal: string | null) => {
      const how = signal ? `signal ${signal}` : `code ${code}`;
      live.delete(worker);
      const started = listening.delete(worker);
      if (stopping) {
        // Only a worker that served can fail to drain; one still starting ends as it may.
        if (started && code !== 0) failed = true;
        if (live.size === 0) finish();
        return;
      }
      // Before the server is up, a worker that cannot start means the server cannot. After,
      // it is one more restart: the others keep answering with the config they hold.
      if (!started && !announced) {
        log(`worker ${worker.process.pid} exited (${how}) before it listened; stopping`);
        failed = true;
        return stop();
      }
      const now = Date.now();
      restarts.push(now);
      while (restarts[0]! < now - RESTART_WINDOW_MS) restarts.shift();
      if (restarts.length > MAX_RESTARTS && listening.size === 0) {
        log(`worker ${worker.process.pid} exited (${how}); ${restarts.length} restarts within a minute and none answering, stopping`);
        failed = true;
        return stop();
      }
      // Backing off: a config broken on disk fails every new worker while the others keep answering.
      const delay = Math.min(MAX_RESTART_DELAY_MS, 250 * 2 ** (restarts.length - 1));
      log(`worker ${worker.process.pid} exited (${how}); starting another${delay > 250 ? ` in ${delay} ms` : ''}`);
      const timer = setTimeout(() => {
        waiting.delete(timer);
        start();
      }, delay);
      waiting.add(timer);
    };

    const stop = () => {
      if (stopping) return;
      stopping = true;
      for (const timer of waiting) clearTimeout(timer);
      if (live.size === 0) return finish();
      for (const worker of live) worker.process.kill('SIGTERM');
    };

    const onSignal = (signal: NodeJS.Signals) => {
      if (!stopping) log(`${signal}: every worker drains, then stops`);
      stop();
    };
    const finish = () => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      resolve(failed ? 1 : 0);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
    start();
  });
}
