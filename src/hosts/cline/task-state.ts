import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { userStateDir } from '../../audit/head-copy.js';
import { HostStateError } from '../errors.js';

/**
 * What hookwise keeps about one Cline task (or, for approvals, one project) between its
 * hook calls, in files under the user's state folder (`<state>/cline/<hash of the key>/`,
 * the key `task:<id>` or `approvals:<project>`), not in the
 * resident: a resident restarted mid-task, or a call answered without one, finds the
 * same state. Every step that must happen once is a file created with O_EXCL (the first
 * creator wins, across processes); every record is written whole (a temporary file
 * renamed over it), so a reader never sees half of one.
 */
const ROOT = 'cline';
/** A folder untouched this long belongs to a task long over: removed when a new task starts. */
const STALE_MS = 7 * 24 * 3600_000;

export interface Recorded {
  context: string | null;
  /** Why the run must end (the event's Outcome stopped it), if it must. */
  stop?: string;
}

export class TaskState {
  private constructor(readonly dir: string) {}

  static of(key: string, stateDir: string = userStateDir()): TaskState {
    const root = path.join(stateDir, ROOT);
    const dir = path.join(root, createHash('sha256').update(key).digest('hex').slice(0, 32));
    if (!existsSync(dir)) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      pruneStale(root);
    }
    return new TaskState(dir);
  }

  /** True for the one caller that creates `name` first; false for every later one. */
  claim(name: string): boolean {
    try {
      closeSync(openSync(this.file(name), 'wx', 0o600));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw new HostStateError(`cannot write hookwise's Cline task state ${this.file(name)}: ${(error as Error).message}`);
    }
  }

  has(name: string): boolean {
    return existsSync(this.file(name));
  }

  /** The names in this task's folder that start with `prefix` (temporary files left out). */
  names(prefix: string): string[] {
    return readdirSync(this.dir)
      .filter((n) => n.startsWith(prefix) && !n.includes('.tmp-'))
      .sort();
  }

  record(name: string, value: Recorded): void {
    const file = this.file(`${name}.json`);
    const tmp = `${file}.tmp-${process.pid}-${Date.now()}`;
    writeFileSync(tmp, JSON.stringify(value), { mode: 0o600 });
    renameSync(tmp, file);
  }

  recorded(name: string): Recorded | undefined {
    let text: string;
    try {
      text = readFileSync(this.file(`${name}.json`), 'utf8');
    } catch {
      return undefined;
    }
    const value = JSON.parse(text) as Recorded;
    return {
      context: typeof value.context === 'string' ? value.context : null,
      ...(typeof value.stop === 'string' && { stop: value.stop }),
    };
  }

  /** The record once it is there, reading every POLL_MS until `ms` have passed (then undefined). */
  async awaitRecord(name: string, ms: number, signal?: AbortSignal): Promise<Recorded | undefined> {
    const until = Date.now() + ms;
    for (;;) {
      const value = this.recorded(name);
      if (value || Date.now() >= until || signal?.aborted) return value;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  private file(name: string): string {
    return path.join(this.dir, name);
  }
}

const POLL_MS = 50;

function pruneStale(root: string): void {
  const now = Date.now();
  for (const name of readdirSync(root)) {
    const dir = path.join(root, name);
    try {
      if (now - statSync(dir).mtimeMs > STALE_MS) rmSync(dir, { recursive: true, force: true });
    } catch {}
  }
}
