import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CheckpointError } from './errors.js';
import { git, run } from './git.js';
import { StatStamp } from './stat-stamp.js';
import type { Trees } from './trees.js';

export type { Trees } from './trees.js';

/** git's empty tree: what a workspace without a `.git` folder restores `.git` to. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
/** What git says of a file that was there when it listed the folder and gone when it read it. */
const VANISHED = /unable to stat|unable to index|No such file or directory|could not open .* for reading/;

/**
 * What hookwise keeps of a workspace: a bare git repository of its own in the state
 * folder (out of the agent's reach), with two indexes: one over the workspace's files
 * (ignored files left out, as git leaves them out), one over its `.git` folder, file by
 * file (history, refs, stash, reflog, the staging area). git's index remembers each
 * file's stat, so a snapshot of an unchanged workspace reads no file; objects are
 * written once, by content.
 */
export class ShadowRepo {
  readonly gitDir: string;
  private readonly filesIndex: string;
  private readonly gitIndex: string;
  private readonly filesExclude: string;
  private readonly dotGitExclude: string;
  private readonly metaFile: string;
  /** What the last snapshot found changed in the second it ran, which its next one hashes again (SNAPSHOT_SCRIPT). */
  private readonly recentFiles: string;
  private readonly recentGit: string;
  private readonly stamp: StatStamp;
  private ready = false;
  /** Ids this process has seen kept by a ref (a workspace snapshots the same trees over and over). */
  private readonly kept = new Set<string>();

  constructor(
    readonly workspace: string,
    readonly dir: string,
  ) {
    this.gitDir = path.join(dir, 'repo.git');
    this.filesIndex = path.join(dir, 'files.index');
    this.gitIndex = path.join(dir, 'git.index');
    this.filesExclude = path.join(dir, 'files.exclude');
    this.dotGitExclude = path.join(dir, 'git.exclude');
    this.metaFile = path.join(dir, 'meta.tmp');
    this.recentFiles = path.join(dir, 'recent-files');
    this.recentGit = path.join(dir, 'recent-git');
    this.stamp = new StatStamp(workspace, path.join(dir, 'stamp'));
  }

  private get dotGit(): string {
    return path.join(this.workspace, '.git');
  }

  /** Makes the repository once; its config pins what is stored (no end-of-line conversion, links as links). */
  async init(): Promise<void> {
    if (this.ready) return;
    if (!fs.existsSync(path.join(this.gitDir, 'HEAD'))) {
      fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      await git(['init', '--bare', '--quiet'], { gitDir: this.gitDir });
      fs.writeFileSync(path.join(this.gitDir, 'config'), SHADOW_CONFIG);
      fs.mkdirSync(path.join(this.gitDir, 'info'), { recursive: true });
      // The workspace's own attributes must not convert what is stored: bytes in, the same bytes out.
      fs.writeFileSync(path.join(this.gitDir, 'info', 'attributes'), '* -text -filter -ident -working-tree-encoding\n');
      // hookwise's own state is never rolled back with the work (an audit trail in .hookwise/ included).
      fs.writeFileSync(path.join(this.gitDir, 'info', 'exclude'), '');
      // Nothing in .git is left out: a lock file an agent leaves behind is taken back too.
      fs.writeFileSync(this.dotGitExclude, '');
      await git(['hash-object', '-t', 'tree', '-w', '--stdin'], { gitDir: this.gitDir, input: '' });
    }
    this.ready = true;
  }

  /** The user's own ignore rules for the workspace's files, gathered into one file (filesExcludes). */
  private writeFilesExclude(): string {
    const text = filesExcludes(this.workspace);
    let old: string | undefined;
    try {
      old = fs.readFileSync(this.filesExclude, 'utf8');
    } catch {
      old = undefined;
    }
    if (old !== text) fs.writeFileSync(this.filesExclude, text);
    return text;
  }

