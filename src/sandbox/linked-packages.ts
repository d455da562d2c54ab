import fs from 'node:fs';
import path from 'node:path';

const linkedPackages = new Map<string, { mtimeMs: number; packages: string[] }>();
const MAX_PACKAGES = 5_000;

/**
 * Packages installed as hard links to a store outside the workspace (pnpm's
 * `.pnpm`, bun's default on Linux): writing their files would write the store, so
 * every other project using them. Each package is judged by its package.json; pnpm's
 * `.pnpm` is read-only as a whole when its first package is linked. Remembered with
 * the folder's mtime (an install changes it).
 */
export function hardLinkedPackages(nodeModules: string): string[] {
  const stat = fs.statSync(nodeModules, { throwIfNoEntry: false });
  if (stat === undefined || !stat.isDirectory()) return [];
  const known = linkedPackages.get(nodeModules);
  if (known !== undefined && known.mtimeMs === stat.mtimeMs) return known.packages;
  const packages: string[] = [];
  const linked = (dir: string) => linkCount(path.join(dir, 'package.json')) > 1;
  const dirsIn = (dir: string) => {
    try {
      return fs
        .readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => path.join(dir, e.name));
    } catch {
      return [];
    }
  };
  let budget = MAX_PACKAGES;
  for (const dir of dirsIn(nodeModules)) {
    if (budget-- <= 0) break;
    const name = path.basename(dir);
    if (name === '.pnpm') {
      const first = dirsIn(dir).flatMap((id) => dirsIn(path.join(id, 'node_modules')))[0];
      if (first !== undefined && (linked(first) || dirsIn(first).some(linked))) packages.push(dir);
    } else if (name.startsWith('@')) {
      for (const scoped of dirsIn(dir)) if (budget-- > 0 && linked(scoped)) packages.push(scoped);
    } else if (linked(dir)) packages.push(dir);
  }
  linkedPackages.set(nodeModules, { mtimeMs: stat.mtimeMs, packages });
  return packages;
}

/** How many names the file has (1 when it does not exist). */
export function linkCount(p: string): number {
  return fs.lstatSync(p, { throwIfNoEntry: false })?.nlink ?? 1;
}
