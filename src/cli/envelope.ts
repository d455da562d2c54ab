import type * as Fs from 'node:fs';
import type * as V8 from 'node:v8';
import { killHookProcesses } from './hook-processes.js';
import { startWatchdog, type Watchdog } from './watchdog.js';
import { oneLine, TimedOut, within } from '../hosts/limits.js';
import { FlagValueError } from './errors.js';

/** The deadline and the one-line reason every hook call keeps to (src/hosts/limits.ts). */
export { oneLine, TimedOut, within };

// From the loaded built-ins, not `import ... from 'node:fs'`: ES-module facades cost
// start-up on every tool call. getBuiltinModule is Node 20.16+.
const fs = (process.getBuiltinModule?.('node:fs') ?? (await import('node:fs'))) as typeof Fs;
const v8 = (process.getBuiltinModule?.('node:v8') ?? (await import('node:v8'))) as typeof V8;

/**
 * The fail-closed envelope of a command that answers a host (`hookwise claude-code`,
 * `hookwise fire`); docs/security.md#fail-closed-envelope. Until `answer()` has
 * written a validated answer, the answer is the failure answer: whatever goes wrong
 * (an uncaught error or rejection, a config that calls `process.exit` or never
 * finishes loading, a hook that loops synchronously) ends with `failure(reason)`
 * written and the process ended with its exit code. After the answer, nothing can
 * change it: the process exits with the answer's code once the work left is done.
 *
 * The config and hooks run on this (the main) thread. A watchdog thread watches a
 * heartbeat the main thread's event loop bumps; when it stops while the main thread
 * burns `stallTimeoutMs` of CPU (a hook or the config is stuck in synchronous code;
 * wall time where /proc is missing), the watchdog interrupts the
 * main thread through the inspector protocol (`Runtime.evaluate`, which V8 runs at
 * the next interrupt check, even inside a loop) to write the failure answer and exit.
 */
export interface FailureAnswer {
  /** What goes to stdout (`hookwise fire` prints a blocked Outcome); nothing when absent. */
  stdout?: string;
  /** One line for stderr. */
  stderr: string;
  code: number;
}

export interface EnvelopeOptions {
  failure(reason: string): FailureAnswer;
  /** How much CPU time the main thread may spend without yielding before the watchdog ends it. */
  stallTimeoutMs: number;
}

export const DEFAULT_LOAD_TIMEOUT_MS = 30_000;
export const DEFAULT_STALL_TIMEOUT_MS = 10_000;
type State = 'running' | 'answered' | 'exiting';

export class Envelope {
  private state: State = 'running';
  private answerCode = 0;
  /** Watches the main thread; tightened to a running hook's own timeout (hook-deadline.ts). */
  watchdog!: Watchdog;
  /** Says what was stuck when the watchdog stops the main thread after `ms` of CPU time. */
  stallReason = (ms: number) => `a hook or the config ran synchronously for ${ms} ms of CPU time without yielding; stopped`;
  /** Records the stopped call (the audit trail's record of a hook that timed out) before the process ends. */
  onStall: ((ms: number, reason: string) => void) | undefined;
  private readonly exit: (code?: number) => never;
  private readonly reallyExit: (code: number) => never;

  constructor(private readonly options: EnvelopeOptions) {
    const proc = process as unknown as { reallyExit: (code: number) => never };
    this.exit = process.exit.bind(process);
    this.reallyExit = proc.reallyExit.bind(process);
    this.install(proc);
  }