  /**
   * The workspace as it is now. When every file's stat says nothing changed since the
   * last snapshot (./stat-stamp.ts), its trees, with no process started; else one process
   * start: git adds both folders and writes their trees.
   */
  async snapshot(): Promise<Trees> {
    await this.init();
    const excludes = this.writeFilesExclude();
    const unchanged = this.stamp.unchanged(excludes);
    if (unchanged !== undefined) return unchanged;
    const started = Date.now();
    const trees = await this.snapshotAgain();
    await this.stamp.record(trees, started, excludes, () => this.ignored());
    return trees;
  }

  /**
   * A file that goes between git listing it and reading it (the user's git packing its
   * objects in the background, a build deleting its temp files) fails the add: the
   * snapshot is taken again, a few times.
   */
  private async snapshotAgain(): Promise<Trees> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.snapshotOnce();
      } catch (error) {
        if (attempt >= 5 || !(error instanceof CheckpointError) || !VANISHED.test(error.message)) throw error;
      }
    }
  }

  /**
   * What git leaves out of the workspace's snapshot without looking inside: ignored files,
   * and folders an ignore rule names, with a trailing slash. (`--ignored=matching` is the
   * mode that says so; `ls-files --directory` also names a folder whose files are each
   * ignored, and git walks that one.)
   */
  private async ignored(): Promise<string[]> {
    const out = await git(
      [
        '--no-optional-locks',
        '-c',
        `core.excludesFile=${this.filesExclude}`,
        'status',
        '--porcelain=v1',
        '-z',
        '--ignored=matching',
        '--untracked-files=all',
      ],
      { gitDir: this.gitDir, cwd: this.workspace, env: { GIT_WORK_TREE: this.workspace, GIT_INDEX_FILE: this.filesIndex } },
    );
    return out
      .split('\0')
      .filter((entry) => entry.startsWith('!! '))
      .map((entry) => entry.slice(3));
  }

  private async snapshotOnce(): Promise<Trees> {
    this.clearStaleLocks();
    const hasGit = isFolder(this.dotGit);
    const out = (await run('/bin/sh', ['-c', SNAPSHOT_SCRIPT, 'snapshot', ...this.scriptArgs(hasGit)], { gitDir: this.gitDir })) as string;
    const ids = out.trim().split('\n');
    const [files, dotGit] = ids;
    const meta = ids[hasGit ? 2 : 1];
    if (ids.length < (hasGit ? 2 : 1) || ids.length > (hasGit ? 3 : 2) || !ids.every((id) => /^[0-9a-f]{40,64}$/.test(id)))
      throw new CheckpointError(`git wrote no tree for ${this.workspace}: ${JSON.stringify(out.slice(0, 500))}`);
    for (const id of ids) this.kept.add(id);
    return { files: files!, git: hasGit ? dotGit! : null, ...(meta !== undefined && { meta }) };
  }

  private scriptArgs(hasGit: boolean): string[] {
    const keptAlready = [...this.kept].slice(-64).join(' ');
    return [
      this.workspace,
      this.filesIndex,
      this.filesExclude,
      hasGit ? this.dotGit : '',
      this.gitIndex,
      this.dotGitExclude,
      this.metaFile,
      keptAlready,
      // The real clock (a test's fake Date does not move file times), a second early.
      String(Math.floor((performance.timeOrigin + performance.now()) / 1000) - 1),
      this.recentFiles,
      this.recentGit,
    ];
  }

  /**
   * Puts the workspace back as `target` was. Call it right after snapshot() took `now`, so each
   * index holds the workspace as it is: git then removes what the step added, writes
   * back what it changed or deleted, and leaves ignored files alone.
   */
  async restore(target: Trees, now: Trees): Promise<void> {
    this.stamp.forget();
    const tree = (workTree: string, index: string) => ({ gitDir: this.gitDir, env: { GIT_WORK_TREE: workTree, GIT_INDEX_FILE: index } });
    await git(['read-tree', '--reset', '-u', target.files], tree(this.workspace, this.filesIndex));
    if (target.git !== null) {
      if (!isFolder(this.dotGit)) {
        fs.rmSync(this.dotGit, { force: true });
        fs.mkdirSync(this.dotGit);
        fs.rmSync(this.gitIndex, { force: true });
      }
      await git(['read-tree', '--reset', '-u', target.git], tree(this.dotGit, this.gitIndex));
      await this.readOnlyObjects(now.git, target.git);
    } else if (isFolder(this.dotGit)) {
      // The step made the repository: it goes, as everything else the step added.
      await git(['read-tree', '--reset', '-u', EMPTY_TREE], tree(this.dotGit, this.gitIndex));
      removeEmptyFolders(this.dotGit);
    }
    const [wanted, had] = await Promise.all([this.metaOf(target), this.metaOf(now)]);
    this.restoreMeta(wanted, had);
  }

  /**
   * git makes its loose objects read-only. They are too many to list each one's mode in
   * every snapshot, so the ones an undo wrote back are made read-only again here.
   */
  private async readOnlyObjects(now: string | null, target: string): Promise<void> {
    const out = await git(
      ['diff-tree', '-r', '-z', '--name-only', '--no-renames', '--diff-filter=AM', now ?? EMPTY_TREE, target, '--', 'objects'],
      {
        gitDir: this.gitDir,
      },
    );
    for (const file of out.split('\0')) {
      if (/^objects\/[0-9a-f]{2}\/[0-9a-f]+$/.test(file)) fs.chmodSync(path.join(this.dotGit, file), 0o444);
    }
  }

  private async metaOf(trees: Trees): Promise<Meta> {
    const meta: Meta = { empty: [], modes: [] };
    if (trees.meta === undefined) return meta;
    const text = await git(['cat-file', 'blob', trees.meta], { gitDir: this.gitDir });
    for (const entry of text.split('\0')) {
      const space = entry.indexOf(' ');
      if (space < 0) continue;
      const kind = entry.slice(0, space);
      const file = entry.slice(space + 1).replace(/^\.\//, '');
      if (kind === 'd') meta.empty.push(file);
      else if (/^[0-7]{1,4}$/.test(kind)) meta.modes.push([file, Number.parseInt(kind, 8)]);
    }
    return meta;
  }

  /**
   * Empty folders the target had come back, empty ones it did not have go; modes other
   * than 644 and 755 are set again, and a path the step gave such a mode gets git's
   * own back (git rewrites a file only when its bytes or its executable bit differ).
   */
  private restoreMeta(wanted: Meta, had: Meta): void {
    for (const folder of wanted.empty) fs.mkdirSync(path.join(this.workspace, folder), { recursive: true });
    const modes = new Map(wanted.modes);
    for (const [file] of had.modes) {
      if (!modes.has(file)) modes.set(file, undefined);
    }
    for (const [file, mode] of modes) {
      const full = path.join(this.workspace, file);
      const stat = fs.lstatSync(full, { throwIfNoEntry: false });
      // Gone (a lock file git's own tree did not bring back), or a link: nothing to set.
      if (stat === undefined || stat.isSymbolicLink()) continue;
      fs.chmodSync(full, mode ?? (stat.isDirectory() || stat.mode & 0o100 ? 0o755 : 0o644));
    }
    this.removeEmptyFolders(wanted.empty, had.empty);
  }

  private removeEmptyFolders(wanted: string[], had: string[]): void {
    const keep = new Set(wanted);
    const extra = had.filter((f) => !keep.has(f)).sort((a, b) => b.length - a.length);
    for (const folder of extra) {
      // Up through the folders the step made around it, while they hold nothing else.
      for (let f = folder; f !== '.' && f !== '' && !keep.has(f); f = path.dirname(f)) {
        try {
          fs.rmdirSync(path.join(this.workspace, f));
        } catch {
          break;
        }
      }
    }
  }

  /** Whether git still has every object of these trees (retention may have let them go). */
  async has(trees: Trees): Promise<boolean> {
    const ids = objectsOf([trees]);
    const out = await git(['cat-file', '--batch-check'], { gitDir: this.gitDir, input: `${ids.join('\n')}\n` });
    return !out.includes('missing');
  }

  /** Lets go of every tree not in `trees`, then of the objects only they held. */
  async prune(trees: Trees[]): Promise<void> {
    const wanted = new Set(objectsOf(trees));
    const refs = (await git(['for-each-ref', '--format=%(refname)', 'refs/kept/'], { gitDir: this.gitDir })).split('\n').filter(Boolean);
    const drop = refs.filter((r) => !wanted.has(r.slice('refs/kept/'.length)));
    if (drop.length > 0) {
      await git(['update-ref', '--stdin'], { gitDir: this.gitDir, input: drop.map((r) => `delete ${r}\n`).join('') });
    }
    await git(['prune', '--expire=now'], { gitDir: this.gitDir });
    this.kept.clear();
    this.stamp.forget();
    // The indexes remember the trees they last wrote, and those may be gone now: the next snapshot hashes afresh.
    for (const index of [this.filesIndex, this.gitIndex]) fs.rmSync(index, { force: true });
  }

  /** Bytes the repository takes on disk. */
  async bytes(): Promise<number> {
    const out = await git(['count-objects', '-v'], { gitDir: this.gitDir });
    const kib = (name: string) => Number(new RegExp(`^${name}: (\\d+)`, 'm').exec(out)?.[1] ?? 0);
    return (kib('size') + kib('size-pack')) * 1024;
  }

  /**
   * A crash (or a kill) mid-snapshot leaves git's `index.lock` behind, and every later
   * snapshot would fail on it. Only hookwise writes these indexes, and only while it
   * holds the workspace's lock (./lock.ts), so a lock file seen now is a dead one.
   */
  private clearStaleLocks(): void {
    for (const index of [this.filesIndex, this.gitIndex]) fs.rmSync(`${index}.lock`, { force: true });
  }
}

