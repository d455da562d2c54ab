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
