import { readFileSync } from 'node:fs';

/** Running, not a zombie waiting for a reaper (in a container PID 1 may never reap it). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return true;
  }
}