/**
 * The config of hookwise's repository: nothing of the user's or the agent's is read
 * (GIT_CONFIG_GLOBAL=/dev/null, ./git.ts), so this is every setting in force.
 */
const SHADOW_CONFIG = `[core]
\trepositoryformatversion = 0
\tbare = true
\tautocrlf = false
\tsafecrlf = false
\tsymlinks = true
\tfilemode = true
\tfsmonitor = false
\thooksPath = /dev/null
\tquotePath = false
\tlooseCompression = 1
\tpreloadIndex = true
\tuntrackedCache = true
\tlogAllRefUpdates = false
[gc]
\tauto = 0
[advice]
\taddEmbeddedRepo = false
\taddIgnoredFile = false
`;

/**
 * One shell, several git runs: a process start from Node costs more than git's own work
 * on an unchanged workspace. $1 workspace, $2 its index, $3 its excludes, $4 its .git
 * folder (empty: none), $5 that folder's index, $6 its excludes, $7 a scratch file for what trees
 * leave out, $8 the ids already kept by a ref, $9 a second before now (epoch seconds),
 * $10 and $11 the paths of each folder that changed since $9.
 *
 * git's index compares a file's ctime to the second only: a file rewritten in the second
 * it last changed, with the same size and its mtime put back, looks unchanged to it, and a
 * snapshot would keep the old bytes. So each snapshot lists what changed in its own second
 * ($10, $11), and the next one drops those entries from the index first: git hashes them again.
 */
