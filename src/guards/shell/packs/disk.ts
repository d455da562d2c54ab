/**
 * Looking on disk for what a command would destroy: `git status` of the
 * repository a folder belongs to. One look per repository per judgement (a
 * command line with three destructive commands in one repository runs git
 * once); nothing is cached between judgements, since the work tree changes.
 */
import { spawnSync } from 'node:child_process';
import { READ_ONLY_BWRAP } from '../../../sandbox/bwrap.js';
import { detectSandbox } from '../../../sandbox/detect.js';
import fs from 'node:fs';
import path from 'node:path';

/** One changed path, relative to the repository root. `??` untracked, `!!` ignored, else tracked and changed. */
export interface StatusEntry {
  code: string;
  file: string;
}

export interface GitStatus {
  root: string;
  entries: StatusEntry[];
}

/** How long one git look may take before hookwise gives up and treats the loss as unknown. */
const GIT_TIMEOUT_MS = 3000;

export class DiskLook {
  /** What was looked at, in order (for `hookwise guard shell --explain`). */
  readonly looks: string[] = [];
  private readonly statuses = new Map<string, GitStatus | undefined>();
  private readonly stashes = new Map<string, number | undefined>();

  /** The work tree root holding `folder` (a `.git` folder or file above it), else undefined. */
  repoRoot(folder: string): string | undefined {
    for (let dir = path.resolve(folder); ; dir = path.dirname(dir)) {
      if (fs.existsSync(path.join(dir, '.git'))) return dir;
      if (path.dirname(dir) === dir) return undefined;
    }
  }

  /** `git status` of the repository holding `folder`; undefined when there is none or git fails. */
  status(folder: string, ignored = false): GitStatus | undefined {
    const root = this.repoRoot(folder);
    if (root === undefined) {
      this.note(`no git repository holds ${folder}`);
      return undefined;
    }
    const key = `${ignored ? 'i' : 'n'}${root}`;
    if (this.statuses.has(key)) return this.statuses.get(key);
    if (!looksLikeRepository(root)) {
      this.note(`${root}/.git is not a repository git can read (no HEAD)`);
      this.statuses.set(key, undefined);
      return undefined;
    }
    const args = ['status', '--porcelain=v1', '-z', '--untracked-files=all', ...(ignored ? ['--ignored=matching'] : [])];
    const out = this.git(root, args);
    const status = out === undefined ? undefined : { root, entries: parseStatus(out) };
    this.note(
      status
        ? `git ${args.join(' ')} in ${root}: ${status.entries.length} entr${status.entries.length === 1 ? 'y' : 'ies'}`
        : `git status failed in ${root}`,
    );
    this.statuses.set(key, status);
    return status;
  }

  /** How many stashes the repository holding `folder` has; undefined when git cannot say. */
  stashCount(folder: string): number | undefined {
    const root = this.repoRoot(folder);
    if (root === undefined) return undefined;
    if (this.stashes.has(root)) return this.stashes.get(root);
    const out = this.git(root, ['stash', 'list', '-z']);
    const count = out === undefined ? undefined : out.split('\0').filter(Boolean).length;
    this.note(count === undefined ? `git stash list failed in ${root}` : `git stash list in ${root}: ${count} stash(es)`);
    this.stashes.set(root, count);
    return count;
  }

  /** Whether the repository holding `folder` has the branch; undefined when git cannot say. */
  hasBranch(folder: string, name: string): boolean | undefined {
    const root = this.repoRoot(folder);
    if (root === undefined) return false;
    const ref = `refs/heads/${name}`;
    const out = this.git(root, ['for-each-ref', '--format=%(refname)', ref]);
    const found = out === undefined ? undefined : out.split('\n').includes(ref);
    this.note(found === undefined ? `git for-each-ref failed in ${root}` : `branch ${name} in ${root}: ${found ? 'exists' : 'none'}`);
    return found;
  }

  note(line: string): void {
    this.looks.push(line);
  }

  private git(root: string, args: string[]): string | undefined {
    // No optional locks (a look must not change the index); no fsmonitor program.
    const git = ['git', '--no-optional-locks', '-c', 'core.fsmonitor=false', '-C', root, ...args];
    // A repository the agent made has the agent's config (filter drivers, …): git runs where it can change nothing and reach nothing.
    const sandbox = detectSandbox();
    const argv = sandbox.ok && process.platform === 'linux' ? [sandbox.program, ...READ_ONLY_BWRAP, '--', ...git] : git;
    const r = spawnSync(argv[0]!, argv.slice(1), {
      encoding: 'utf8',
      timeout: GIT_TIMEOUT_MS,
      maxBuffer: 16 << 20,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
    });
    return r.status === 0 && !r.error ? r.stdout : undefined;
  }
}

/** A `.git` folder with a HEAD, or a `.git` file pointing elsewhere (worktrees, submodules): worth asking git. */
function looksLikeRepository(root: string): boolean {
  const dotGit = path.join(root, '.git');
  try {
    return fs.statSync(dotGit).isFile() || fs.existsSync(path.join(dotGit, 'HEAD'));
  } catch {
    return false;
  }
}

function parseStatus(out: string): StatusEntry[] {
  const parts = out.split('\0');
  const entries: StatusEntry[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p.length < 4) continue;
    const code = p.slice(0, 2);
    entries.push({ code, file: p.slice(3) });
    // A rename or copy is followed by its original name.
    if (code[0] === 'R' || code[0] === 'C') i++;
  }
  return entries;
}

/** Entries at or under one of the absolute paths (all of them when `under` is undefined). */
export function entriesUnder(status: GitStatus, under: string[] | undefined): StatusEntry[] {
  if (under === undefined) return status.entries;
  return status.entries.filter((e) => {
    const abs = path.join(status.root, e.file);
    return under.some((u) => abs === u || abs.startsWith(u.endsWith(path.sep) ? u : u + path.sep) || u === status.root);
  });
}

/** "3 files (a.ts, b.ts, c.ts)" / "14 files (a.ts, b.ts, c.ts, ...)". */
export function describeFiles(entries: StatusEntry[]): string {
  const names = entries.slice(0, 3).map((e) => e.file);
  return `${entries.length} file${entries.length === 1 ? '' : 's'} (${names.join(', ')}${entries.length > 3 ? ', ...' : ''})`;
}
