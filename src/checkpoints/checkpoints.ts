import fs from 'node:fs';
import path from 'node:path';
import { projectStateDir } from '../audit/paths.js';
import { changesBetween, type Change } from './changes.js';
import { CheckpointError } from './errors.js';
import { withLock } from './lock.js';
import { lostFiles } from './loss.js';
import { ShadowRepo } from './shadow-repo.js';
import { sameTrees } from './trees.js';
import { StepLog, type Step } from './steps.js';

/** How much history a workspace keeps (checkpointGuard's `keep`; docs/security.md#undo). */
export interface KeepLimits {
  /** Steps kept; older ones are let go. Default 1000. */
  steps?: number;
  /** Bytes hookwise's repository may take; the oldest steps go first. Default 2 GiB. */
  bytes?: number;
}

export const DEFAULT_KEEP: Required<KeepLimits> = { steps: 1000, bytes: 2 * 1024 ** 3 };

/** What the agent is about to do. */
export interface StepStart {
  session: string;
  tool: string;
  what: string;
  toolUseId?: string;
}

export interface StepEnd {
  step: Step;
  changes: Change[];
  lost: string[];
}

export interface UndoOptions {
  /** Put the workspace back as it was before this step (default: the last step not undone yet). */
  to?: number;
  /** Overwrite changes made since the last step by someone other than the agent. */
  force?: boolean;
}

export interface Undone {
  /** The undo's own step (undo it to redo). */
  step: Step;
  /** The steps it undid. */
  undid: number[];
  changes: Change[];
}

/**
 * A workspace's checkpoints: the state before every step that can write, kept in
 * hookwise's state folder (`<state>/projects/<project>/checkpoints`), out of the
 * agent's reach; the steps' log; undo.
 */
export class Checkpoints {
  readonly repo: ShadowRepo;
  readonly log: StepLog;
  private readonly lockFile: string;
  private readonly keep: Required<KeepLimits>;
  private sinceRetention = 0;

  constructor(
    readonly workspace: string,
    options: { dir?: string; keep?: KeepLimits } = {},
  ) {
    const dir = options.dir ?? checkpointsDir(workspace);
    this.repo = new ShadowRepo(workspace, dir);
    this.log = new StepLog(path.join(dir, 'steps.jsonl'));
    this.lockFile = path.join(dir, 'lock');
    this.keep = { ...DEFAULT_KEEP, ...options.keep };
  }

  /** Takes the checkpoint a step starts from and opens the step. */
  begin(start: StepStart): Promise<Step> {
    return this.locked(async () => {
      const before = await this.repo.snapshot();
      const step: Step = { n: this.log.nextNumber(), ts: new Date().toISOString(), ...start, before };
      this.log.begin(step);
      return step;
    });
  }

  /** The open step for this call: by the host's tool-use id, else the session's latest open step of the tool. */
  openStep(session: string, tool: string, toolUseId?: string): Step | undefined {
    const open = this.log.read().filter((s) => s.after === undefined && s.session === session);
    if (toolUseId !== undefined) return open.find((s) => s.toolUseId === toolUseId);
    return open.filter((s) => s.tool === tool).at(-1);
  }

  /** Closes a step: what it changed, and which of those files git could not have given back. */
  end(step: Step): Promise<StepEnd> {
    return this.locked(async () => {
      const after = await this.repo.snapshot();
      const changes = await changesBetween(this.repo.gitDir, step.before, after);
      const lost = await lostFiles(this.repo.gitDir, step.before, changes);
      this.log.end(step.n, after, changes, lost);
      await this.retain();
      return { step: { ...step, after, changes, lost }, changes, lost };
    });
  }

  steps(): Step[] {
    return this.log.read();
  }

