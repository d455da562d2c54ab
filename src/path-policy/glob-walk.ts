import fs from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';

/**
 * The folders a file-tool glob (`Glob`'s pattern, `Grep`'s file filter) can
 * reach, found on disk now: each folder component is expanded against the
 * entries present, so `link-out/**` or `*\/x` through a symlink is judged where
 * it really leads. A `**` is not walked; the symlinks directly in the folder it
 * starts from are returned instead (a `**` deeper behind an inner symlink is a
 * documented limit, docs/security.md).
 */
const GLOB_CHARS = /[*?[\]{}()!+@]/;
const MAX_CANDIDATES = 256;

/** Everything before the first component with a wildcard (`.` when the pattern starts with one). */
export function globBase(pattern: string): string {
  const parts = pattern.split('/');
  const first = parts.findIndex((p) => GLOB_CHARS.test(p));
  const base = parts.slice(0, first < 0 ? parts.length : first).join('/');
  return base === '' ? (pattern.startsWith('/') ? '/' : '.') : base;
}

function entries(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** Absolute folders the pattern's folder components reach now (bounded). */
export function globCandidates(pattern: string, base: string, home: string): string[] {
  const expanded = pattern === '~' || pattern.startsWith('~/') ? home + pattern.slice(1) : pattern;
  const abs = path.isAbsolute(expanded) ? expanded : `${base}/${expanded}`;
  const parts = abs.split('/').filter((p) => p !== '');
  const folders = parts.slice(0, -1);
  let current = ['/'];
  const out: string[] = [];
  for (const comp of folders) {
    if (comp === '**') {
      for (const dir of current) for (const e of entries(dir)) if (e.isSymbolicLink()) out.push(path.join(dir, e.name));
      break;
    }
    if (!GLOB_CHARS.test(comp)) {
      current = current.map((c) => path.join(c, comp));
      continue;
    }
    const match = picomatch(comp, { dot: true });
    const next: string[] = [];
    for (const dir of current) {
      for (const e of entries(dir)) {
        if (match(e.name)) next.push(path.join(dir, e.name));
        if (next.length >= MAX_CANDIDATES) break;
      }
    }
    current = next;
    out.push(...next);
    if (out.length >= MAX_CANDIDATES) break;
  }
  return out.slice(0, MAX_CANDIDATES);
}