const SNAPSHOT_SCRIPT = `set -e
if [ -s "\${10}" ]; then GIT_WORK_TREE="$1" GIT_INDEX_FILE="$2" git update-index -z --force-remove --stdin < "\${10}"; fi
GIT_WORK_TREE="$1" GIT_INDEX_FILE="$2" git -c core.excludesFile="$3" add -A
files=$(GIT_INDEX_FILE="$2" git write-tree)
dotgit=
if [ -n "$4" ]; then
  if [ -s "\${11}" ]; then GIT_WORK_TREE="$4" GIT_INDEX_FILE="$5" git update-index -z --force-remove --stdin < "\${11}"; fi
  # -f: .git is kept whole, a .gitignore written into it leaves nothing out.
  GIT_WORK_TREE="$4" GIT_INDEX_FILE="$5" git -c core.excludesFile="$6" add -A -f
  dotgit=$(GIT_INDEX_FILE="$5" git write-tree)
fi
cd "$1"
# Paths reach find as data (-files0-from), never as arguments: a file named -delete is a name.
{
  GIT_WORK_TREE="$1" GIT_INDEX_FILE="$2" git -c core.excludesFile="$3" ls-files -z -o --directory --exclude-standard |
    find -files0-from - -type d -empty -printf 'd %p\\0'
  # The modes git's trees do not keep (644 and 755 only): of files, and of the folders holding them.
  { GIT_WORK_TREE="$1" GIT_INDEX_FILE="$2" git ls-files -z; git ls-tree -r -d -z --name-only "$files"; } |
    find -files0-from - -maxdepth 0 \\( ! -type l ! -perm 644 ! -perm 755 -printf '%m %p\\0' \\) , \\( ! -type d -newerct "@$9" -fprintf "\${10}" '%p\\0' \\)
  if [ -n "$4" ]; then
    find .git -path '.git/objects/??' -prune -o \\( -type d -empty -printf 'd %p\\0' \\) -o \\( -type f ! -perm 644 ! -perm 755 -printf '%m %p\\0' \\) , \\( ! -type d -newerct "@$9" -fprintf "\${11}" '%P\\0' \\)
  fi
} > "$7"
meta=
if [ -s "$7" ]; then meta=$(git hash-object -w "$7"); fi
# Each new id kept from pruning at once (./checkpoints.ts lets old steps go by dropping these refs); $8 lists those kept already.
new=
for id in $files $dotgit $meta; do
  case " $8 " in *" $id "*) ;; *) new="$new $id" ;; esac
done
if [ -n "$new" ]; then for id in $new; do echo "update refs/kept/$id $id"; done | git update-ref --stdin; fi
echo "$files"
if [ -n "$dotgit" ]; then echo "$dotgit"; fi
if [ -n "$meta" ]; then echo "$meta"; fi`;

