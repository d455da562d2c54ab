import fs from 'node:fs';
import path from 'node:path';
import type { PathPolicy } from '../path-policy/judge.js';
import { isWithin } from '../path-policy/resolve.js';

/** Top-level folders that hold other people's and other projects' files: hidden unless a root lies inside. */
/**
 * The temporary folders: an empty tmpfs of its own in the sandbox, so what a command
 * writes there reaches nothing outside it (the shell guard lets such writes run).
 */
export const PRIVATE_TEMP = ['/tmp', '/var/tmp'];

export const HIDDEN_TOPS = [...PRIVATE_TEMP, '/run', '/home', '/root', '/mnt', '/media', '/srv'];

/** What the sandbox hides, shows and masks outside the writable roots. */
export interface Outside {
  hidden: string[];
  /** Folders to show again inside the hidden ones (not yet reduced to the outermost). */
  shown: string[];
  /** Secrets named by absolute or home-relative rules (`~/.ssh`, `/etc/shadow`), outside the writable roots. */
  maskedFiles: string[];
  maskedDirs: string[];
  /** Files a rule calls not secret (`*.pub`, `known_hosts`) directly in a masked folder: shown again, read-only. */
  unmasked: string[];
}

export interface OutsideInputs {
  policy: PathPolicy;
  read: string[];
  writable: string[];
  pathDirs: string[];
}

/**
 * How the part is kept between calls: the paths it was derived from, and their stat. The
 * secrets' folders and files are keyed by device, inode, mtime and ctime (a link retargeted,
 * a file renamed, an entry made or removed changes one of them); the home and tool folders,
 * which are only resolved to be shown, by device and inode (the home folder's mtime changes
 * all day). When none changed, the part is what it was. Stamps less than RACY_MS old are
 * not trusted (a second change may share the stamp).
 */
interface Watched {
  /** Paths whose real path is used: device and inode. */
  resolved: string[];
  /** Paths whose entries or target matter: device, inode, mtime, ctime. */
  listed: string[];
}

interface Kept {
  inputs: string;
  watched: Watched;
  key: string | undefined;
  value: Outside;
}

const RACY_MS = 2_000;
const kept = new WeakMap<PathPolicy, Kept>();

export function outsideOf({ policy, read, writable, pathDirs }: OutsideInputs): Outside {
  const inputs = [...read, '', ...writable, '', ...pathDirs].join('\n');
  const known = kept.get(policy);
  if (known !== undefined && known.inputs === inputs && known.key !== undefined && fingerprint(known.watched).key === known.key) {
    return known.value;
  }
  const started = Date.now();
  const watched: Watched = { resolved: [], listed: ['/'] };
  const value = computeOutside(policy, read, writable, pathDirs, watched);
  const { key, newest } = fingerprint(watched);
  kept.set(policy, { inputs, watched, key: newest < started - RACY_MS ? key : undefined, value });
  return value;
}

function computeOutside(policy: PathPolicy, read: string[], writable: string[], pathDirs: string[], watched: Watched): Outside {
  const hidden = HIDDEN_TOPS.filter((top) => fs.existsSync(top));
  watched.resolved.push(policy.home);
  const home = realOf(policy.home);
  // A PATH folder's parent too: version managers keep their programs beside their shims (~/.pyenv/{shims,versions}).
  // Only PATH folders inside a hidden folder need showing again; the rest are resolved for nothing. Each is
  // resolved once, though PATH often names one twice.
  const toolDirs = unique(pathDirs.flatMap((d) => [d, path.dirname(d)])).filter((d) => hidden.some((top) => isWithin(d, top)));
  watched.resolved.push(...toolDirs);
  const tools = toolDirs.map(realOf);
  const shown = [home, ...read, ...tools].filter(
    (p): p is string => p !== undefined && !HIDDEN_TOPS.includes(p) && hidden.some((top) => isWithin(p, top)),
  );
  const value: Outside = { hidden, shown, maskedFiles: [], maskedDirs: [], unmasked: [] };
  maskOutsideSecrets(policy, writable, value, watched);
  return value;
}

