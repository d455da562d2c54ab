/** The git pack: verbs that discard uncommitted work, history or someone else's commits. */
import fs from 'node:fs';
import path from 'node:path';
import type { Arg } from '../args.js';
import type { Invocation } from '../types.js';
import { describeFiles, entriesUnder, type GitStatus } from './disk.js';
import { packRule, type PackApi } from './registry.js';

/** git's own options before the subcommand, and the folder it acts on. */
export function gitCommand(inv: Invocation, cwd: string | undefined): { sub?: string; rest: Arg[]; cwd: string | undefined } {
  const args = inv.args;
  let where = cwd;
  let i = 0;
  for (; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined) return { rest: [], cwd: undefined };
    if (!v.startsWith('-')) break;
    if (v === '-C') {
      const d = args[++i];
      where = d?.value === undefined || where === undefined ? undefined : path.resolve(where, d.value);
    } else if (v === '-c' || v === '--namespace' || v === '--config-env') i++;
    else if (v === '--git-dir' || v === '--work-tree') {
      i++;
      where = undefined;
    } else if (/^--(git-dir|work-tree)=/.test(v)) where = undefined;
  }
  return { sub: args[i]?.value, rest: args.slice(i + 1), cwd: where };
}

/** The options of a verb: what comes before `--` (after it, `-f` is a file or branch name). */
const options = (rest: Arg[]) => {
  const dashes = rest.findIndex((a) => a.value === '--');
  return dashes < 0 ? rest : rest.slice(0, dashes);
};
const flag = (rest: Arg[], re: RegExp) => options(rest).some((a) => a.value !== undefined && re.test(a.value));
/**
 * `-fd`, `-xdf`: a short-option cluster holding the letter. A letter in `valued` takes the rest of
 * the cluster as its value (`checkout -bfeature` is `-b feature`), so nothing after it is an option.
 */
const short = (rest: Arg[], letter: string, valued = '') =>
  options(rest).some((a) => {
    if (a.value === undefined || !/^-[a-zA-Z]/.test(a.value) || a.value.startsWith('--')) return false;
    for (const c of a.value.slice(1)) {
      if (c === letter) return true;
      if (valued.includes(c) || !/[a-zA-Z]/.test(c)) return false;
    }
    return false;
  });

/** Paths after `--`, or operands that exist on disk; undefined = the whole repository (or unknowable). */
function pathspecs(rest: Arg[], cwd: string, onlyAfterDashes: boolean): string[] | undefined | 'none' {
  const dashes = rest.findIndex((a) => a.value === '--');
  const candidates = dashes >= 0 ? rest.slice(dashes + 1) : onlyAfterDashes ? [] : rest.filter((a) => !a.value?.startsWith('-'));
  if (candidates.length === 0) return 'none';
  const out: string[] = [];
  for (const a of candidates) {
    if (a.dynamic || a.glob || a.value === undefined || a.value.startsWith(':')) return undefined;
    out.push(path.resolve(cwd, a.value));
  }
  return out;
}

/** Judge a verb that discards tracked changes under `under` (undefined: everywhere). */
function discards(p: PackApi, rule: string, what: string, cwd: string | undefined, under: string[] | undefined): void {
  // Bringing back files that are not there (`git checkout -- deleted.ts`) overwrites nothing.
  if (under?.every((u) => !fs.existsSync(u))) return;
  if (cwd === undefined) {
    p.irreversible(rule, `\`${what}\` discards uncommitted changes in a folder only known when it runs`);
    return;
  }
  const status = p.disk.status(cwd);
  if (!status) {
    p.irreversible(rule, `\`${what}\` discards uncommitted changes, and git status could not be read in ${cwd}`);
    return;
  }
  const lost = entriesUnder(status, under).filter((e) => e.code !== '??' && e.code !== '!!');
  if (lost.length > 0) p.deny(rule, `\`${what}\` discards changes to ${describeFiles(lost)} tracked and not committed`);
}

