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

packRule('files', ['rm', 'srm', 'shred'], (inv, p) => {
  const o = operandsOf(inv, inv.name === 'shred' ? 'ns' : '', ['iterations', 'size', 'random-source']);
  // shred destroys each file it names (nothing restores an overwritten file); rm only what -r reaches.
  if (inv.name !== 'shred' && !has(o, '-r', '-R', '--recursive')) return;
  for (const op of o.operands) deletes(op, inv, p, `\`${inv.label} ${op.text}\``, undefined);
});

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

packRule('files', ['find'], (inv, p) => {
  const args = inv.args;
  if (!args.some((a) => a.value === '-delete')) return;
  let i = 0;
  const roots: Arg[] = [];
  while (i < args.length && !(args[i]!.value !== undefined && /^[-(!),]/.test(args[i]!.value!))) roots.push(args[i++]!);
  if (roots.length === 0) roots.push({ text: '.', value: '.', glob: false, dynamic: false });
  const rest = args.slice(i);
  const widened = rest.some((a) => a.value !== undefined && /^(-o|-or|!|-not|-prune|,)$/.test(a.value));
  // `-name '*.o'` narrows the loss to matching names; anything fancier is judged as the whole tree.
  const names: RegExp[] = [];
  for (let k = 0; k < rest.length; k++) {
    const v = rest[k]!.value;
    if ((v === '-name' || v === '-iname') && rest[k + 1]?.value !== undefined)
      names.push(globToRegExp(rest[k + 1]!.value!, v === '-iname'));
  }
  for (const r of roots) deletes(r, inv, p, `\`find ${r.text} ... -delete\``, widened ? undefined : names);
});

function deletes(op: Arg, inv: Invocation, p: PackApi, what: string, names: RegExp[] | undefined): void {
  if (op.dynamic || op.value === undefined) {
    // Nothing to look at: what it deletes is known only when it runs (docs/guards.md, the files pack).
    if (!IN_TEMP.test(op.text))
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
          (names === undefined || names.length === 0 || names.every((n) => n.test(path.posix.basename(e.file)))),
      );
      if (lost.length > 0)
        p.deny(
          'files/unrestorable',
          `${what} deletes ${describeFiles(lost)} that git cannot restore (untracked or changed since the last commit)`,
        );
      continue;
    }
    const count = countFiles(target, names);
    p.disk.note(`${target}: ${count >= WALK_LIMIT ? `${WALK_LIMIT}+` : count} file(s) outside any git repository`);
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

function countFiles(target: string, names: RegExp[] | undefined): number {
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
      if (!names?.length || names.every((n) => n.test(path.basename(dir)))) count++;
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
