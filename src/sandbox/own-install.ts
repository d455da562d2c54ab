import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** This file is `<package>/dist/sandbox/` (or `<package>/src/sandbox/` under a test runner): the package is two up. */
const PACKAGE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

let folders: string[] | undefined;

/**
 * hookwise's own package and every package it loads, as real folders. The hook a host
 * runs next starts from them, outside the sandbox: a command that could rewrite one
 * (they sit in the workspace's `node_modules`, which stays writable for installs)
 * would run its code as the hook. The sandbox shows them read-only (./walk.ts).
 */
export function ownInstall(): readonly string[] {
  folders ??= packageClosure(PACKAGE);
  return folders;
}

/**
 * Packages a running hookwise never loads. Each read-only folder is a mount (about
 * 0.2 ms of every command's start), and better-sqlite3's installer alone brings 40.
 */
const NEVER_LOADED = (name: string) => name.startsWith('@types/') || name === 'prebuild-install';

/** A package and the dependencies it loads, found as Node finds them. */
function packageClosure(root: string): string[] {
  const found = new Set<string>();
  const queue = [realFolder(root)];
  while (queue.length > 0) {
    const dir = queue.shift();
    if (dir === undefined || found.has(dir)) continue;
    found.add(dir);
    for (const name of dependencyNames(dir)) if (!NEVER_LOADED(name)) queue.push(resolvePackage(name, dir));
  }
  return [...found];
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

/** `node_modules/<name>` in the package's folder, then in each folder above it: the first there is the one Node loads. */
function resolvePackage(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = realFolder(path.join(dir, 'node_modules', name));
    if (candidate !== undefined) return candidate;
    if (path.dirname(dir) === dir) return undefined;
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
