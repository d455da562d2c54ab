import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { FIELDS, SPLIT_AT, StatPool } from './stat-pool.js';
import { sameTrees, type Trees } from './trees.js';

/**
 * How long before a snapshot started a file must have last changed for its stat to
 * vouch for its bytes. File times come from a coarse clock (a tick of up to 10 ms, a
 * second or two on FAT and HFS+): a file written in the same tick as the one before
 * can keep every stat field, so a recent one proves nothing (git calls this "racy").
 */
const SETTLED_MS = 2_000;

/**
 * The proof, without starting git, that a workspace is as the last snapshot found it:
 * the lstat of every file and folder git reads for a snapshot (the workspace's files
 * and folders that are not ignored, each `.gitignore` whatever it says, every file of
 * `.git`), and the ignore rules from outside the workspace. A step that adds, deletes,
 * renames, writes or chmods anything there moves a ctime (a new or removed entry moves
 * its folder's), so when every stat still matches, the trees still hold, and a step
 * that changed nothing costs a stat per file instead of git's walk.
 *
 * The stats are taken after git read the files, and kept only when every ctime is
 * older than the snapshot's start by SETTLED_MS: a file that changed while git read it,
 * or just before, leaves no stamp, and the next snapshot asks git again.
 */
export class StatStamp {
  constructor(
    readonly workspace: string,
    readonly file: string,
  ) {}

  /** The trees of the last snapshot when nothing git would read has changed since; else undefined. */
  unchanged(excludes: string): Trees | undefined {
    const stamp = this.read();
    if (stamp?.digest === undefined) return undefined;
    const stats = statsOf(this.workspace, stamp.paths, stamp.digest);
    if (stats === undefined || digestOf(stats, excludes) !== stamp.digest) return undefined;
    return stamp.trees;
  }

  /**
   * After a snapshot that began at `started` and found `trees` (git was asked: the stamp
   * did not vouch): when they are what the last one found too (the workspace is at
   * rest), takes the stats that will vouch for them; else remembers the trees, so the
   * next snapshot at rest takes them. `ignored`
   * lists what git leaves out (folders with a trailing slash), so the walk skips it.
   */
  async record(trees: Trees, started: number, excludes: string, ignored: () => Promise<string[]>): Promise<void> {
    const last = this.read();
    if (last === undefined || !sameTrees(last.trees, trees)) {
      this.write({ trees, paths: [] });
      return;
    }
    const paths = walk(this.workspace, new Set(await ignored()));
    const stats = statsOf(this.workspace, paths);
    if (stats === undefined || !settled(stats, started)) return;
    this.write({ trees, paths, digest: digestOf(stats, excludes) });
  }

  /** After an undo, a prune or anything else that moves the trees under the stamp. */
  forget(): void {
    fs.rmSync(this.file, { force: true });
  }

  private read(): Stamp | undefined {
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(this.file);
    } catch {
      return undefined;
    }
    const newline = bytes.indexOf(10);
    try {
      const head = JSON.parse(bytes.subarray(0, newline).toString('utf8')) as Omit<Stamp, 'paths'>;
      const rest = bytes.subarray(newline + 1).toString('utf8');
      return { ...head, paths: rest === '' ? [] : rest.split('\0') };
    } catch {
      // Torn by a crash mid-write (it is renamed into place, so only by a broken disk): no proof.
      return undefined;
    }
  }

  /** Whole or not at all: written aside, then renamed over the old one. */
  private write(stamp: Stamp): void {
    const { paths, ...head } = stamp;
    const aside = `${this.file}.${process.pid}`;
    fs.writeFileSync(aside, `${JSON.stringify(head)}\n${paths.join('\0')}`, { mode: 0o600 });
    fs.renameSync(aside, this.file);
  }
}

interface Stamp {
  trees: Trees;
  /** Paths relative to the workspace, each file and folder that vouches. */
  paths: string[];
  /** A hash of their stats and of the ignore rules from outside; absent until the workspace is at rest. */
  digest?: string;
}

