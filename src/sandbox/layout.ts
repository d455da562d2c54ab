import fs from 'node:fs';
import path from 'node:path';
import type { PathPolicy } from '../guards/paths/judge.js';
import { isWithin } from '../guards/paths/resolve.js';

/**
 * What the OS sandbox shows a command, derived from the same PathPolicy the guards
 * judge with (docs/security.md#the-os-sandbox). Every path here is real (links
 * resolved) and absolute, except `sweep`, which is relative to the workspace.
 */
export interface Layout {
  workspace: string;
  /** The workspace and the policy's `allowWrite` folders: writable. */
  writable: string[];
  /** Folders shown read-only on top of a hidden folder: the home folder, `allowRead`, the PATH. */
  readable: string[];
  /** Top-level folders replaced by an empty tmpfs: other projects, other users, temp files, sockets. */
  hidden: string[];
  /** Protected files and folders that exist inside a writable folder: read-only. */
  readOnly: string[];
  /** Folders between a writable root and a read-only path: bound to themselves so they cannot be renamed away. */
  pinned: string[];
  /** Secret files: /dev/null is shown in their place. */
  maskedFiles: string[];
  /** Secret folders: an empty read-only folder is shown in their place. */
  maskedDirs: string[];
  /** Protected names missing now: moved aside after the command if it created them. */
  sweep: string[];
}

/**
 * The temporary folders: an empty tmpfs of its own in the sandbox, so what a command
 * writes there reaches nothing outside it (the shell guard lets such writes run).
 */
export const PRIVATE_TEMP = ['/tmp', '/var/tmp'];

/** Top-level folders that hold other people's and other projects' files: an empty tmpfs, a root inside bound on top. */
const HIDDEN_TOPS = [...PRIVATE_TEMP, '/run', '/home', '/root', '/mnt', '/media', '/srv'];

/** Folders whose files editors, agents and git run on their own: read-only as a whole, so no new file appears in them. */
const CONFIG_DIRS = [
  '.vscode',
  '.cursor',
  '.claude',
  '.devcontainer',
  '.idea',
  '.husky',
  '.githooks',
  '.gemini',
  '.codex',
  '.amazonq',
  '.roo',
  '.windsurf',
  '.zed',
  '.factory',
  '.opencode',
  '.clinerules',
  '.cline',
  '.hookwise',
];

/** Folders below the workspace root that agents run hooks from (Copilot's): read-only as a whole, like CONFIG_DIRS. */
const NESTED_CONFIG_DIRS = ['.github/hooks'];

/** Files at the workspace root that launch programs or hold hookwise's policy: moved aside if a command creates them. */
const ROOT_FILES = [
  '.mcp.json',
  '.envrc',
  '.npmrc',
  '.yarnrc.yml',
  'lefthook.yml',
  '.pre-commit-config.yaml',
  '.devcontainer.json',
  ...['ts', 'mts', 'cts', 'js', 'mjs', 'cjs', 'json', 'yaml', 'yml'].map((ext) => `hookwise.config.${ext}`),
];

/** Inside `.git`, what runs code when a person runs git outside the sandbox. */
const GIT_EXECUTABLE = ['hooks', 'config', 'info'];

/** Folders not walked for protected and secret files: installed packages and build output are not the user's own. */
const NOT_WALKED = new Set(['node_modules', '.git', '.hg', '.svn', 'target', '.venv', 'venv', '__pycache__', '.next', '.cache']);
const MAX_DEPTH = 8;
const MAX_ENTRIES = 20_000;

export interface LayoutInputs {
  policy: PathPolicy;
  /** Folders on the PATH: kept visible so the command's programs are found. */
  pathDirs: string[];
}

