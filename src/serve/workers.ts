import cluster, { type Worker } from 'node:cluster';
import os from 'node:os';
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

/** More restarts than this within RESTART_WINDOW_MS is a crash loop: the primary stops. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;

/** `--workers`: a count of at least 1, or `auto` for the cores this process may use. */
export function workerCount(value: string | undefined): number | Error {
  if (value === undefined) return 1;
  if (value === 'auto') return os.availableParallelism();
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    return new Error(`--workers must be a whole number of at least 1, or auto; got ${JSON.stringify(value)}`);
  return n;
}

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
    let stopping = false;
    let failed = false;
    let announced = false;

    const start = () => {
      const worker = cluster.fork();
      live.add(worker);
      if (shareMemoryCounters) serveWorkerCounters(worker);
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
        // One still starting has no handler yet: our SIGTERM ends it, as asked.
        if (code !== 0 && !(signal === 'SIGTERM' && !started)) failed = true;
        if (live.size === 0) finish();
        return;
      }
      if (!started) {
        log(`worker ${worker.process.pid} exited (${how}) before it listened; stopping`);
        failed = true;
        return stop();
      }
      const now = Date.now();
      restarts.push(now);
      while (restarts[0]! < now - RESTART_WINDOW_MS) restarts.shift();
      if (restarts.length > MAX_RESTARTS) {
        log(`worker ${worker.process.pid} exited (${how}); ${restarts.length} restarts within a minute, stopping`);
        failed = true;
        return stop();
      }
      log(`worker ${worker.process.pid} exited (${how}); starting another`);
      start();
    };

    const stop = () => {
      if (stopping) return;
      stopping = true;
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