function untrackedLoss(
  p: PackApi,
  rule: string,
  what: string,
  cwd: string | undefined,
  under: string[] | undefined,
  scope: 'untracked' | 'ignored' | 'both',
) {
  const ignoredToo = scope !== 'untracked';
  if (cwd === undefined) {
    p.irreversible(rule, `\`${what}\` deletes untracked files in a folder only known when it runs`);
    return;
  }
  const status: GitStatus | undefined = p.disk.status(cwd, ignoredToo);
  if (!status) {
    p.irreversible(rule, `\`${what}\` deletes untracked files, and git status could not be read in ${cwd}`);
    return;
  }
  const lost = entriesUnder(status, under).filter(
    (e) => (e.code === '??' && scope !== 'ignored') || (ignoredToo && e.code === '!!' && !isBuildOutput(e.file)),
  );
  if (lost.length > 0) p.deny(rule, `\`${what}\` deletes ${describeFiles(lost)} that git does not track, so nothing can restore them`);
}

/** Output a build makes again: losing it loses nothing. */
export function isBuildOutput(file: string): boolean {
  return /(^|\/)(node_modules|dist|build|out|target|coverage|\.next|\.nuxt|\.turbo|\.cache|__pycache__|\.pytest_cache|\.mypy_cache|\.ruff_cache|\.tox|\.gradle|\.parcel-cache|\.svelte-kit|tmp|\.venv|venv)(\/|$)|\.(pyc|o|class|log)$/.test(
    file,
  );
}

/**
 * A program (or a git verb or option) known only when it runs (`$CMD`, `g$(printf it)`, a glob
 * such as `/usr/b?n/git`, `git $(printf reset) --hard`) may be `git reset --hard` or `rm -rf .`, and the sandbox lets the workspace be written: where
 * the repository holds work git cannot restore, that is irreversible. With nothing to
 * lose (a clean tree) or no repository to look at, the sandbox contains it as before.
 */
export function judgeUnknownProgram(rule: string, what: string, p: PackApi): void {
  for (const cwd of p.judge.cwds ?? []) {
    const status = p.disk.status(cwd);
    const lost = status?.entries.filter((e) => e.code !== '!!' && !isBuildOutput(e.file)) ?? [];
    if (lost.length > 0) {
      p.irreversible(
        rule,
        `${what} is known only when it runs, and could discard ${describeFiles(lost)} that git cannot restore (untracked or changed since the last commit)`,
      );
      return;
    }
  }
}

// After `cd sub && …` the command may run in either folder: each is looked at.
packRule('git', ['git'], (inv, p) => {
  for (const folder of p.judge.cwds ?? [undefined]) judgeGit(inv, p, folder);
});

/** Verbs that can discard local work, depending on their options and operands. */
const LOCAL_LOSS = new Set(['reset', 'checkout', 'restore', 'switch', 'clean', 'stash']);

