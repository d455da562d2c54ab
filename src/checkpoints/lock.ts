import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { CheckpointError } from './errors.js';

/** Calls in this process wait for each other per folder; other processes, through the lock file. */
const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `work` holding the workspace's checkpoint lock: parallel tool calls (subagents,
 * several agents in one project) snapshot one after another, never into one index at
 * once. The lock file holds its owner's pid; a lock whose owner is gone (killed
 * mid-snapshot) is taken over.
 */
export function withLock<T>(file: string, work: () => Promise<T>, waitMs = 60_000): Promise<T> {
  const before = queues.get(file) ?? Promise.resolve();
  const mine = before.then(
    () => holding(file, work, waitMs),
    () => holding(file, work, waitMs),
  );
  queues.set(file, mine);
  const forget = () => {
    if (queues.get(file) === mine) queues.delete(file);
  };
  mine.then(forget, forget);
  return mine;
}

async function holding<T>(file: string, work: () => Promise<T>, waitMs: number): Promise<T> {
  await acquire(file, waitMs);
  try {
    return await work();
  } finally {
    fs.rmSync(file, { force: true });
  }
}

async function acquire(file: string, waitMs: number): Promise<void> {
  const until = Date.now() + waitMs;
  for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (ownerGone(file)) {
      fs.rmSync(file, { force: true });
      continue;
    }
    if (Date.now() > until) {
      throw new CheckpointError(`another process has held ${file} for over ${waitMs / 1000} s`, 'CHECKPOINT_LOCKED');
    }
    await sleep(pause);
  }
}

function ownerGone(file: string): boolean {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
  // Written but not yet filled in by its owner: wait for it.
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
