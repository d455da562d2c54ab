import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isWithin } from './resolve.js';

/** This file is `<package>/dist/path-policy/` (or `<package>/src/path-policy/` under a test runner): the package is two up. */
const PACKAGE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

let own: Closure | undefined;

/**
 * A link Node follows to reach a package hookwise loads (pnpm's layout, `npm link`),
 * as it read when this process found it: `text` is what the link says, `real` where it leads.
 */
export interface InstallLink {
  link: string;
  text: string;
  real: string;
}

/**
 * hookwise's own package and every package it loads, as real folders. The hook a host
 * runs next starts from them, outside the sandbox: a command that could rewrite one
 * (they sit in the workspace's `node_modules`, which stays writable for installs)
 * would run its code as the hook. The sandbox shows them read-only (./walk.ts).
 */
export function ownInstall(): readonly string[] {
  return closure().folders;
}

/** This package's closure, found once per process. */
const closure = (): Closure => (own ??= packageClosure(PACKAGE));

export const OWN_INSTALL_WHY = "hookwise's own install, which the next hook call runs";

/**
 * hookwise's folders (its own and the packages it loads) inside `root`; never `root`
 * itself (hookwise's own checkout, when the agent works on hookwise). The sandbox shows
 * them read-only (../sandbox/walk.ts) and the path guard refuses to write there (./judge.ts).
 */
export function ownInstallWithin(root: string): string[] {
  return ownInstall().filter((p) => p !== root && isWithin(p, root));
}

/**
 * The links on the way to those packages, and the one the hook entries follow in
 * `root` (`<root>/node_modules/hookwise`) when it leads to this running hookwise. A
 * folder read-only in the sandbox still sits behind a link the command may point
 * elsewhere: the sandbox puts each back after the command (../sandbox/command.ts).
 */
export function ownInstallLinks(root: string): InstallLink[] {
  const { folders, links } = closure();
  const entry = linkTo(path.join(root, 'node_modules', 'hookwise'));
  // The closure starts from this package's real folder.
  return [...links, ...(entry !== undefined && entry.real === folders[0] ? [entry] : [])];
}

/**
 * Packages a running hookwise never loads. Each read-only folder is a mount (about
 * 0.2 ms of every command's start), and better-sqlite3's installer alone brings 40.
 */
const NEVER_LOADED = (name: string) => name.startsWith('@types/') || name === 'prebuild-install';

/** What a package loads: its folder and its dependencies', as real folders, and the links Node follows to them. */
export interface Closure {
  folders: string[];
  links: InstallLink[];
}

/** A package and the dependencies it loads, found as Node finds them. */
export function packageClosure(root: string): Closure {
  const found = new Set<string>();
  const links = new Map<string, InstallLink>();
  const queue = [realFolder(root)];
  while (queue.length > 0) {
    const dir = queue.shift();
    if (dir === undefined || found.has(dir)) continue;
    found.add(dir);
    for (const name of dependencyNames(dir)) if (!NEVER_LOADED(name)) queue.push(resolvePackage(name, dir, links));
  }
  return { folders: [...found], links: [...links.values()] };
}

function dependencyNames(dir: string): string[] {
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  } catch {
    return [];
  }
  // Peers are the user's to install, and loaded only by a policy that uses them (an adapter, a store): not kept here.
  const names = ['dependencies', 'optionalDependencies'].flatMap((field) => Object.keys((manifest[field] ?? {}) as object));
  return [...new Set(names)];
}

/**
 * `node_modules/<name>` in the package's folder, then in each folder above it: the first
 * there is the one Node loads. A link found on the way is added to `links`.
 */
function resolvePackage(name: string, from: string, links: Map<string, InstallLink>): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const at = path.join(dir, 'node_modules', name);
    const candidate = realFolder(at);
    if (candidate !== undefined) {
      const link = linkTo(at);
      if (link !== undefined) links.set(at, link);
      return candidate;
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The link at `p` and the folder it leads to; undefined when `p` is no link to a folder. */
function linkTo(p: string): InstallLink | undefined {
  try {
    if (!fs.lstatSync(p).isSymbolicLink()) return undefined;
    const real = realFolder(p);
    return real === undefined ? undefined : { link: p, text: fs.readlinkSync(p), real };
  } catch {
    return undefined;
  }
}

function realFolder(p: string): string | undefined {
  try {
    const real = fs.realpathSync(p);
    return fs.statSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}