export function layoutFor({ policy, pathDirs }: LayoutInputs): Layout {
  const roots = policy.realRoots();
  const layout: Layout = {
    workspace: roots.workspace,
    writable: unique(roots.write.filter(exists)),
    readable: [],
    hidden: HIDDEN_TOPS.filter((top) => exists(top)),
    readOnly: [],
    pinned: [],
    maskedFiles: [],
    maskedDirs: [],
    sweep: [],
  };
  const home = realOf(policy.home);
  // A PATH folder's parent too: version managers keep their programs beside their shims (~/.pyenv/{shims,versions}).
  // Only PATH folders inside a hidden folder need showing again; the rest are resolved for nothing (half a
  // millisecond per call with a long PATH). Each is resolved once, though PATH often names one twice.
  const tools = unique(pathDirs.flatMap((d) => [d, path.dirname(d)]))
    .filter((d) => layout.hidden.some((top) => isWithin(d, top)))
    .map(realOf);
  const shown = [home, ...roots.read, ...tools].filter((p): p is string => p !== undefined && !HIDDEN_TOPS.includes(p));
  layout.readable = unique(shown.filter((p) => layout.hidden.some((top) => isWithin(p, top)) && !layout.writable.includes(p)));
  for (const root of layout.writable) walk(policy, root, layout);
  maskOutsideSecrets(policy, layout);
  for (const name of [...CONFIG_DIRS, ...NESTED_CONFIG_DIRS, ...ROOT_FILES]) {
    if (!existsLink(path.join(roots.workspace, name))) layout.sweep.push(name);
  }
  layout.pinned = unique(layout.pinned).filter((p) => !layout.readOnly.includes(p));
  return layout;
}

/** What one folder holds that the layout cares about, remembered with the folder's mtime. */
interface FolderFacts {
  mtimeMs: number;
  subfolders: string[];
  masked: string[];
  maskedDirs: string[];
  protected: string[];
  gitDirs: string[];
  gitFiles: string[];
  /** Installed packages' folders (not walked): their hard-linked packages are looked for on their own. */
  nodeModules: string[];
}

/**
 * Per root, the facts of each folder walked. A folder's mtime changes whenever an entry
 * is created, removed or renamed in it, so an unchanged folder is not read again: a
 * call costs one stat per folder instead of one per file.
 */
const walked = new WeakMap<PathPolicy, Map<string, Map<string, FolderFacts>>>();

function walk(policy: PathPolicy, root: string, layout: Layout): void {
  let roots = walked.get(policy);
  if (roots === undefined) walked.set(policy, (roots = new Map()));
  let folders = roots.get(root);
  if (folders === undefined) roots.set(root, (folders = new Map()));
  const seen = new Set<string>();
  let budget = MAX_ENTRIES;
  const queue: Array<{ dir: string; depth: number }> = [{ dir: root, depth: 0 }];
  while (queue.length > 0 && budget > 0) {
    const { dir, depth } = queue.shift()!;
    const facts = factsOf(policy, root, dir, folders);
    if (facts === undefined) continue;
    seen.add(dir);
    budget -= facts.subfolders.length + facts.masked.length + facts.protected.length + 1;
    layout.maskedFiles.push(...facts.masked);
    layout.maskedDirs.push(...facts.maskedDirs);
    for (const p of facts.protected) protect(p, root, layout);
    for (const g of facts.gitDirs) protectGit(g, true, root, layout);
    for (const g of facts.gitFiles) protectGit(g, false, root, layout);
    for (const nm of facts.nodeModules) for (const p of hardLinkedPackages(nm)) protect(p, root, layout);
    if (depth < MAX_DEPTH) for (const sub of facts.subfolders) queue.push({ dir: sub, depth: depth + 1 });
  }
  for (const dir of folders.keys()) if (!seen.has(dir)) folders.delete(dir);
}

function factsOf(policy: PathPolicy, root: string, dir: string, folders: Map<string, FolderFacts>): FolderFacts | undefined {
  const stat = fs.statSync(dir, { throwIfNoEntry: false });
  if (stat === undefined || !stat.isDirectory()) return undefined;
  const known = folders.get(dir);
  if (known !== undefined && known.mtimeMs === stat.mtimeMs) return known;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  const facts: FolderFacts = {
    mtimeMs: stat.mtimeMs,
    subfolders: [],
    masked: [],
    maskedDirs: [],
    protected: [],
    gitDirs: [],
    gitFiles: [],
    nodeModules: [],
  };
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue; // a link is judged where it leads, which is walked or masked itself
    if (policy.secretRuleOf(full)) (entry.isDirectory() ? facts.maskedDirs : facts.masked).push(full);
    else if (entry.name === '.git') (entry.isDirectory() ? facts.gitDirs : facts.gitFiles).push(full);
    else if (entry.isDirectory() && (CONFIG_DIRS.includes(entry.name) || NESTED_CONFIG_DIRS.includes(path.relative(root, full))))
      facts.protected.push(full);
    else if (entry.isDirectory()) {
      if (entry.name === 'node_modules') facts.nodeModules.push(full);
      else if (!NOT_WALKED.has(entry.name)) facts.subfolders.push(full);
    } else if (entry.isFile() && (policy.protectedRuleOf(full, root) || linkCount(full) > 1)) {
      // A file with other names may be the same file outside the workspace: read-only, whatever its name here.
      facts.protected.push(full);
    }
  }
  folders.set(dir, facts);
  return facts;
}

