import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { stateDirOf } from '../core/state-dir.js';
import { isWithin } from '../path-policy/resolve.js';
import { PRIVATE_TEMP } from './outside.js';
import { overlaidCaches } from './tool-caches.js';

/**
 * A session's own temporary folders (docs/security.md#the-os-sandbox): `/tmp` and
 * `/var/tmp` inside the sandbox are one real folder each, per session, kept between
 * its commands and removed when it ends (SessionEnd) or when nobody used it for
 * STALE_MS. They live in hookwise's state folder, which the sandbox masks whole
 * (bwrap.ts), so a command reaches its own only as `/tmp`, and never another's.
 */
export interface PrivateTemp {
  /** The folder all sessions' folders and all workspaces' caches are in: masked in the sandbox, whose binds come from it. */
  root: string;
  /** Each temporary folder (`/tmp`, `/var/tmp`) -> the real folder shown there. */
  folders: Readonly<Record<string, string>>;
  /**
   * The workspace's own tool caches (npm, pip, Go, cargo's registry): writable, shown at their
   * own path, and used by nothing outside the sandbox, so what a command puts there runs only
   * in this workspace's sandbox, which could write the workspace anyway (tool-caches.ts).
   */
  cache?: string;
  /** Caches shown over the real one (cargo's registry): source in `cache`, destination in the home folder. */
  overlaid?: Array<[string, string]>;
}

/** A session's folder is removed when it has not been used for this long (its commands touch it). */
export const STALE_MS = 24 * 60 * 60 * 1000;

/** Stale folders are looked for at most this often per process. */
const SWEEP_EVERY_MS = 10 * 60 * 1000;
let lastSweep = 0;

/** The folder that holds every session's temporary folders and every workspace's caches, for a home folder. */
export function sandboxStateRoot(home: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.join(stateDirOf(env, home), 'sandbox');
}

/** The folder that holds every session's temporary folders. */
export function privateTempRoot(home: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.join(sandboxStateRoot(home, env), 'tmp');
}

/** A workspace's caches are removed when no command used them for this long. */
export const CACHE_STALE_MS = 30 * 24 * 60 * 60 * 1000;

/** A session's folder name: a hash, so that no session id (the host's text) can name a path. */
export function sessionKey(sessionId: string | undefined, workspace: string): string {
  const id = typeof sessionId === 'string' && sessionId !== '' ? `session\0${sessionId}` : `workspace\0${workspace}`;
  return createHash('sha256').update(id).digest('hex').slice(0, 32);
}

function folderName(top: string): string {
  return top.slice(1).replaceAll('/', '-');
}

/** The folders a session's /tmp and /var/tmp are (they may not exist yet). */
export function sessionFolders(root: string, key: string): Record<string, string> {
  return Object.fromEntries(PRIVATE_TEMP.map((top) => [top, path.join(root, key, folderName(top))]));
}

/**
 * Make (or find) a session's folders, ready to be shown as `/tmp` and `/var/tmp`.
 * Undefined when they cannot be made safely (the root is not a real folder of ours,
 * closed to others): the sandbox then gives the command empty ones, as before.
 * `mountPoints`: paths the sandbox mounts below a temporary folder (a workspace in
 * /tmp); whatever a command left at one of them that is not a folder (a link planted
 * for the next command's mount to follow) is removed first.
 */
export function preparePrivateTemp(
  root: string,
  key: string,
  mountPoints: readonly string[] = [],
  workspace?: string,
  home?: string,
): PrivateTemp | undefined {
  try {
    if (!ownFolder(root, true)) return undefined;
    const cache = workspace === undefined ? undefined : prepareCache(path.join(path.dirname(root), 'cache'), workspace);
    const session = path.join(root, key);
    if (!ownFolder(session, false)) return undefined;
    const folders = sessionFolders(root, key);
    for (const [top, dir] of Object.entries(folders)) {
      if (!ownFolder(dir, false)) return undefined;
      for (const point of mountPoints) if (isWithin(point, top) && point !== top) clearWay(dir, path.relative(top, point));
    }
    // Its time stamp is its last use: the stale sweep goes by it.
    const now = new Date();
    fs.utimesSync(session, now, now);
    sweepStale(root, key);
    if (cache === undefined) return { root: path.dirname(root), folders };
    return { root: path.dirname(root), folders, cache, overlaid: home === undefined ? [] : overlaidCaches(cache, home) };
  } catch {
    return undefined;
  }
}

/** Remove a session's folders (SessionEnd). Safe against what the command left there: links are removed, never followed. */
export function removePrivateTemp(root: string, key: string): void {
  removeSafely(root, path.join(root, key));
}

/** A real folder (not a link), ours and closed to others; made 700 when missing. */
export function ownFolder(dir: string, recursive: boolean): boolean {
  try {
    fs.mkdirSync(dir, { recursive, mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return false;
  }
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory()) return false;
  if (process.getuid && stat.uid !== process.getuid()) return false;
  return (stat.mode & 0o077) === 0;
}

/** Along `rel` inside `dir`, remove each part that is not a real folder (a link, a file), so that a mount there lands where it should. */
function clearWay(dir: string, rel: string): void {
  let at = dir;
  for (const part of rel.split(path.sep)) {
    at = path.join(at, part);
    const stat = fs.lstatSync(at, { throwIfNoEntry: false });
    if (stat === undefined) return; // the sandbox program makes the rest
    if (!stat.isDirectory()) fs.rmSync(at, { force: true, recursive: true });
  }
}

/** A workspace's cache folder (made 700), touched as used; undefined when it cannot be made safely. */
function prepareCache(cacheRoot: string, workspace: string): string | undefined {
  if (!ownFolder(cacheRoot, false)) return undefined;
  const name = createHash('sha256').update(workspace).digest('hex').slice(0, 32);
  const dir = path.join(cacheRoot, name);
  if (!ownFolder(dir, false)) return undefined;
  const now = new Date();
  fs.utimesSync(dir, now, now);
  return dir;
}

/** Remove the folders nobody used for long (a session that ended without SessionEnd, a workspace's old caches). */
function sweepStale(root: string, current: string): void {
  const now = Date.now();
  if (now - lastSweep < SWEEP_EVERY_MS) return;
  lastSweep = now;
  const cacheRoot = path.join(path.dirname(root), 'cache');
  for (const [dir, staleMs] of [
    [root, STALE_MS],
    [cacheRoot, CACHE_STALE_MS],
  ] as const) {
    for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
      if (name === current) continue;
      const stat = fs.lstatSync(path.join(dir, name), { throwIfNoEntry: false });
      if (stat !== undefined && now - stat.mtimeMs > staleMs) removeSafely(dir, path.join(dir, name));
    }
  }
}

/**
 * Rename the folder aside first (a command still running in it keeps its files, but
 * no new command gets it), then remove it without following links. Folders a command
 * made unwritable (Go's module cache is read-only) are opened for the owner first.
 */
function removeSafely(root: string, dir: string): void {
  if (!isWithin(dir, root) || dir === root) return;
  const aside = path.join(root, `.gone-${randomBytes(6).toString('hex')}`);
  try {
    fs.renameSync(dir, aside);
  } catch {
    return; // gone already
  }
  try {
    fs.rmSync(aside, { recursive: true, force: true });
  } catch {
    openForOwner(aside);
    fs.rmSync(aside, { recursive: true, force: true });
  }
}

function openForOwner(dir: string): void {
  const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (stat === undefined || !stat.isDirectory()) return;
  fs.chmodSync(dir, 0o700);
  for (const name of fs.readdirSync(dir)) openForOwner(path.join(dir, name));
}
