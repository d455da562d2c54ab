import { createRequire } from 'node:module';
import type * as WorkerThreads from 'node:worker_threads';

/**
 * A second thread for the stat stamp's `lstat` calls on a large workspace. On 50,000
 * files the stamp is 50,000 `lstat` calls, each a few microseconds of kernel time, and
 * `git status` makes the same calls from two threads; from one they cost 1.6x its time.
 * The thread is started on the first large check and used from the first check after it
 * runs (a resident, serve and the runtime check again and again; a process that checks
 * once never waits for it), unref'd so it never holds a process open. It runs no
 * hookwise code: only `lstat` into shared memory. Where it cannot start or does not
 * answer, the caller states every path itself.
 */

/** Below this many paths one thread is as fast (the hand-over costs about a millisecond). */
export const SPLIT_AT = 16_384;

/** The stat fields per path, in the order the stamp keeps them (stat-stamp.ts): those a write, a rename, a chmod or a new entry in a folder always moves (ctime cannot be set back). */
export const FIELDS = 5;

/** A worker that has not answered in this long is given up (a machine too loaded to schedule it): the caller states its share. */
const ANSWER_MS = 10_000;

/**
 * The worker (CommonJS source: the cheapest worker to start). Its rows are the plain
 * case of the stamp's `statRow`, field for field; test/checkpoints/stat-pool.test.ts
 * holds the two to the same result.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
let job;
parentPort.on('message', (m) => {
  if (typeof m === 'object') { job = m; return; }
  let missing = 0;
  for (let i = 0, row = 0; i < job.paths.length; i++, row += ${FIELDS}) {
    const s = fs.lstatSync(job.prefix + job.paths[i], { throwIfNoEntry: false });
    if (s === undefined) { missing = 1; break; }
    job.out[row] = s.ino; job.out[row + 1] = s.size; job.out[row + 2] = s.mode; job.out[row + 3] = s.mtimeMs; job.out[row + 4] = s.ctimeMs;
  }
  Atomics.store(job.control, 0, missing);
  Atomics.store(job.control, 1, m);
  Atomics.notify(job.control, 1);
});
Atomics.store(workerData, 0, 1);
parentPort.postMessage('running');
`;

interface Job {
  key: string;
  /** [0]: 1 when a path of the worker's share was gone; [1]: the last round the worker finished. */
  control: Int32Array;
  out: Float64Array;
  /** The worker states paths [0, split); the caller [split, length). */
  split: number;
  round: number;
}

export class StatPool {
  private worker: WorkerThreads.Worker | undefined;
  /**
   * [0] is set by the worker as it runs. Read here rather than waiting for its message: a
   * caller that checks again and again without the event loop turning between (awaits of
   * settled promises only) would never hear it.
   */
  private running: Int32Array | undefined;
  private broken = false;
  private started: Promise<boolean> | undefined;
  private job: Job | undefined;

  /** Resolves when the thread runs (true) or could not start (false); false before any large check started it. */
  whenOnline(): Promise<boolean> {
    return this.started ?? Promise.resolve(false);
  }

  /**
   * Fill a shared row per path, the worker taking the first half: `rowsFrom(out, from)`
   * states rows [from, length) on this thread meanwhile. `key` names the list (the same
   * key, the same paths), so the list crosses to the worker only when it changes.
   * Undefined when the worker found a path gone; `unavailable` when there is no worker.
   */
  stat(
    key: string,
    prefix: string,
    paths: string[],
    rowsFrom: (out: Float64Array, from: number) => boolean,
  ): Float64Array | undefined | 'unavailable' {
    const worker = this.ready();
    // Until its thread runs, the caller states every path itself: a process that checks once never waits for it.
    if (worker === undefined || this.running === undefined || Atomics.load(this.running, 0) !== 1) return 'unavailable';
    const job = this.jobFor(worker, key, prefix, paths);
    const round = ++job.round;
    worker.postMessage(round);
    const mine = rowsFrom(job.out, job.split);
    if (!this.answered(job, round)) return 'unavailable';
    if (!mine || Atomics.load(job.control, 0) === 1) return undefined;
    return job.out;
  }

  private ready(): WorkerThreads.Worker | undefined {
    if (this.broken) return undefined;
    if (this.worker !== undefined) return this.worker;
    try {
      const { Worker } = workerThreads();
      // execArgv: [] so that a parent started with --input-type=module does not make the CommonJS source an ES module.
      const running = new Int32Array(new SharedArrayBuffer(4));
      const worker = new Worker(WORKER, { eval: true, execArgv: [], workerData: running });
      this.running = running;
      this.started = new Promise((resolve) => {
        // After the flag is set: whoever awaits this finds the thread in use on its next check.
        worker.once('message', () => resolve(!this.broken));
        worker.once('error', () => resolve(false));
      });
      worker.on('error', () => this.giveUp());
      worker.on('exit', () => this.giveUp());
      worker.unref();
      this.worker = worker;
      return worker;
    } catch {
      this.broken = true;
      return undefined;
    }
  }

  private jobFor(worker: WorkerThreads.Worker, key: string, prefix: string, paths: string[]): Job {
    if (this.job?.key === key) return this.job;
    const split = Math.floor(paths.length / 2);
    const job: Job = {
      key,
      control: new Int32Array(new SharedArrayBuffer(8)),
      out: new Float64Array(new SharedArrayBuffer(paths.length * FIELDS * 8)),
      split,
      round: 0,
    };
    worker.postMessage({ prefix, paths: paths.slice(0, split), out: job.out, control: job.control });
    this.job = job;
    return job;
  }

  /** Waits for the worker's round; one that does not come is given up, and so is the worker. */
  private answered(job: Job, round: number): boolean {
    const until = Date.now() + ANSWER_MS;
    while (Atomics.load(job.control, 1) !== round) {
      const left = until - Date.now();
      if (left <= 0) {
        this.giveUp();
        return false;
      }
      Atomics.wait(job.control, 1, Atomics.load(job.control, 1), left);
    }
    return true;
  }

  private giveUp(): void {
    this.broken = true;
    this.job = undefined;
    this.running = undefined;
    void this.worker?.terminate();
    this.worker = undefined;
  }
}

/** The loaded built-in, not `import ... from 'node:worker_threads'`: an ES-module facade costs start-up on every tool call. */
function workerThreads(): typeof WorkerThreads {
  return (process.getBuiltinModule?.('node:worker_threads') ??
    createRequire(import.meta.url)('node:worker_threads')) as typeof WorkerThreads;
}
