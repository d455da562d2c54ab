import fs from 'node:fs';
import path from 'node:path';
import type { PathPolicy } from '../path-policy/judge.js';
import { isWithin } from '../path-policy/resolve.js';
import { hardLinkedPackages, linkCount } from './linked-packages.js';
import { type InstallLink, ownInstallLinks, ownInstallWithin } from '../path-policy/own-install.js';
import { submoduleGitDirs } from './submodules.js';

/** Folders whose files editors, agents and git run on their own: read-only as a whole, so no new file appears in them. */
export const CONFIG_DIRS = [
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
  '.mise',
  '.run',
];

/** Folders below the workspace root that agents run hooks from (Copilot's): read-only as a whole, like CONFIG_DIRS. */
export const NESTED_CONFIG_DIRS = ['.github/hooks'];

/** Inside `.git`, what runs code when a person runs git outside the sandbox. */
const GIT_EXECUTABLE = ['hooks', 'config', 'info'];

/** Folders not walked for protected and secret files: installed packages and build output are not the user's own. */
const NOT_WALKED = new Set(['node_modules', '.git', '.hg', '.svn', 'target', '.venv', 'venv', '__pycache__', '.next', '.cache']);
const MAX_DEPTH = 8;
const MAX_ENTRIES = 20_000;

/**
 * A folder's mtime changes whenever an entry is created, removed or renamed in it, but
 * file systems stamp it coarsely (a kernel tick on Linux, 1 or 2 s on HFS+ and FAT): a
 * folder read less than this long after its last change may change again under the
 * same stamp, so it is read again on the next call (git treats its index the same way).
 */
const RACY_MS = 2_000;

/** What the walk of one writable root found. The same object is returned while nothing in the root changed. */
export interface Found {
  maskedFiles: string[];
  maskedDirs: string[];
  readOnly: string[];
  pinned: string[];
  /** Every name in the root folder itself. */
  rootNames: ReadonlySet<string>;
  /** Protected paths missing now, absolute (a repository's hooks folder): moved aside if a command makes them. */
  sweep: string[];
  /** Links in the root on the way to hookwise's own install: put back if a command points one elsewhere. */
  links: InstallLink[];
}

/** What one folder holds that the layout cares about, remembered with the folder's mtime. */
interface FolderFacts {
  kind: 'folder';
  mtimeMs: number;
  /** When it was read; the facts are trusted while the mtime is unchanged and was stamped RACY_MS before this. */
  readAtMs: number;
  names: string[];
  subfolders: string[];
  masked: string[];
  maskedDirs: string[];
  protected: string[];
  gitDirs: string[];
  gitFiles: string[];
  /** Installed packages' folders (not walked): their hard-linked packages are looked for on their own. */
  nodeModules: string[];
}

/** Which of GIT_EXECUTABLE a `.git` folder and its submodules' git folders hold (it is not walked, so its own mtime is checked). */
interface GitFacts {
  kind: 'git';
  dir: string;
  mtimeMs: number;
  readAtMs: number;
  present: string[];
  /** Submodules' git folders: pinned, as `.git` is. */
  modules: string[];
  /** A hooks folder missing in one of them: moved aside if a command makes it. */
  missingHooks: string[];
}

interface RootState {
  facts: Map<string, FolderFacts | GitFacts>;
  /** The facts the last walk used, in order, and what it found from them. */
  used: Array<FolderFacts | GitFacts>;
  found: Found | undefined;
}

/**
 * Per policy and root, the facts of each folder walked: a call costs one stat per folder
 * instead of one per file, and when no folder changed, nothing is computed again.
 */
const walked = new WeakMap<PathPolicy, Map<string, RootState>>();

export function walkRoot(policy: PathPolicy, root: string): Found {
  let roots = walked.get(policy);
  if (roots === undefined) walked.set(policy, (roots = new Map()));
  let state = roots.get(root);
  if (state === undefined) roots.set(root, (state = { facts: new Map(), used: [], found: undefined }));
  const used: Array<FolderFacts | GitFacts> = [];
  const seen = new Set<string>();
  let budget = MAX_ENTRIES;
  const queue: Array<{ dir: string; depth: number }> = [{ dir: root, depth: 0 }];
  while (queue.length > 0 && budget > 0) {
    const { dir, depth } = queue.shift()!;
    const facts = folderFacts(policy, root, dir, state.facts);
    if (facts === undefined) continue;
    seen.add(dir);
    used.push(facts);
    budget -= facts.subfolders.length + facts.masked.length + facts.protected.length + 1;
    for (const g of facts.gitDirs) {
      const git = gitFacts(g, state.facts);
      seen.add(g);
      used.push(git);
    }
    if (depth < MAX_DEPTH) for (const sub of facts.subfolders) queue.push({ dir: sub, depth: depth + 1 });
  }
  for (const dir of state.facts.keys()) if (!seen.has(dir)) state.facts.delete(dir);
  if (state.found !== undefined && used.length === state.used.length && used.every((f, i) => f === state.used[i])) return state.found;
  state.used = used;
  state.found = foundFrom(used, root, policy);
  return state.found;
}

