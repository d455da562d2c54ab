/**
 * The files pack: a recursive delete inside the workspace is fine for files git
 * tracks and that are unchanged (git brings them back) and for build output
 * (a build makes it again); it is refused for untracked or modified work.
 */
import fs from 'node:fs';
import path from 'node:path';
import { has, valuesOf, type Arg } from '../args.js';
import { operandsOf } from '../commands/registry.js';
import type { Invocation } from '../types.js';
import { describeFiles, entriesUnder } from './disk.js';
import { isBuildOutput } from './git.js';
import { packRule, type PackApi } from './registry.js';

/** A run-time path in the temporary folder (`$TMPDIR/x`, `$(mktemp -d)`): the sandbox's own, nothing of the user's. */
const IN_TEMP = /^"?(\$\{?TMPDIR\b|\$\(mktemp\b)/;

/** How many entries a folder outside any repository may hold before hookwise stops counting. */
const WALK_LIMIT = 2000;

packRule('files', ['rm', 'srm', 'shred', 'unlink'], (inv, p) => {
  const o = operandsOf(inv, inv.name === 'shred' ? 'ns' : '', ['iterations', 'size', 'random-source']);
  // shred destroys each file it names (nothing restores an overwritten file); rm what -r reaches, else the files it names.
  const recursive = inv.name === 'shred' || has(o, '-r', '-R', '--recursive');
  for (const op of o.operands)
    if (recursive) deletes(op, inv, p, `\`${inv.label} ${op.text}\``, undefined);
    else judgeFileLoss(op, p, `\`${inv.label} ${op.text}\` deletes`);
});

// `truncate -s 0 f` empties f: a delete that keeps the name.
packRule('files', ['truncate'], (inv, p) => {
  const o = operandsOf(inv, 'sr', ['size', 'reference']);
  for (const op of o.operands) judgeFileLoss(op, p, `\`${inv.label} ${op.text}\` empties`);
});

/**
 * Deleting or emptying one file (`rm f`, `unlink f`, `truncate -s 0 f`): refused when f holds
 * work git cannot restore (untracked and not ignored, or changed since the last commit and not
 * staged). Writing over a file (`> f`, `cp x f`, `tee f`) is an edit, as the agent's file tools
 * make, and is not judged here. Outside a repository, or where git cannot be read, a single file
 * is not judged (docs/guards.md#rule-packs).
 */
function judgeFileLoss(op: Arg, p: PackApi, what: string): void {
  if (op.dynamic || op.glob || op.value === undefined) return;
  for (const cwd of p.judge.cwds ?? []) {
    if (!p.judge.isInside(op.value, cwd)) continue;
    let real: string;
    try {
      real = fs.realpathSync(path.resolve(cwd, op.value));
      if (!fs.statSync(real).isFile()) continue;
    } catch {
      continue; // nothing there, nothing lost
    }
    const root = p.disk.repoRoot(path.dirname(real));
    const file = root === undefined ? '' : path.relative(root, real).split(path.sep).join('/');
    if (root === undefined || isBuildOutput(file)) continue;
    const entry = p.disk.status(path.dirname(real))?.entries.find((e) => e.file === file);
    // `??` untracked; a second letter other than a space: the work tree differs from what the index keeps.
    if (entry && entry.code !== '!!' && (entry.code === '??' || entry.code[1] !== ' '))
      p.deny(
        'files/unrestorable',
        `${what} ${op.text}, which holds work git cannot restore (${entry.code === '??' ? 'untracked' : 'changed since the last commit'})`,
      );
  }
}

// `mv` out of the workspace takes the sources away: judged as deleting them. (Into the
// sandbox's own /tmp they are gone when the command ends.) A move within it is a rename.
packRule('files', ['mv'], (inv, p) => {
  const o = operandsOf(inv, 'tS', ['target-directory', 'suffix']);
  const target = valuesOf(o, '-t', '--target-directory')[0];
  const sources = target ? o.operands : o.operands.slice(0, -1);
  const to = target ?? o.operands.at(-1);
  if (to === undefined || to.dynamic || to.value === undefined || sources.length === 0) return;
  const cwds = p.judge.cwds ?? [];
  if (cwds.every((cwd) => p.judge.isInside(to.value!, cwd))) return;
  for (const op of sources) deletes(op, inv, p, `\`${inv.label} ${op.text} ${to.text}\``, undefined);
});