const linkedPackages = new Map<string, { mtimeMs: number; packages: string[] }>();
const MAX_PACKAGES = 5_000;

/**
 * Packages installed as hard links to a store outside the workspace (pnpm's
 * `.pnpm`, bun's default on Linux): writing their files would write the store, so
 * every other project using them. Each package is judged by its package.json; pnpm's
 * `.pnpm` is read-only as a whole when its first package is linked. Remembered with
 * the folder's mtime (an install changes it).
 */
function hardLinkedPackages(nodeModules: string): string[] {
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

/** `.git` stays writable (commits), but what git would run outside the sandbox is read-only. */
function protectGit(gitPath: string, isDir: boolean, root: string, layout: Layout): void {
  if (!isDir) {
    protect(gitPath, root, layout); // a worktree's `.git` file names the real repository
    return;
  }
  pin(gitPath, root, layout);
  for (const gitDir of [gitPath, ...submoduleGitDirs(gitPath)]) {
    if (gitDir !== gitPath) pin(gitDir, root, layout);
    for (const name of GIT_EXECUTABLE) {
      const inner = path.join(gitDir, name);
      if (existsLink(inner)) layout.readOnly.push(inner);
      // A repository without hooks (cloned with an empty template): a hooks folder the command makes is moved aside.
      else if (name === 'hooks' && isWithin(inner, layout.workspace)) layout.sweep.push(path.relative(layout.workspace, inner));
    }
  }
}

/**
 * Submodules' git folders (`.git/modules/<name>`, nested for submodules of submodules):
 * git runs their hooks and config (core.fsmonitor on `git status`) as it runs the main one's.
 */
function submoduleGitDirs(gitPath: string): string[] {
  const found: string[] = [];
  const queue = [path.join(gitPath, 'modules')];
  while (queue.length > 0 && found.length < 1000) {
    const dir = queue.shift()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      const sub = path.join(dir, entry.name);
      // A git folder has a HEAD or a config; anything else is a folder of a submodule's nested name (a/b).
      if (existsLink(path.join(sub, 'config')) || existsLink(path.join(sub, 'HEAD'))) {
        found.push(sub);
        queue.push(path.join(sub, 'modules'));
      } else queue.push(sub);
    }
  }
  return found;
}

function protect(target: string, root: string, layout: Layout): void {
  layout.readOnly.push(target);
  pin(path.dirname(target), root, layout);
}

/** Bind every folder from `dir` up to (not including) the root to itself: a mount point cannot be renamed. */
function pin(dir: string, root: string, layout: Layout): void {
  let d = dir;
  while (d !== root && isWithin(d, root)) {
    layout.pinned.push(d);
    d = path.dirname(d);
  }
}

/**
 * Secrets named by absolute or home-relative rules (`~/.ssh`, `/etc/shadow`,
 * `/etc/ssh/ssh_host_*_key`): each rule's fixed folder is listed, and what matches is masked.
 */
function maskOutsideSecrets(policy: PathPolicy, layout: Layout): void {
  const candidates = new Set<string>();
  for (const base of secretBases(policy)) {
    const stat = fs.statSync(base, { throwIfNoEntry: false });
    if (stat === undefined) continue;
    candidates.add(base);
    // A folder named by a rule with a wildcard below it (`/etc/ssh/ssh_host_*_key`): its entries are candidates.
    if (stat.isDirectory() && !policy.secretRuleOf(base)) for (const name of fs.readdirSync(base)) candidates.add(path.join(base, name));
  }
  for (const candidate of candidates) {
    const real = realOf(candidate);
    if (real === undefined || layout.maskedFiles.includes(real) || layout.maskedDirs.includes(real)) continue;
    if (layout.writable.some((w) => isWithin(real, w))) continue; // walked already
    if (!policy.secretRuleOf(real)) continue;
    const isDir = fs.statSync(real, { throwIfNoEntry: false })?.isDirectory();
    (isDir ? layout.maskedDirs : layout.maskedFiles).push(real);
  }
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

function linkCount(p: string): number {
  return fs.lstatSync(p, { throwIfNoEntry: false })?.nlink ?? 1;
}

function realOf(p: string): string | undefined {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return undefined;
  }
}

function exists(p: string): boolean {
  return fs.existsSync(p);
}

function existsLink(p: string): boolean {
  return fs.lstatSync(p, { throwIfNoEntry: false }) !== undefined;
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}
