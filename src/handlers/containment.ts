import { closeSync, openSync, readdirSync, readSync } from 'node:fs';

/**
 * No process a command hook starts outlives the hook (docs/security.md#containment).
 * Every hook process runs in its own process group, with a marker in its environment
 * (`HOOKWISE_HOOK_ID`, unique per run) that its descendants inherit. When the hook
 * ends (exit, timeout, abort), hookwise kills the group, then, on Linux, every
 * process whose environment carries the marker: that also reaches children that
 * left the group with `setsid` and daemons that double-forked away from the tree.
 * A descendant that both leaves the group and clears its environment is not found.
 */
export const HOOK_ID_ENV = 'HOOKWISE_HOOK_ID';

let runs = 0;

/**
 * Hook processes still running in this process, by marker. When this process ends
 * (a one-shot `hookwise claude-code` exits right after its answer, before a timed-out
 * hook's grace is over), whatever is left is SIGKILLed: a hook that ignores SIGTERM
 * (`trap "" TERM`) and its children never outlive the hookwise that started them.
 */
const running = new Map<string, { pgid: number; ended: Promise<void>; end: () => void }>();
let exitHookInstalled = false;

/** Start counting a hook process as running; `untrack` when it is over. */
export function track(hookId: string, pgid: number): void {
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  running.set(hookId, { pgid, ended, end });
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // 'exit' runs for process.exit() and a natural end; paths that skip it (reallyExit) call killAllHookProcesses themselves.
    process.on('exit', killAllHookProcesses);
  }
}

export function untrack(hookId: string): void {
  running.get(hookId)?.end();
  running.delete(hookId);
}

/** SIGKILL every hook process tree this process still runs (its group and its marked processes). */
export function killAllHookProcesses(): void {
  for (const [hookId, { pgid }] of running) killEverything(pgid, hookId);
}

/**
 * Resolves when every hook process still running is over (a timed-out one is killed
 * after its grace), or after `boundMs`, whichever comes first: what is left then is
 * killed as the process exits.
 */
export async function hookProcessesEnded(boundMs: number): Promise<void> {
  if (running.size === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, boundMs)));
  await Promise.race([Promise.all([...running.values()].map((r) => r.ended)), bound]);
  clearTimeout(timer);
}

/**
 * The same two functions for the CLI's envelope and resident, which must not load the
 * handlers just to find out that no hook process ever ran (start-up of every call).
 */
(globalThis as Record<symbol, unknown>)[Symbol.for('hookwise.hookProcesses')] = { killAllHookProcesses, hookProcessesEnded };

/** A marker no other run of this or another hookwise process shares. */
export function newHookId(): string {
  runs += 1;
  return `${process.pid}-${runs}-${Math.random().toString(36).slice(2, 10)}`;
}

/** Signal a whole process group; a group that is already gone is not an error. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** SIGKILL the group and every process that carries the marker. Returns how many marked processes were killed. */
export function killEverything(pgid: number, hookId: string): number {
  signalGroup(pgid, 'SIGKILL');
  if (process.platform !== 'linux') return 0;
  let killed = 0;
  // A killed process may have started another in between: look again until a pass finds none.
  for (let pass = 0; pass < 5; pass++) {
    const marked = markedProcesses(hookId);
    if (marked.length === 0) break;
    for (const pid of marked) {
      try {
        process.kill(pid, 'SIGKILL');
        killed += 1;
      } catch {
        // Gone already.
      }
    }
  }
  return killed;
}

/** Processes (other than this one) whose environment holds `HOOKWISE_HOOK_ID=<hookId>`. */
export function markedProcesses(hookId: string): number[] {
  const needle = Buffer.from(`\0${HOOK_ID_ENV}=${hookId}\0`);
  const first = Buffer.from(`${HOOK_ID_ENV}=${hookId}\0`);
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  // One buffer, three system calls a process: readFileSync would stat and grow a buffer for each.
  const buffer = Buffer.allocUnsafe(128 * 1024);
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const environ = readEnviron(pid, buffer);
    if (environ && (environ.includes(needle) || environ.subarray(0, first.length).equals(first))) found.push(pid);
  }
  return found;
}

function readEnviron(pid: number, buffer: Buffer): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(`/proc/${pid}/environ`, 'r');
  } catch {
    return undefined; // gone, or not ours to read
  }
  try {
    return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0));
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