/** find's own words: what an `-exec … ;` runs is its command's (`-exec echo -delete ;` deletes nothing). */
function findActions(args: Arg[]): Arg[] {
  const own: Arg[] = [];
  for (let k = 0; k < args.length; k++) {
    own.push(args[k]!);
    if (/^-(exec|execdir|ok|okdir)$/.test(args[k]!.value ?? ''))
      while (k + 1 < args.length && !/^(;|\+)$/.test(args[k + 1]!.value ?? '')) k++;
  }
  return own;
}

/** `-exec rm {} +`, `-execdir rm -rf {} \;`: find deleting what it finds, as -delete does. */
function execRemoves(args: Arg[]): 'files' | 'recursive' | undefined {
  const i = args.findIndex(
    (a, k) =>
      /^-(exec|execdir|ok|okdir)$/.test(a.value ?? '') && /^(rm|unlink|shred|srm)$/.test(path.posix.basename(args[k + 1]?.value ?? '')),
  );
  if (i < 0) return undefined;
  const end = args.findIndex((a, k) => k > i && /^(;|\+)$/.test(a.value ?? ''));
  const own = args.slice(i + 2, end < 0 ? undefined : end);
  return own.some((a) => /^(-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)$/.test(a.value ?? '')) ? 'recursive' : 'files';
}

// `rsync -a --delete from/ to/`: what `to` holds and `from` lacks is deleted.
packRule('files', ['rsync'], (inv, p) => {
  if (!inv.args.some((a) => /^--(delete|del|delete-(before|during|delay|after|excluded))$/.test(a.value ?? ''))) return;
  if (inv.args.some((a) => /^(-n|--dry-run|--list-only)$/.test(a.value ?? '') || /^-[a-zA-Z]*n[a-zA-Z]*$/.test(a.value ?? ''))) return;
  const o = operandsOf(inv, 'eBfT', [
    'rsh',
    'rsync-path',
    'filter',
    'exclude',
    'include',
    'exclude-from',
    'include-from',
    'files-from',
    'temp-dir',
    'link-dest',
    'compare-dest',
    'copy-dest',
    'backup-dir',
    'suffix',
    'chmod',
    'chown',
    'log-file',
    'password-file',
    'block-size',
    'max-size',
    'min-size',
    'timeout',
    'port',
    'bwlimit',
    'partial-dir',
    'out-format',
  ]);
  const to = o.operands.at(-1);
  if (o.operands.length < 2 || to === undefined || /^[^/]*:/.test(to.value ?? '')) return; // a remote destination: not the workspace
  deletes(to, inv, p, `\`${inv.label} ${to.text}\``, undefined);
});

packRule('files', ['find'], (inv, p) => {
  const args = inv.args;
  const exec = execRemoves(args);
  if (!findActions(args).some((a) => a.value === '-delete') && !exec) return;
  let i = 0;
  const roots: Arg[] = [];
  while (i < args.length && !(args[i]!.value !== undefined && /^[-(!),]/.test(args[i]!.value!))) roots.push(args[i++]!);
  if (roots.length === 0) roots.push({ text: '.', value: '.', glob: false, dynamic: false });
  const rest = args.slice(i);
  // `-prune` only stops the walk below a match; with -delete (which implies -depth) it is judged as widening, as before.
  const widened = rest.some((a) => a.value !== undefined && (/^(-o|-or|!|-not|,)$/.test(a.value) || (!exec && a.value === '-prune')));
  // `-name '*.o'` narrows the loss to matching names; anything fancier is judged as the whole tree.
  const names: RegExp[] = [];
  for (let k = 0; k < rest.length; k++) {
    const v = rest[k]!.value;
    if ((v === '-name' || v === '-iname') && rest[k + 1]?.value !== undefined)
      names.push(globToRegExp(rest[k + 1]!.value!, v === '-iname'));
  }
  // `-exec rm -rf {} +` deletes each match with all it holds: a file is lost when any folder above it matches.
  const matches = widened || names.length === 0 ? undefined : exec === 'recursive' ? anySegment(names) : lastSegment(names);
  for (const r of roots) deletes(r, inv, p, `\`find ${r.text} ... ${exec ? '-exec rm' : '-delete'}\``, matches);
});

const lastSegment = (names: RegExp[]) => (file: string) => names.every((n) => n.test(path.posix.basename(file)));
const anySegment = (names: RegExp[]) => (file: string) => file.split('/').some((seg) => names.every((n) => n.test(seg)));

/** A recursive delete of `op` that code in another language makes (`shutil.rmtree('src')`), judged as `rm -r` is. */
export function judgeDeletion(op: Arg, inv: Invocation, p: PackApi, what: string): void {
  deletes(op, inv, p, what, undefined);
}