function foundFrom(used: Array<FolderFacts | GitFacts>, root: string, policy: PathPolicy): Found {
  const found: Found = { maskedFiles: [], maskedDirs: [], readOnly: [], pinned: [], rootNames: new Set(), sweep: [], links: [] };
  const protect = (target: string) => {
    found.readOnly.push(target);
    pin(path.dirname(target), root, found.pinned);
  };
  for (const facts of used) {
    if (facts.kind === 'git') {
      // `.git` stays writable (commits), but what git would run outside the sandbox is read-only.
      pin(facts.dir, root, found.pinned);
      for (const m of facts.modules) pin(m, root, found.pinned);
      found.readOnly.push(...facts.present);
      found.sweep.push(...facts.missingHooks);
      continue;
    }
    found.maskedFiles.push(...facts.masked);
    found.maskedDirs.push(...facts.maskedDirs);
    for (const p of facts.protected) protect(p);
    for (const g of facts.gitFiles) protect(g); // a worktree's `.git` file names the real repository
    for (const nm of facts.nodeModules) for (const p of hardLinkedPackages(nm)) protect(p);
  }
  // hookwise's own code and what it loads, installed in this root (never the root itself: hookwise's own checkout).
  for (const p of ownInstallWithin(root)) protect(p);
  found.links = ownInstallLinks(root).filter((l) => isWithin(l.link, root));
  // The policy and every file it loads (src/config/policy-graph.ts): the next hook call runs them, outside the sandbox.
  // Each is pinned as hookwise's own install is, so no folder above it can be renamed or replaced to swap it.
  for (const p of policy.policyFilePaths()) {
    if (p === root || !isWithin(p, root) || found.readOnly.some((ro) => isWithin(p, ro))) continue;
    if (fs.lstatSync(p, { throwIfNoEntry: false }) !== undefined) protect(p);
  }
  // Where a loader would look first (`policy/rules.js` before `policy/rules.ts`): made by a command, moved aside after it.
  for (const p of policy.policyShadowPaths())
    if (isWithin(p, root) && fs.lstatSync(p, { throwIfNoEntry: false }) === undefined) found.sweep.push(p);
  const first = used[0];
  if (first?.kind === 'folder') found.rootNames = new Set(first.names);
  return found;
}

function trusted(known: { mtimeMs: number; readAtMs: number } | undefined, mtimeMs: number): boolean {
  return known !== undefined && known.mtimeMs === mtimeMs && mtimeMs < known.readAtMs - RACY_MS;
}

function folderFacts(policy: PathPolicy, root: string, dir: string, all: Map<string, FolderFacts | GitFacts>): FolderFacts | undefined {
  const stat = fs.statSync(dir, { throwIfNoEntry: false });
  if (stat === undefined || !stat.isDirectory()) return undefined;
  const known = all.get(dir);
  if (known?.kind === 'folder' && trusted(known, stat.mtimeMs)) return known;
  const readAtMs = Date.now();
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  const facts: FolderFacts = {
    kind: 'folder',
    mtimeMs: stat.mtimeMs,
    readAtMs,
    // Only the root's names are used (which protected names are missing there).
    names: dir === root ? entries.map((e) => e.name) : [],
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
  all.set(dir, facts);
  return facts;
}

function gitFacts(dir: string, all: Map<string, FolderFacts | GitFacts>): GitFacts {
  const mtimeMs = fs.statSync(dir, { throwIfNoEntry: false })?.mtimeMs ?? -1;
  const known = all.get(dir);
  if (known?.kind === 'git' && trusted(known, mtimeMs)) return known;
  const readAtMs = Date.now();
  const modules = submoduleGitDirs(dir);
  const present: string[] = [];
  const missingHooks: string[] = [];
  for (const gitDir of [dir, ...modules]) {
    for (const name of GIT_EXECUTABLE) {
      const inner = path.join(gitDir, name);
      if (fs.lstatSync(inner, { throwIfNoEntry: false }) !== undefined) present.push(inner);
      // A repository without hooks (cloned with an empty template): a hooks folder the command makes is moved aside.
      else if (name === 'hooks') missingHooks.push(inner);
    }
  }
  const facts: GitFacts = { kind: 'git', dir, mtimeMs, readAtMs, present, modules, missingHooks };
  all.set(dir, facts);
  return facts;
}

/** Bind every folder from `dir` up to (not including) the root to itself: a mount point cannot be renamed. */
function pin(dir: string, root: string, pinned: string[]): void {
  let d = dir;
  while (d !== root && isWithin(d, root)) {
    pinned.push(d);
    d = path.dirname(d);
  }
}
