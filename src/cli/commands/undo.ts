import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { Change, Checkpoints, Step } from '../../checkpoints/index.js';
import type { SetExit } from '../index.js';
import { UserError } from '../errors.js';

interface ProjectFlags {
  project?: string;
  json?: boolean;
}

/**
 * `hookwise undo`, `timeline` and `diff`: the steps an agent took in a workspace, what
 * each changed, and the way back (docs/security.md#undo). Exit 2 when undo refuses.
 */
export function defineUndo(program: Command, setExit: SetExit): void {
  const project = (c: Command) =>
    c
      .option('-p, --project <dir>', 'the workspace (default: the current folder, or the nearest folder above it with steps)')
      .option('--json', 'print JSON');

  project(
    program
      .command('undo')
      .description("Put the workspace back as it was before the agent's last step (or before --to <step>); the undo is a step too.")
      .option('--to <step>', 'go back to before this step (an undo step: redo what it undid)')
      .option('--force', 'overwrite changes made since the last step by someone other than the agent'),
  ).action(async (flags: ProjectFlags & { to?: string; force?: boolean }) => {
    const store = await storeFor(flags.project);
    const { CheckpointError } = await import('../../checkpoints/index.js');
    try {
      const undone = await store.undo({ ...(flags.to !== undefined && { to: stepNumber(flags.to) }), force: flags.force === true });
      if (flags.json) return print({ step: undone.step.n, undid: undone.undid, changes: undone.changes });
      const { summary } = await import('../../checkpoints/index.js');
      const which = undone.undid.length === 1 ? `step ${undone.undid[0]}` : `steps ${undone.undid.join(', ')}`;
      print(
        `undid ${which}: ${summary(undone.changes)} (this undo is step ${undone.step.n}: \`hookwise undo --to ${undone.step.n}\` redoes it)`,
      );
    } catch (error) {
      if (!(error instanceof CheckpointError) || error.code === 'CHECKPOINT_GIT_FAILED') throw error;
      process.stderr.write(`hookwise undo: ${error.message}\n`);
      setExit(2);
    }
  });

  project(
    program
      .command('timeline')
      .description('List the steps the agent took in the workspace: tool, command, and what each changed.')
      .option('--session <id>', 'only this session (default: every session kept)'),
  ).action(async (flags: ProjectFlags & { session?: string }) => {
    const store = await storeFor(flags.project);
    const steps = store.steps().filter((s) => flags.session === undefined || s.session === flags.session);
    if (flags.json) return print(steps.map(({ before, after, ...rest }) => rest));
    if (steps.length === 0) return print(`no steps kept for ${store.workspace}`);
    const { summary } = await import('../../checkpoints/index.js');
    for (const s of steps) print(timelineLine(s, summary));
  });

  project(
    program
      .command('diff')
      .description('Show what one step changed: each file added, changed or deleted, with sizes; --patch for the text.')
      .argument('<step>', 'the step number (`hookwise timeline` lists them)')
      .option('--patch', "the changed text, as git shows it (the workspace's files only)"),
  ).action(async (n: string, flags: ProjectFlags & { patch?: boolean }) => {
    const store = await storeFor(flags.project);
    const step = store.changesOf(stepNumber(n));
    if (step.after === undefined)
      throw new UserError(`step ${step.n} has not ended yet (or its agent never said it did): nothing to compare`);
    if (flags.json) return print(step.changes ?? []);
    if (flags.patch) {
      const { git } = await import('../../checkpoints/git.js');
      process.stdout.write(await git(['diff', '--no-color', step.before.files, step.after.files], { gitDir: store.repo.gitDir }));
      return;
    }
    print(`step ${step.n} (${step.tool}): ${step.what}`);
    for (const c of step.changes ?? []) print(changeLine(c, step.lost ?? []));
    if ((step.changes ?? []).length === 0) print('  no change');
  });
}

async function storeFor(project: string | undefined): Promise<Checkpoints> {
  const { Checkpoints, checkpointsDir } = await import('../../checkpoints/index.js');
  const start = path.resolve(project ?? process.cwd());
  if (!fs.existsSync(start)) throw new UserError(`--project: ${start} does not exist`);
  if (project !== undefined) return new Checkpoints(start);
  // From a subfolder, the workspace is the nearest folder above with steps kept.
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(checkpointsDir(dir), 'steps.jsonl'))) return new Checkpoints(dir);
    if (path.dirname(dir) === dir) return new Checkpoints(start);
  }
}

function stepNumber(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new UserError(`a step is a whole number from 1 (\`hookwise timeline\` lists them), got "${text}"`);
  return n;
}

function timelineLine(s: Step, summary: (c: Change[]) => string): string {
  const what = s.what.length > 70 ? `${s.what.slice(0, 69)}…` : s.what;
  const done = s.after === undefined ? 'running or not ended' : summary(s.changes ?? []);
  const lost = s.lost?.length ? `  LOST ${s.lost.length} (undo restores)` : '';
  return `${String(s.n).padStart(4)}  ${s.ts.slice(11, 19)}  ${s.tool.padEnd(10)}  ${what}  [${done}]${lost}`;
}

function changeLine(c: Change, lost: string[]): string {
  const sizes =
    c.status === 'added'
      ? `${c.after!.size} B`
      : c.status === 'deleted'
        ? `${c.before!.size} B`
        : `${c.before!.size} -> ${c.after!.size} B`;
  return `  ${c.status.padEnd(7)} ${c.path}  (${sizes})${lost.includes(c.path) ? '  lost: git cannot restore it' : ''}`;
}

function print(value: unknown): void {
  process.stdout.write(typeof value === 'string' ? `${value}\n` : `${JSON.stringify(value, null, 2)}\n`);
}
