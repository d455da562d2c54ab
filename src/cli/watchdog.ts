import type * as WorkerThreads from 'node:worker_threads';

// From the loaded built-in, not `import ... from 'node:worker_threads'`: an ES-module
// facade costs start-up on every tool call. getBuiltinModule is Node 20.16+.
const workerThreads = (process.getBuiltinModule?.('node:worker_threads') ?? (await import('node:worker_threads'))) as typeof WorkerThreads;

const STALLED = Symbol.for('hookwise.watchdog.stalled');
const HEARTBEAT_MS = 100;

/**
 * Stop a main thread stuck in synchronous code (a hook or a config that loops):
 * a watchdog thread watches a heartbeat the main thread's event loop bumps; when it
 * stops while the main thread burns `stallMs` of CPU time (wall time where /proc is
 * missing), the watchdog interrupts the main thread through the inspector protocol
 * (`Runtime.evaluate`, which V8 runs at the next interrupt check, even inside a loop)
 * and `onStall` runs there. `onStall` must end the process: the loop it interrupted
 * resumes when it returns. Used by the envelope (one answer) and the resident (many).
 */
export function startWatchdog(stallMs: number, onStall: (ms: number) => void): Watchdog {
  const { Worker } = workerThreads;
  // [0]: the heartbeat; [1]: a tighter stall limit while a hook with a shorter timeout runs (0: none).
  const beat = new Int32Array(new SharedArrayBuffer(8));
  (globalThis as Record<symbol, unknown>)[STALLED] = onStall;
  const heartbeat = setInterval(() => Atomics.add(beat, 0, 1), HEARTBEAT_MS);
  heartbeat.unref();
  // execArgv: [] so that a parent started with --input-type=module does not make the CommonJS source an ES module.
  const worker = new Worker(WATCHDOG, { eval: true, execArgv: [], workerData: { beat, stallMs, pid: process.pid } });
  // Without a watchdog the answer is still right; only a stuck hook could not be stopped. Say so, go on.
  worker.on('error', (error) => {
    process.stderr.write(`hookwise: warning: the watchdog thread failed: ${error instanceof Error ? error.message : String(error)}\n`);
  });
  worker.unref();
  return { tighten: (ms) => void Atomics.store(beat, 1, ms === undefined ? 0 : Math.max(1, Math.min(ms, stallMs))) };
}

export interface Watchdog {
  /**
   * Stop the main thread after `ms` of CPU time instead of the whole stall timeout
   * (never more than it), until called again; undefined goes back to the stall timeout.
   */
  tighten(ms: number | undefined): void;
}

/**
 * The watchdog thread (CommonJS source: the cheapest worker to start). It only reads
 * the heartbeat; it runs no hookwise code. Without an inspector in this Node build it
 * can only kill the process (exit by signal: hosts read that as a non-blocking error).
 */
const WATCHDOG = `
const { workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const { beat, stallMs, pid } = workerData;
// The main thread's own CPU time (Linux): a stuck loop burns it, a process the machine
// starves does not, so a loaded machine is never mistaken for a stuck hook. Else wall time.
const cpuMs = () => {
  try {
    const fields = readFileSync('/proc/' + pid + '/task/' + pid + '/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch { return Date.now(); }
};
let last = Atomics.load(beat, 0), since = cpuMs(), quiet = 0, limit = stallMs;
const timer = setInterval(() => {
  const now = Atomics.load(beat, 0);
  if (now !== last) { last = now; since = cpuMs(); quiet = 0; return; }
  limit = Atomics.load(beat, 1) || stallMs;
  if (++quiet < 3 || cpuMs() - since < limit) return;
  clearInterval(timer);
  try {
    const { Session } = require('node:inspector');
    const session = new Session();
    session.connectToMainThread();
    session.post('Runtime.evaluate', { expression: "globalThis[Symbol.for('hookwise.watchdog.stalled')](" + limit + ")" });
  } catch (error) {
    require('node:fs').writeSync(2, 'hookwise: a hook or the config ran synchronously for ' + limit + ' ms; killed\\n');
    process.kill(process.pid, 'SIGKILL');
  }
// Every 250 ms at most: a tightened limit is never under a second (hook-deadline.ts), so three quiet checks fit in it.
}, Math.max(10, Math.min(250, Math.floor(stallMs / 4))));
`;