/**
 * Secrets named by absolute or home-relative rules (`~/.ssh`, `/etc/shadow`,
 * `/etc/ssh/ssh_host_*_key`): each rule's fixed folder is listed, and what matches is masked.
 */
function maskOutsideSecrets(policy: PathPolicy, writable: string[], value: Outside, watched: Watched): void {
  const candidates = new Set<string>();
  for (const base of secretBases(policy)) {
    watched.listed.push(base);
    const stat = fs.statSync(base, { throwIfNoEntry: false });
    if (stat === undefined) continue;
    candidates.add(base);
    // A folder named by a rule with a wildcard below it (`/etc/ssh/ssh_host_*_key`): its entries are candidates.
    if (stat.isDirectory() && !policy.secretRuleOf(base)) for (const name of fs.readdirSync(base)) candidates.add(path.join(base, name));
  }
  for (const candidate of candidates) {
    watched.listed.push(candidate);
    const real = realOf(candidate);
    if (real === undefined || value.maskedFiles.includes(real) || value.maskedDirs.includes(real)) continue;
    if (writable.some((w) => isWithin(real, w))) continue; // walked already
    // `~/.aws` linked to a dotfiles folder: what it names is secret wherever it really lives.
    if (!policy.secretRuleOf(real) && !policy.secretRuleOf(candidate)) continue;
    const isDir = fs.statSync(real, { throwIfNoEntry: false })?.isDirectory();
    (isDir ? value.maskedDirs : value.maskedFiles).push(real);
    if (isDir) value.unmasked.push(...publicFiles(policy, real));
  }
}

/**
 * The files directly in a masked folder that no secret rule covers (`~/.ssh/id_ed25519.pub`,
 * `known_hosts`: the rules' exceptions): real files only, never a link, which could lead to a secret.
 */
function publicFiles(policy: PathPolicy, dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .map((name) => path.join(dir, name))
    .filter((p) => !policy.secretRuleOf(p) && fs.lstatSync(p, { throwIfNoEntry: false })?.isFile() === true);
}

/** The folder before the first wildcard of each absolute or `~/` secret rule. */
function secretBases(policy: PathPolicy): string[] {
  const bases = new Set<string>();
  for (const pattern of policy.secretPatterns()) {
    const expanded = pattern.startsWith('~/') ? path.join(policy.home, pattern.slice(2)) : pattern;
    if (!path.isAbsolute(expanded) || expanded.startsWith('/proc/')) continue;
    const fixed = expanded.split('/').findIndex((part) => /[*?[\]{}!]/.test(part));
    const parts = expanded.split('/');
    bases.add(fixed < 0 ? expanded : parts.slice(0, fixed).join('/') || '/');
  }
  return [...bases];
}

/** The stat of each watched path (following links), and the newest time stamp among the listed ones. */
function fingerprint({ resolved, listed }: Watched): { key: string; newest: number } {
  let key = '';
  let newest = 0;
  for (const p of resolved) {
    const stat = statOf(p);
    key += stat === undefined ? '-\n' : `${stat.dev}:${stat.ino}\n`;
  }
  for (const p of listed) {
    const stat = statOf(p);
    if (stat === undefined) {
      key += '-\n';
      continue;
    }
    key += `${stat.dev}:${stat.ino}:${stat.mtimeMs}:${stat.ctimeMs}\n`;
    newest = Math.max(newest, stat.mtimeMs, stat.ctimeMs);
  }
  return { key, newest };
}

function statOf(p: string): fs.Stats | undefined {
  try {
    return fs.statSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined; // ENOTDIR, EACCES, a loop: as good as missing, and it changes if the path does
  }
}

function realOf(p: string): string | undefined {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return undefined;
  }
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}