/**
 * Every path git reads for a snapshot: the workspace less what git ignores (a
 * `.gitignore` is read whatever it says), and all of `.git`, which is kept whole.
 */
function walk(workspace: string, ignored: Set<string>): string[] {
  const paths = ['.'];
  const visit = (rel: string, whole: boolean) => {
    for (const entry of fs.readdirSync(path.join(workspace, rel), { withFileTypes: true })) {
      const child = rel === '.' ? entry.name : `${rel}/${entry.name}`;
      const folder = entry.isDirectory();
      const skip = !whole && entry.name !== '.gitignore' && ignored.has(folder ? `${child}/` : child);
      if (skip) continue;
      paths.push(child);
      if (folder) visit(child, whole || child === '.git');
    }
  };
  visit('.', false);
  return paths;
}

/** One thread's second, shared by every stamp of the process (stat-pool.ts). */
export const statPool = new StatPool();

/**
 * Each path's stat fields in a row; undefined when one is gone. A large list the stamp
 * already holds (`key`, its digest) is split with the pool's thread.
 */
export function statsOf(workspace: string, paths: string[], key?: string, splitAt = SPLIT_AT): Float64Array | undefined {
  // Tens of thousands of calls on a large workspace: no path.join, no array per row.
  const prefix = `${path.resolve(workspace)}/`;
  const rowsFrom = (stats: Float64Array, from: number) => {
    for (let i = from; i < paths.length; i++) if (!statRow(stats, i, prefix, paths[i]!)) return false;
    return true;
  };
  if (key !== undefined && paths.length >= splitAt) {
    const shared = statPool.stat(`${prefix}\0${key}`, prefix, paths, rowsFrom);
    if (shared === undefined) return undefined;
    if (shared !== 'unavailable') {
      // The worker states `.git` as a plain folder; it vouches by its names (namesOf).
      const git = paths.indexOf('.git');
      if (git >= 0 && !statRow(shared, git, prefix, '.git')) return undefined;
      return shared;
    }
  }
  const stats = new Float64Array(paths.length * FIELDS);
  return rowsFrom(stats, 0) ? stats : undefined;
}

/** Row `i` of `stats`: the fields of `rel`'s lstat; false when it is gone. The pool's worker repeats the plain case. */
export function statRow(stats: Float64Array, i: number, prefix: string, rel: string): boolean {
  const file = prefix + rel;
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  if (stat === undefined) return false;
  const names = rel === '.git' && stat.isDirectory();
  const row = i * FIELDS;
  stats[row] = stat.ino;
  stats[row + 1] = names ? 0 : stat.size;
  stats[row + 2] = stat.mode;
  stats[row + 3] = names ? namesOf(file) : stat.mtimeMs;
  stats[row + 4] = names ? 0 : stat.ctimeMs;
  return true;
}

/**
 * `.git` itself vouches by the names in it, not by its times: every `git status` (the
 * agent's, an editor's in the background) makes and removes `index.lock` there, which
 * moves the folder's times and changes nothing kept. A file added or removed there
 * changes the names; one rewritten, its own stat.
 */
function namesOf(folder: string): number {
  const names = fs.readdirSync(folder).sort().join('\0');
  return createHash('sha256').update(names).digest().readUIntBE(0, 6);
}

/** Every ctime older than the snapshot's start by SETTLED_MS (a ctime ahead of this clock, another machine's on a network disk, is not). */
function settled(stats: Float64Array, started: number): boolean {
  for (let i = FIELDS - 1; i < stats.length; i += FIELDS) {
    if (stats[i]! >= started - SETTLED_MS) return false;
  }
  return true;
}

function digestOf(stats: Float64Array, excludes: string): string {
  return createHash('sha256').update(new Uint8Array(stats.buffer)).update(excludes).digest('hex');
}