function deletes(op: Arg, inv: Invocation, p: PackApi, what: string, matches: ((file: string) => boolean) | undefined): void {
  if (op.dynamic || op.value === undefined) {
    // Nothing to look at: what it deletes is known only when it runs (docs/guards.md, the files pack).
    if (!IN_TEMP.test(op.text) && !p.judge.holdsNewTemp(op.text))
      p.irreversible(
        'files/run-time-path',
        `${what} deletes a path known only when it runs, so hookwise cannot look at what would be lost`,
      );
    return;
  }
  const raw = op.glob ? globFolder(op.pattern ?? op.value) : op.value;
  // Build output by name (`rm -rf ./build ./dist`) needs no look; a trailing slash may follow a link, so it is looked at.
  if (!raw.endsWith('/') && !path.isAbsolute(raw) && isBuildOutput(path.posix.normalize(raw).replace(/^\.\//, ''))) return;
  const cwds = path.isAbsolute(raw) ? [p.cwd ?? p.judge.cwds?.[0] ?? '/'] : p.judge.cwds;
  if (cwds === undefined) return;
  for (const cwd of cwds) {
    if (!p.judge.isInside(raw, cwd)) continue; // outside the workspace: the path rules decide
    let target: string;
    try {
      target = fs.realpathSync(path.resolve(cwd, raw));
    } catch {
      continue; // nothing there, nothing lost
    }
    const root = p.disk.repoRoot(target);
    if (
      isBuildOutput(
        path
          .relative(root ?? cwd, target)
          .split(path.sep)
          .join('/'),
      )
    ) {
      p.disk.note(`${target} is build output`);
      continue;
    }
    const status = p.disk.status(target);
    if (status) {
      const lost = entriesUnder(status, [target]).filter(
        (e) =>
          e.code !== '!!' &&
          !isBuildOutput(e.file) &&
          (matches === undefined ||
            matches(
              path.posix.relative(
                path
                  .relative(root ?? cwd, target)
                  .split(path.sep)
                  .join('/'),
                e.file,
              ),
            )),
      );
      if (lost.length > 0 && p.judge.madeThisSession(lost.map((e) => path.join(root ?? cwd, e.file)))) {
        p.disk.note(`${target}: ${lost.length} file(s) the agent made this session (its checkpoints hold them)`);
        continue;
      }
      if (lost.length > 0)
        p.deny(
          'files/unrestorable',
          `${what} deletes ${describeFiles(lost)} that git cannot restore (untracked or changed since the last commit)`,
        );
      continue;
    }
    const files: string[] = [];
    const count = countFiles(target, matches, files);
    p.disk.note(`${target}: ${count >= WALK_LIMIT ? `${WALK_LIMIT}+` : count} file(s) outside any git repository`);
    if (count > 0 && count < WALK_LIMIT && files.length === count && p.judge.madeThisSession(files)) {
      p.disk.note(`${target}: the agent made them this session (its checkpoints hold them)`);
      continue;
    }
    if (count > 0)
      p.irreversible(
        'files/no-repository',
        `${what} deletes ${count >= WALK_LIMIT ? `more than ${WALK_LIMIT}` : count} file(s) that no git repository holds, so nothing shows they can be restored`,
      );
  }
  void inv;
}

/** The folder part of a glob: `src/*.ts` -> `src`. */
function globFolder(pattern: string): string {
  const parts = pattern.split('/');
  const first = parts.findIndex((part) => /(^|[^\\])[*?[]/.test(part));
  return parts.slice(0, first).join('/').replace(/\\(.)/g, '$1') || (pattern.startsWith('/') ? '/' : '.');
}

/** The files below `target` (up to WALK_LIMIT looked at); each file counted is added to `files`. */
function countFiles(target: string, matches: ((file: string) => boolean) | undefined, files: string[] = []): number {
  let count = 0;
  let seen = 0;
  const stack = [target];
  while (stack.length > 0 && seen < WALK_LIMIT) {
    const dir = stack.pop()!;
    let st: fs.Stats;
    try {
      st = fs.lstatSync(dir);
    } catch {
      continue;
    }
    seen++;
    if (!st.isDirectory()) {
      if (!matches || matches(path.relative(target, dir).split(path.sep).join('/') || path.basename(dir))) {
        count++;
        files.push(dir);
      }
      continue;
    }
    try {
      for (const e of fs.readdirSync(dir)) if (!isBuildOutput(e)) stack.push(path.join(dir, e));
    } catch {
      count++;
    }
  }
  return seen >= WALK_LIMIT ? Math.max(count, WALK_LIMIT) : count;
}

function globToRegExp(glob: string, insensitive: boolean): RegExp {
  const body = glob
    .replace(/[.+^${}()|\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`, insensitive ? 'i' : '');
}
