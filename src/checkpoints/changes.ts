import { git } from './git.js';
import type { Trees } from './shadow-repo.js';

/** What one step did to one path: `.git/...` paths are the repository's own files. */
export interface Change {
  path: string;
  status: 'added' | 'changed' | 'deleted';
  /** Bytes before and after; absent on the side where the path did not exist. */
  before?: Side;
  after?: Side;
}

export interface Side {
  /** git's object id of the content (a link's target, for a symbolic link). */
  id: string;
  size: number;
  /** git's mode: 100644 file, 100755 executable, 120000 symbolic link, 160000 a nested repository's commit. */
  mode: string;
}

const ABSENT = /^0+$/;

/** Every path that differs between two moments of a workspace, files first, then `.git`. */
export async function changesBetween(gitDir: string, from: Trees, to: Trees): Promise<Change[]> {
  const files = from.files === to.files ? [] : await diffTrees(gitDir, from.files, to.files, '');
  const dotGit = from.git === to.git ? [] : await diffTrees(gitDir, from.git ?? EMPTY, to.git ?? EMPTY, '.git/');
  const changes = [...files, ...dotGit];
  await addSizes(gitDir, changes);
  return changes;
}

const EMPTY = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

async function diffTrees(gitDir: string, a: string, b: string, prefix: string): Promise<Change[]> {
  const out = await git(['diff-tree', '-r', '-z', '--raw', '--no-renames', '--full-index', a, b], { gitDir });
  const parts = out.split('\0');
  const changes: Change[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const [modeA, modeB, idA, idB] = parts[i]!.slice(1).split(' ');
    const file = prefix + parts[i + 1]!;
    const before = ABSENT.test(idA!) ? undefined : { id: idA!, size: 0, mode: modeA! };
    const after = ABSENT.test(idB!) ? undefined : { id: idB!, size: 0, mode: modeB! };
    const status = before === undefined ? 'added' : after === undefined ? 'deleted' : 'changed';
    changes.push({ path: file, status, ...(before && { before }), ...(after && { after }) });
  }
  return changes;
}

async function addSizes(gitDir: string, changes: Change[]): Promise<void> {
  const sides = changes.flatMap((c) => [c.before, c.after]).filter((s): s is Side => s !== undefined && s.mode !== '160000');
  if (sides.length === 0) return;
  const ids = [...new Set(sides.map((s) => s.id))];
  const out = await git(['cat-file', '--batch-check=%(objectname) %(objectsize)'], { gitDir, input: `${ids.join('\n')}\n` });
  const sizes = new Map(out.split('\n').map((line) => line.split(' ') as [string, string]));
  for (const side of sides) side.size = Number(sizes.get(side.id) ?? 0);
}

/** "+2 ~1 -3, 12.3 kB": a change set in a line. */
export function summary(changes: Change[]): string {
  if (changes.length === 0) return 'no change';
  const count = (s: Change['status']) => changes.filter((c) => c.status === s).length;
  const bytes = changes.reduce((n, c) => n + Math.abs((c.after?.size ?? 0) - (c.before?.size ?? 0)), 0);
  return `+${count('added')} ~${count('changed')} -${count('deleted')}, ${formatBytes(bytes)}`;
}

function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  if (n < 1e6) return `${(n / 1e3).toFixed(1)} kB`;
  if (n < 1e9) return `${(n / 1e6).toFixed(1)} MB`;
  return `${(n / 1e9).toFixed(1)} GB`;
}