  /** Puts the workspace back as it was before a step; itself a step, so it can be undone. */
  undo(options: UndoOptions = {}): Promise<Undone> {
    return this.locked(async () => {
      const steps = this.log.read();
      const target = targetOf(steps, options.to);
      const now = await this.repo.snapshot();
      const last = steps.at(-1)!;
      if (last.after !== undefined && !sameTrees(last.after, now) && !options.force) {
        const outside = await changesBetween(this.repo.gitDir, last.after, now);
        throw new CheckpointError(outsideMessage(last.n, outside), 'CHECKPOINT_CHANGED_OUTSIDE');
      }
      if (!(await this.repo.has(target.before))) {
        throw new CheckpointError(
          `the checkpoint before step ${target.n} is gone (kept: steps ${steps[0]!.n}-${last.n})`,
          'CHECKPOINT_GONE',
        );
      }
      const undone = undoneSet(steps);
      const undid = steps.filter((s) => s.n >= target.n && !undone.has(s.n) && s.undoes === undefined).map((s) => s.n);
      const undoes = target.undoes !== undefined && options.to === target.n ? [target.n] : undid;
      const step: Step = {
        n: last.n + 1,
        session: last.session,
        ts: new Date().toISOString(),
        tool: 'hookwise undo',
        what: `back to before step ${target.n}`,
        before: now,
        undoes,
      };
      this.log.begin(step);
      await this.repo.restore(target.before, now);
      const after = await this.repo.snapshot();
      const changes = await changesBetween(this.repo.gitDir, now, after);
      this.log.end(step.n, after, changes, []);
      return { step: { ...step, after, changes, lost: [] }, undid: undoes, changes };
    });
  }

  /** What step `n` changed. */
  changesOf(n: number): Step {
    const step = this.log.read().find((s) => s.n === n);
    if (!step) throw new CheckpointError(`no step ${n} in ${this.workspace} (\`hookwise timeline\` lists them)`, 'CHECKPOINT_NO_STEP');
    return step;
  }

  /** Every change to the store, its creation included, happens holding the workspace's lock. */
  private locked<T>(work: () => Promise<T>): Promise<T> {
    fs.mkdirSync(path.dirname(this.lockFile), { recursive: true, mode: 0o700 });
    return withLock(this.lockFile, () => this.repo.init().then(work));
  }

  /** Lets the oldest steps go past the limits; checked every 50 steps, so the common step pays nothing. */
  private async retain(): Promise<void> {
    if (++this.sinceRetention < 50) return;
    this.sinceRetention = 0;
    let steps = this.log.read();
    const over = () => steps.length > this.keep.steps;
    if (!over() && (await this.repo.bytes()) <= this.keep.bytes) return;
    while (steps.length > 1 && (over() || (await this.repo.bytes()) > this.keep.bytes)) {
      const from = over() ? steps.length - this.keep.steps : Math.ceil(steps.length / 4);
      steps = steps.slice(from);
      this.log.prunedBelow(steps[0]!.n);
      await this.repo.prune(steps.flatMap((s) => (s.after ? [s.before, s.after] : [s.before])));
    }
  }
}

/** `<state>/projects/<project>/checkpoints`. */
export function checkpointsDir(workspace: string): string {
  return path.join(projectStateDir(workspace), 'checkpoints');
}

/** Steps undone by an undo that is not itself undone. */
function undoneSet(steps: Step[]): Set<number> {
  const undone = new Set<number>();
  for (const s of steps) {
    for (const n of s.undoes ?? []) {
      const undid = steps.find((x) => x.n === n);
      // Undoing an undo gives back what it had undone.
      for (const m of undid?.undoes ?? []) undone.delete(m);
      undone.add(n);
    }
  }
  return undone;
}

function targetOf(steps: Step[], to: number | undefined): Step {
  if (steps.length === 0) throw new CheckpointError('no steps to undo in this workspace', 'CHECKPOINT_NO_STEP');
  if (to !== undefined) {
    const step = steps.find((s) => s.n === to);
    if (!step) {
      throw new CheckpointError(
        `no step ${to} here (kept: steps ${steps[0]!.n}-${steps.at(-1)!.n}; \`hookwise timeline\` lists them)`,
        'CHECKPOINT_NO_STEP',
      );
    }
    return step;
  }
  const undone = undoneSet(steps);
  const step = steps.findLast((s) => s.undoes === undefined && !undone.has(s.n));
  if (!step)
    throw new CheckpointError('every step here is undone already (`hookwise undo --to <step>` redoes an undo)', 'CHECKPOINT_NO_STEP');
  return step;
}

function outsideMessage(n: number, changes: Change[]): string {
  const shown = changes.slice(0, 10).map((c) => `  ${c.status} ${c.path}`);
  const more = changes.length > 10 ? [`  … and ${changes.length - 10} more`] : [];
  return [
    `the workspace changed after step ${n} outside the agent's steps; undo would overwrite:`,
    ...shown,
    ...more,
    'Keep those changes elsewhere first, or run `hookwise undo --force` to overwrite them.',
  ].join('\n');
}