function judgeGit(inv: Invocation, p: PackApi, folder: string | undefined): void {
  const { sub, rest, cwd } = gitCommand(inv, folder);
  if (sub === undefined) {
    if (!inv.args.some((a) => a.dynamic)) return;
    // Any verb at all, `push --force` included: only the sandbox's closed network contains the remote side.
    p.judge.unprovable(`\`${inv.label}\` runs a git verb known only when it runs`);
    judgeUnknownProgram('git/unknown-verb', `The git verb in \`${inv.label}\``, p);
    return;
  }
  if (LOCAL_LOSS.has(sub) && rest.some((a) => a.dynamic)) {
    judgeUnknownProgram('git/unknown-argument', `An argument of \`git ${sub}\``, p);
    return;
  }
  const line = ['git', sub, ...rest.filter((a) => a.value?.startsWith('-')).map((a) => a.value)].join(' ');
  const dryRun = flag(rest, /^(--dry-run|-n)$/);
  switch (sub) {
    case 'reset':
      if (flag(rest, /^--(hard|merge)$/)) discards(p, 'git/reset-hard', line, cwd, undefined);
      return;
    case 'checkout': {
      if (flag(rest, /^--force$/) || short(rest, 'f', 'bBU')) {
        discards(p, 'git/checkout-discard', line, cwd, undefined);
        return;
      }
      if (flag(rest, /^(-t|--orphan|--detach|--track)$/) || short(rest, 'b', 'BU') || short(rest, 'B', 'bU')) return;
      // `--pathspec-from-file`: the files are named only in a file, so any changed file may be among them.
      if (flag(rest, /^--pathspec-from-file(=|$)/)) {
        discards(p, 'git/checkout-discard', line, cwd, undefined);
        return;
      }
      // `git checkout -- x`, `git checkout .`, `git checkout HEAD file`: files are overwritten from the index or a commit.
      const dashes = rest.some((a) => a.value === '--');
      const operands = rest.filter((a) => !a.value?.startsWith('-'));
      if (!dashes && operands.length === 1 && !isPathOnDisk(operands[0]!, cwd)) return;
      // Without `--`, a first operand of several is the commit the files come from.
      const named = dashes ? rest : operands.length > 1 ? operands.slice(1) : operands;
      const under = cwd === undefined ? undefined : pathspecs(named, cwd, false);
      if (under === 'none') return;
      discards(p, 'git/checkout-discard', `git checkout ${operands.map((a) => a.text).join(' ')}`, cwd, under);
      return;
    }
    case 'restore': {
      const staged = flag(rest, /^(-S|--staged)$/) || short(rest, 'S', 's');
      const worktree = flag(rest, /^(-W|--worktree)$/) || short(rest, 'W', 's');
      if (staged && !worktree) return;
      const fromFile = flag(rest, /^--pathspec-from-file(=|$)/);
      const under = cwd === undefined || fromFile ? undefined : pathspecs(rest, cwd, false);
      if (under === 'none') return;
      discards(p, 'git/restore-discard', `git restore ${rest.map((a) => a.text).join(' ')}`, cwd, under);
      return;
    }
    case 'switch':
      if (flag(rest, /^--(force|discard-changes)$/) || short(rest, 'f', 'cC')) discards(p, 'git/switch-discard', line, cwd, undefined);
      return;
    case 'clean': {
      const force = flag(rest, /^--force$/) || short(rest, 'f', 'e');
      if (!force || dryRun || short(rest, 'n', 'e')) return;
      // -x: untracked and ignored files; -X: only ignored ones.
      const scope = short(rest, 'X', 'e') ? 'ignored' : short(rest, 'x', 'e') ? 'both' : 'untracked';
      const under = cwd === undefined ? undefined : pathspecs(rest, cwd, false);
      untrackedLoss(p, 'git/clean-force', line, cwd, under === 'none' ? undefined : under, scope);
      return;
    }
    case 'stash': {
      const verb = rest.find((a) => !a.value?.startsWith('-'))?.value;
      if (verb !== 'drop' && verb !== 'clear') return;
      const count = cwd === undefined ? undefined : p.disk.stashCount(cwd);
      if (count === 0) return;
      if (count === undefined)
        p.irreversible(`git/stash-${verb}`, `\`git stash ${verb}\` deletes stashed work, and git stash list could not be read`);
      else
        p.deny(
          `git/stash-${verb}`,
          `\`git stash ${verb}\` deletes ${verb === 'clear' ? `all ${count} stashes` : 'a stash'}, work saved nowhere else`,
        );
      return;
    }
    case 'branch': {
      // Letters as git reads them, alone or in a cluster (`-df` is `-d -f`); `-u` takes a value.
      const letter = (c: string) => short(rest, c, 'u');
      const force = flag(rest, /^--force$/) || letter('f');
      if (letter('D') || ((flag(rest, /^--delete$/) || letter('d')) && force))
        p.deny('git/branch-force-delete', `\`${line}\` deletes a branch even when its commits are merged nowhere else`);
      else if (letter('M') || letter('C') || ((flag(rest, /^--(move|copy)$/) || letter('m') || letter('c')) && force))
        p.deny('git/branch-force-move', `\`${line}\` overwrites an existing branch`);
      else if (force && branchExists(rest, p, cwd))
        p.deny('git/branch-force-move', `\`${line}\` moves an existing branch, leaving the commits only it held behind`);
      return;
    }
    case 'push':
      pushRules(rest, p, line);
      return;
    case 'reflog':
      if (rest[0]?.value === 'expire' || rest[0]?.value === 'delete')
        p.deny('git/reflog-expire', `\`git reflog ${rest[0].value}\` deletes the record git uses to bring back reset or deleted commits`);
      return;
    case 'gc':
      if (flag(rest, /^--prune=(now|all|0)/) || flag(rest, /^--prune$/))
        p.deny('git/gc-prune', `\`${line}\` deletes unreachable commits now, the ones a reset or a deleted branch left behind`);
      return;
    case 'prune':
      if (!dryRun) p.deny('git/prune', '`git prune` deletes unreachable commits, the ones a reset or a deleted branch left behind');
      return;
    case 'filter-branch':
    case 'filter-repo':
      p.deny('git/rewrite-history', `\`git ${sub}\` rewrites the whole history of the repository`);
      return;
    case 'update-ref':
      if (flag(rest, /^--stdin$/) || short(rest, 'd', 'm'))
        p.deny('git/update-ref-delete', `\`${line}\` deletes or rewrites a ref directly, without the reflog safety of branch -d`);
      return;
    case 'tag':
      if (flag(rest, /^--delete$/) || short(rest, 'd', 'umFn'))
        p.deny('git/tag-delete', `\`${line}\` deletes a tag; a tag that was pushed then differs from everyone else's`);
      return;
    case 'worktree':
      if (rest[0]?.value === 'remove' && (flag(rest, /^--force$/) || short(rest, 'f')))
        p.deny('git/worktree-force-remove', `\`${line}\` removes a work tree with its uncommitted changes`);
      return;
    case 'submodule':
      if (rest.find((a) => !a.value?.startsWith('-'))?.value === 'deinit' && (flag(rest, /^--force$/) || short(rest, 'f')))
        p.deny('git/worktree-force-remove', `\`${line}\` deletes submodule work trees with their uncommitted changes`);
      return;
  }
}

