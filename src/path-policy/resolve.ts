import fs from 'node:fs';
import path from 'node:path';

/** A path with every existing symlink on it followed, as the kernel would. */
export interface Resolved {
  real: string;
  viaSymlink: boolean;
  /** lstat of the final component when it exists. */
  stat?: fs.Stats;
  /** Resolution had to stop (permission denied, symlink loop, a /proc link). */
  error?: string;
  /** It stopped at a /proc link that leads wherever another process is. */
  magic?: boolean;
}

/** `/proc/<pid>` or `/proc/<pid>/task/<tid>`: folders whose cwd, root, exe and fd/N lead anywhere. */
const PROC_DIR = /^\/proc\/[^/]+(\/task\/[^/]+)?$/;
const STDIO = /^[0-2]$/;

/**
 * A /proc link is resolved by the kernel against the process that opens it, so
 * following it here would judge the guard's own cwd, root or files. What it
 * leads to cannot be known: stop. The standard streams (fd 0-2) are devices.
 */
function procLink(current: string, part: string, queue: string[]): 'magic' | 'stdio' | undefined {
  if (!current.startsWith('/proc/') || !PROC_DIR.test(current)) return undefined;
  if (part === 'cwd' || part === 'root' || part === 'exe') return 'magic';
  if (part !== 'fd' && part !== 'map_files') return undefined;
  const next = queue.find((p) => p !== '' && p !== '.');
  if (next === undefined) return undefined;
  return part === 'fd' && STDIO.test(next) && queue.filter((p) => p !== '' && p !== '.').length === 1 ? 'stdio' : 'magic';
}

const MAX_LINKS = 40;

/**
 * Walk `abs` (absolute, NOT normalised: `link/..` must go to the parent of the
 * link's target, as the kernel does) one component at a time. Components after
 * the first missing one are taken as written: that covers new files, including a
 * new file under a symlinked folder.
 */
export function resolveReal(abs: string, known?: ReadonlyMap<string, string>): Resolved {
  const root = path.parse(abs).root || '/';
  let queue = abs.slice(root.length).split(/[\\/]+/);
  let current = root;
  // Start below a folder already resolved (the workspace) when nothing climbs out of it.
  if (known && !queue.includes('..')) {
    for (const [as, real] of known) {
      if (abs.startsWith(as) && (abs.length === as.length || abs[as.length] === path.sep)) {
        current = real;
        queue = abs.slice(as.length).split(/[\\/]+/);
        break;
      }
    }
  }
  let viaSymlink = false;
  let missing = false;
  let stat: fs.Stats | undefined;
  let hops = 0;
  let error: string | undefined;
  while (queue.length > 0) {
    const part = queue.shift()!;
    if (part === '' || part === '.') continue;
    if (part === '..') {
      current = path.dirname(current);
      stat = undefined;
      continue;
    }
    const proc = missing ? undefined : procLink(current, part, queue);
    if (proc === 'magic')
      return {
        real: path.join(current, part, ...queue),
        viaSymlink,
        magic: true,
        error: `goes through ${path.join(current, part)}, a /proc link that leads wherever another process is`,
      };
    if (proc === 'stdio') return { real: path.join(current, part, ...queue), viaSymlink };
    const candidate = path.join(current, part);
    if (missing) {
      current = candidate;
      continue;
    }
    let st: fs.Stats | undefined;
    try {
      st = fs.lstatSync(candidate, { throwIfNoEntry: false });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOTDIR') error = `cannot be inspected (${code ?? 'error'})`;
      st = undefined;
    }
    if (!st) {
      missing = true;
      stat = undefined;
      current = candidate;
      continue;
    }
    if (st.isSymbolicLink()) {
      if (++hops > MAX_LINKS) return { real: candidate, viaSymlink: true, error: 'goes through a symlink loop' };
      viaSymlink = true;
      let target: string;
      try {
        target = fs.readlinkSync(candidate);
      } catch (e) {
        return { real: candidate, viaSymlink, error: `has a symlink that cannot be read (${(e as NodeJS.ErrnoException).code})` };
      }
      const targetRoot = path.parse(target).root;
      if (targetRoot) current = targetRoot;
      queue.unshift(...target.slice(targetRoot.length).split(/[\\/]+/));
      continue;
    }
    current = candidate;
    stat = st;
  }
  const out: Resolved = { real: current, viaSymlink };
  if (stat && !missing) out.stat = stat;
  if (error) out.error = error;
  return out;
}

/** Whether the filesystem holding `dir` ignores case (probed once per folder). */
export function probeCaseInsensitive(dir: string): boolean {
  const parts = dir.split(path.sep);
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i]!;
    const swapped = [...part].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
    if (swapped === part) continue;
    const other = [...parts.slice(0, i), swapped, ...parts.slice(i + 1)].join(path.sep);
    try {
      const a = fs.statSync(dir);
      const b = fs.statSync(other, { throwIfNoEntry: false });
      return b !== undefined && a.ino === b.ino && a.dev === b.dev;
    } catch {
      break;
    }
  }
  return process.platform === 'darwin' || process.platform === 'win32';
}

/** Whether `child` is `parent` or inside it, comparing whole components. */
export function isWithin(child: string, parent: string): boolean {
  if (child === parent) return true;
  const prefix = parent.endsWith(path.sep) ? parent : parent + path.sep;
  return child.startsWith(prefix);
}

/** `/` then names, none empty, `.` or `..`: what path.resolve and path.normalize give back unchanged. */
const NORMAL_ABSOLUTE = /^(?:\/(?!\.\.?(?:\/|$))[^/]+)+$/;

/**
 * path.resolve(p), skipping the work when `p` is already absolute and normal, as the
 * folders the guards are given on every call almost always are.
 */
export function resolvePath(p: string): string {
  return path.sep === '/' && NORMAL_ABSOLUTE.test(p) ? p : path.resolve(p);
}

/** path.normalize(p), with the same shortcut. */
export function normalizePath(p: string): string {
  return path.sep === '/' && NORMAL_ABSOLUTE.test(p) ? p : path.normalize(p);
}
