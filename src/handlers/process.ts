import { spawn, type ChildProcess } from 'node:child_process';
import { CappedBuffer } from './capped-buffer.js';
import { HOOK_ID_ENV, killEverything, newHookId, signalGroup, track, untrack } from './containment.js';
import { HookwiseError } from '../core/errors.js';
import { AbortedError } from '../core/errors.js';

/**
 * Runs one hook process: input on stdin, stdout/stderr captured up to a cap, the
 * process in its own process group and marked (containment.ts) so that when it
 * ends, by exit, timeout or abort, everything it started ends too: background
 * children, `setsid` children and double-forked daemons, not only the direct child.
 */
export interface RunProcessOptions {
  file: string;
  args: string[];
  stdin: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Cap on stdout and on stderr, each. */
  limitBytes: number;
  signal: AbortSignal;
  /** Between SIGTERM and SIGKILL of the process group. Default 500 ms. */
  killGraceMs?: number;
  /**
   * After the process exits and what it left running is killed, how long to wait for
   * its pipes to close. Only a process that escaped containment can still hold them;
   * past this we stop reading. Default 1 s.
   */
  exitDrainMs?: number;
}

export interface RunProcessResult {
  /** null when the process was killed by a signal. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
}

/** The process could not be started at all (missing program, bad cwd, not executable). `errno`: the system's code, e.g. ENOENT. */
export class SpawnError extends HookwiseError {
  override readonly code = 'SPAWN';
  constructor(
    message: string,
    readonly errno: string | undefined,
  ) {
    super(message);
  }
}

export const DEFAULT_KILL_GRACE_MS = 500;
const DEFAULT_EXIT_DRAIN_MS = 1000;

function abortMessage(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.message) return reason.message;
  if (typeof reason === 'string' && reason) return reason;
  return 'aborted';
}

export function runProcess(options: RunProcessOptions): Promise<RunProcessResult> {
  return new Promise<RunProcessResult>((resolve, reject) => {
    if (options.signal.aborted) {
      reject(new AbortedError(abortMessage(options.signal)));
      return;
    }
    let child: ChildProcess;
    const hookId = newHookId();
    try {
      child = spawn(options.file, options.args, {
        cwd: options.cwd,
        env: { ...options.env, [HOOK_ID_ENV]: hookId },
        // Own process group (and session): one kill(-pgid) reaches every descendant.
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
    } catch (error) {
      reject(new SpawnError((error as Error).message, (error as NodeJS.ErrnoException).code));
      return;
    }

    if (child.pid !== undefined) track(hookId, child.pid);
    const stdout = new CappedBuffer(options.limitBytes);
    const stderr = new CappedBuffer(options.limitBytes);
    const grace = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
    let killTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    let aborted = false;
    let killed = false;
    let closed = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;

    const cleanup = () => {
      settled = true;
      untrack(hookId);
      clearTimeout(killTimer);
      clearTimeout(drainTimer);
      options.signal.removeEventListener('abort', onAbort);
    };

    const finishAborted = () => {
      if (settled) return;
      cleanup();
      reject(new AbortedError(abortMessage(options.signal)));
    };

    const onAbort = () => {
      if (aborted || settled || child.pid === undefined) return;
      aborted = true;
      signalGroup(child.pid, 'SIGTERM');
      killTimer = setTimeout(() => {
        killed = true;
        killEverything(child.pid!, hookId);
        // The leader may keep its pipes open until SIGKILL lands; stop waiting for them.
        child.stdout?.destroy();
        child.stderr?.destroy();
        if (closed) finishAborted();
      }, grace).unref();
    };

    child.on('error', (error: NodeJS.ErrnoException) => {
      if (settled) return;
      if (child.pid === undefined) {
        // Never started: there is no process to wait for.
        cleanup();
        child.stdin?.destroy();
        child.stdout?.destroy();
        child.stderr?.destroy();
        reject(new SpawnError(error.message, error.code));
      }
    });

    // A hook that never reads its stdin closes the pipe under us: EPIPE is expected, not a failure.
    child.stdin!.on('error', () => {});
    child.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk));

    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // The hook is over: nothing it started may outlive it, or hold its pipes open.
      if (child.pid !== undefined) killEverything(child.pid, hookId);
      drainTimer = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        // Unref'd: the child's own handles keep the loop alive while it matters; this timer never should.
      }, options.exitDrainMs ?? DEFAULT_EXIT_DRAIN_MS).unref();
    });

    child.on('close', (code: number | null, signal: NodeJS.Signals | null) => {
      closed = true;
      if (settled) return;
      if (aborted) {
        // Resolve early only when TERM already emptied the group; else SIGKILL follows the grace.
        if (killed || !signalGroup(child.pid!, 0)) {
          killEverything(child.pid!, hookId);
          finishAborted();
        }
        return;
      }
      cleanup();
      const final = exit ?? { code, signal };
      resolve({
        exitCode: final.code,
        signal: final.signal,
        stdout: stdout.text(),
        stderr: stderr.text(),
        stdoutTruncated: stdout.truncated,
        stderrTruncated: stderr.truncated,
      });
    });

    options.signal.addEventListener('abort', onAbort, { once: true });
    child.stdin!.end(options.stdin);
  });
}