  /** Fail unless `work` settles within `ms`; resolves to what the work resolves to. */
  async within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
    try {
      return await within(ms, what, work);
    } catch (error) {
      if (error instanceof TimedOut) this.fail(error.message);
      throw error;
    }
  }

  /**
   * Write the validated answer. Errors that surface after this point no longer change
   * the answer. One turn of the event loop first, so that a rejection or a timer's
   * throw already on its way fails the call instead of slipping past the answer.
   */
  async answer(stdout: string | undefined, code: number): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    if (this.state !== 'running') return;
    if (stdout) writeAll(1, stdout);
    this.state = 'answered';
    this.answerCode = code;
  }

  /** Write the failure answer and end the process; later failures change nothing. */
  fail(reason: string): never {
    if (this.state === 'running') {
      this.state = 'exiting';
      const answer = this.options.failure(oneLine(reason));
      if (answer.stdout) writeAll(1, answer.stdout);
      writeAll(2, `${answer.stderr}\n`);
      this.answerCode = answer.code;
    }
    return this.finish();
  }

  /** End the process with the answer's code. Anything still running is abandoned: the caller drains what must finish first. */
  finish(): never {
    if (this.state === 'running') return this.fail('hookwise ended without an answer');
    this.state = 'exiting';
    return this.exit(this.answerCode);
  }

  private install(proc: { reallyExit: (code: number) => never }): void {
    const stderr = process.stderr;
    // Config and hook code printing to stdout would corrupt the answer: their output goes to stderr.
    Object.defineProperty(process, 'stdout', { configurable: true, enumerable: true, get: () => stderr });
    const refuseExit = (how: string) => (code?: number | string | null) => {
      if (this.state === 'exiting') return this.reallyExit(Number(code ?? 0));
      if (this.state === 'answered') return this.finish();
      return this.fail(`the config or a hook called ${how}(${code ?? ''}) before hookwise answered`);
    };
    process.exit = refuseExit('process.exit') as typeof process.exit;
    proc.reallyExit = refuseExit('process.reallyExit') as (code: number) => never;
    process.abort = (() => this.fail('the config or a hook called process.abort()')) as typeof process.abort;
    const kill = process.kill.bind(process);
    process.kill = ((pid: number, signal?: string | number) => {
      if (pid === process.pid || pid === 0 || pid === -process.pid)
        return this.fail(`the config or a hook sent ${String(signal ?? 'SIGTERM')} to hookwise itself`);
      return kill(pid, signal);
    }) as typeof process.kill;
    process.on('uncaughtException', (error) => this.late(`uncaught error: ${describe(error)}`));
    process.on('unhandledRejection', (reason) => this.late(`unhandled promise rejection: ${describe(reason)}`));
    // --liftoff-only: never tier wasm up to TurboFan. V8 finishes background compile jobs before the
    // process may exit, and optimising the bash grammar's lexer took a second of every call.
    v8.setFlagsFromString('--liftoff-only');
    this.startWatchdog();
  }

  /** A failure reported by the runtime: fatal before the answer, a note after it. */
  private late(reason: string): void {
    if (this.state === 'running') this.fail(reason);
    else writeAll(2, `hookwise: after the answer: ${oneLine(reason)}\n`);
  }

  private startWatchdog(): void {
    this.watchdog = startWatchdog(this.options.stallTimeoutMs, (ms) => {
      // The inspector prints "Waiting for the debugger to disconnect..." at exit; the answer has one line.
      if (this.state === 'running') {
        const reason = this.stallReason(ms);
        try {
          this.onStall?.(ms, reason);
        } catch {
          // The refusal below is the answer whether or not the record could be written.
        }
        const answer = this.options.failure(reason);
        if (answer.stdout) writeAll(1, answer.stdout);
        writeAll(2, `${answer.stderr}\n`);
        this.answerCode = answer.code;
      }
      this.state = 'exiting';
      fs.closeSync(2);
      // reallyExit skips the 'exit' event, where command hooks' processes are otherwise killed.
      killHookProcesses();
      this.reallyExit(this.answerCode);
    });
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * Write all of `text` to the descriptor, synchronously: a stream might still hold part
 * of it when the process exits. A non-blocking descriptor that is full (EAGAIN) is
 * retried after a millisecond's sleep until the reader takes it.
 */
export function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text);
  let done = 0;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (done < bytes.length) {
    try {
      done += fs.writeSync(fd, bytes, done);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}

/** A positive integer of milliseconds from a flag or variable; the default when absent. */
export function millis(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new FlagValueError(`${name}: expected a positive whole number of milliseconds, got "${value}"`);
  return n;
}
