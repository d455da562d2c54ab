import fs from 'node:fs';
import type { Change } from './changes.js';
import type { Trees } from './shadow-repo.js';

/** One step an agent took in the workspace, as the timeline shows it. */
export interface Step {
  n: number;
  session: string;
  ts: string;
  tool: string;
  /** What the agent asked for (the command as received, before any sandboxing), or the file a file tool wrote. */
  what: string;
  toolUseId?: string;
  /** The workspace before the step: what `hookwise undo` puts back. */
  before: Trees;
  /** The workspace after it (absent while it runs, or when the host never said it ended). */
  after?: Trees;
  changes?: Change[];
  /** Files the step deleted or emptied that git could not have given back. */
  lost?: string[];
  /** For an undo: the steps it undid. */
  undoes?: number[];
}

type Line =
  | { kind: 'step'; step: Omit<Step, 'after' | 'changes' | 'lost'> }
  | { kind: 'after'; n: number; after: Trees; changes: Change[]; lost: string[] }
  | { kind: 'pruned'; below: number };

/**
 * The steps of a workspace, one JSON line per event, appended: a crash mid-write
 * leaves at most a torn last line, which reading passes over. Each line goes in one
 * write(2) with O_APPEND, so writers in several processes never interleave within one.
 */
export class StepLog {
  constructor(readonly file: string) {}

  begin(step: Omit<Step, 'after' | 'changes' | 'lost'>): void {
    this.append({ kind: 'step', step });
  }

  end(n: number, after: Trees, changes: Change[], lost: string[]): void {
    this.append({ kind: 'after', n, after, changes, lost });
  }

  /**
   * Lets the steps below `n` go: the log is written again without them (aside, then
   * renamed over, so a reader sees the old log or the new one), and stays as long as
   * the steps it keeps.
   */
  prunedBelow(n: number): void {
    const { steps } = this.load();
    const lines: Line[] = [{ kind: 'pruned', below: n }];
    for (const { after, changes, lost, ...step } of steps.filter((s) => s.n >= n)) {
      lines.push({ kind: 'step', step });
      if (after !== undefined) lines.push({ kind: 'after', n: step.n, after, changes: changes ?? [], lost: lost ?? [] });
    }
    const aside = `${this.file}.${process.pid}`;
    fs.writeFileSync(aside, lines.map((line) => `${JSON.stringify(line)}\n`).join(''), { mode: 0o600 });
    fs.renameSync(aside, this.file);
  }

  private append(line: Line): void {
    const fd = fs.openSync(this.file, 'a', 0o600);
    try {
      fs.writeSync(fd, `${JSON.stringify(line)}\n`);
    } finally {
      fs.closeSync(fd);
    }
  }

  /** Every step still kept, oldest first. */
  read(): Step[] {
    return this.load().steps;
  }

  /**
   * The next step's number: one more than any written, pruned ones included. Steps are
   * written in order, so the last one begun says it; the log's tail is read, not the log.
   */
  nextNumber(): number {
    const last = this.lastBegun();
    if (last !== undefined) return last + 1;
    const { steps, below } = this.load();
    return Math.max(steps.at(-1)?.n ?? 0, below - 1) + 1;
  }

  /** The number of the last step begun, from the log's last 64 KiB (undefined when no step line is there). */
  private lastBegun(): number | undefined {
    let fd: number;
    try {
      fd = fs.openSync(this.file, 'r');
    } catch {
      return undefined;
    }
    try {
      const size = fs.fstatSync(fd).size;
      const tail = Buffer.alloc(Math.min(size, TAIL_BYTES));
      fs.readSync(fd, tail, 0, tail.length, size - tail.length);
      const lines = tail.toString('utf8').split('\n');
      // The first line may be cut by the window; a torn last line is passed over, as load() does.
      for (const raw of lines.slice(size > tail.length ? 1 : 0).reverse()) {
        const line = parse(raw);
        if (line?.kind === 'step') return line.step.n;
        if (line?.kind === 'pruned') return undefined;
      }
      return undefined;
    } finally {
      fs.closeSync(fd);
    }
  }

  private load(): { steps: Step[]; below: number } {
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { steps: [], below: 0 };
      throw error;
    }
    const steps = new Map<number, Step>();
    let below = 0;
    for (const raw of text.split('\n')) {
      const line = parse(raw);
      if (line === undefined) continue;
      if (line.kind === 'step') steps.set(line.step.n, { ...line.step });
      else if (line.kind === 'pruned') below = Math.max(below, line.below);
      else {
        const step = steps.get(line.n);
        if (step) Object.assign(step, { after: line.after, changes: line.changes, lost: line.lost });
      }
    }
    return { steps: [...steps.values()].filter((s) => s.n >= below).sort((a, b) => a.n - b.n), below };
  }
}

const TAIL_BYTES = 64 * 1024;

/** A line that does not parse is a torn write (a crash mid-append): it never happened. */
function parse(raw: string): Line | undefined {
  if (raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw) as Line;
  } catch {
    return undefined;
  }
}