function pushRules(rest: Arg[], p: PackApi, line: string): void {
  if (flag(rest, /^--dry-run$/) || short(rest, 'n')) return;
  // `--force` disables the lease's check (git-push(1)), so a lease protects only without it; the last of --[no-]force-with-lease counts.
  const leases = options(rest).filter((a) => /^--(no-)?force-with-lease/.test(a.value ?? ''));
  const force = flag(rest, /^--force(=|$)/) || short(rest, 'f', 'o');
  const lease = !force && leases.length > 0 && !leases.at(-1)!.value!.startsWith('--no-');
  const operands = rest.filter((a) => !a.value?.startsWith('-'));
  const refspecs = operands.slice(1);
  if (force && !lease) {
    const value = rest.find((a) => /^--force=/.test(a.value ?? ''))?.value;
    if (value === undefined || !/^--force=(false|no|off|0)$/i.test(value))
      p.deny(
        'git/push-force',
        `\`${line}\` overwrites the remote branch, and commits others pushed there are lost; use --force-with-lease`,
      );
  }
  if (!lease && refspecs.some((a) => a.value?.startsWith('+')))
    p.deny('git/push-force', `\`git push ${operands.map((a) => a.text).join(' ')}\` force-pushes a +refspec; use --force-with-lease`);
  if (flag(rest, /^--(delete|mirror|prune)$/) || short(rest, 'd', 'o') || refspecs.some((a) => a.value?.startsWith(':')))
    p.deny('git/push-delete', `\`${line}\` deletes branches or tags on the remote`);
}

/** `git branch -f name [start]`: moving a branch that exists; creating a new one loses nothing. Unknown: it may exist. */
function branchExists(rest: Arg[], p: PackApi, cwd: string | undefined): boolean {
  const name = options(rest).find((a) => !a.value?.startsWith('-'));
  if (name === undefined) return false;
  if (name.value === undefined || name.dynamic || cwd === undefined) return true;
  return p.disk.hasBranch(cwd, name.value) ?? true;
}

function isPathOnDisk(a: Arg, cwd: string | undefined): boolean {
  if (a.value === undefined || a.dynamic) return true;
  if (a.glob || a.value === '.' || a.value.includes('/')) return true;
  if (cwd === undefined) return false;
  try {
    return fs.existsSync(path.resolve(cwd, a.value));
  } catch {
    return false;
  }
}