/** The objects that hold these moments: each tree, and the blob of what trees leave out. */
function objectsOf(trees: Trees[]): string[] {
  return trees.flatMap((t) => [t.files, t.git, t.meta]).filter((id): id is string => typeof id === 'string');
}

interface Meta {
  empty: string[];
  modes: [string, number | undefined][];
}

function isFolder(p: string): boolean {
  return fs.lstatSync(p, { throwIfNoEntry: false })?.isDirectory() === true;
}

function removeEmptyFolders(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) removeEmptyFolders(path.join(dir, entry.name));
  }
  if (fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
}

/**
 * The ignore rules for a workspace's files that are not in it: the global excludes file
 * and the workspace's `.git/info/exclude` (git reads the `.gitignore` files where they
 * are), and hookwise's own folder.
 */
export function filesExcludes(workspace: string): string {
  const parts = ['/.hookwise/', '.hookwise/'];
  for (const file of [globalExcludes(), path.join(workspace, '.git', 'info', 'exclude')]) {
    try {
      parts.push(fs.readFileSync(file, 'utf8'));
    } catch {
      // Not there: nothing to add.
    }
  }
  return `${parts.join('\n')}\n`;
}

/** The user's global excludes file where git looks by default (a `core.excludesFile` set elsewhere is not read: docs/security.md#undo). */
function globalExcludes(): string {
  const xdg = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(xdg, 'git', 'ignore');
}
