import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// Through require (lazy-deps), not `import picomatch from 'picomatch'`: imported as an ES module
// from a linked copy of hookwise, the CommonJS picomatch came out as an empty namespace.
import { picomatch } from '../core/lazy-deps.js';
import type { PolicyFile } from '../core/spec.js';
import { stateDirOf } from '../core/state-dir.js';
import {
  DEFAULT_PROTECTED,
  DEFAULT_SECRETS,
  HOOKWISE_STATE_WHY,
  PROTECTED_EXCEPTIONS,
  SECRET_EXCEPTIONS,
  type PathRule,
} from './protected.js';
import { isWithin, probeCaseInsensitive, resolvePath, resolveReal } from './resolve.js';
import { textHazard } from './text-hazards.js';
import { windowsProblem } from './windows.js';
import { PathPolicyOptionError } from './errors.js';
import { OWN_INSTALL_WHY, ownInstallWithin } from './own-install.js';

export type Access = 'read' | 'write';

export interface PathPolicyOptions {
  /** The root folder. Default: the process's cwd when the policy is made. */
  workspace?: string;
  /** `workspace` (default): reads are jailed like writes; `anywhere`: only secrets are refused. */
  read?: 'workspace' | 'anywhere';
  /** Extra folders that may be read. */
  allowRead?: string[];
  /** Extra folders that may be written (and read). */
  allowWrite?: string[];
  /** Extra write-protected globs, relative to the workspace (`**` allowed). */
  protect?: string[];
  /** Extra read-protected globs: absolute, `~/...`, or relative to the workspace. */
  secrets?: string[];
  /** Home folder for `~` and `$HOME`. Default: os.homedir(). */
  home?: string;
  /** Compare paths ignoring case and Unicode normal form. Default: probed on the workspace's filesystem. */
  caseInsensitive?: boolean;
}

export interface PathVerdict {
  level: 'allow' | 'deny' | 'unprovable';
  /** The path as a person should read it: what was written, and where it really leads. */
  shown: string;
  /** The canonical absolute path, when it could be computed. */
  resolved?: string;
  /** Completes "`tool` writes <shown>, <why>". */
  why?: string;
}

export interface CheckOptions {
  /** Folder a relative path is relative to. */
  cwd: string;
  /** A recursive operation (rm -r, chmod -R): the folder's contents count too. */
  recursive?: boolean;
  /** A destination things are put into (`mv x /tmp/`), not itself replaced or deleted. */
  into?: boolean;
  /** Skip the Windows-form and hidden-character refusals (for words that may not be paths at all). */
  lenient?: boolean;
}

interface Matcher {
  test(rel: string): PathRule | undefined;
}

/**
 * The literal part every default pattern needs (`.ssh`, `id_rsa`, `.env`, ...):
 * a path without any of them skips the glob tests, which are the slow part.
 */
function anchorOf(pattern: string): string | undefined {
  // Braces and extglobs mean alternatives: no single literal is required.
  if (/[{}()!+@|]/.test(pattern)) return undefined;
  const literals = pattern
    .replace(/\\(.)/g, '$1')
    .split(/[*?[\]]+/)
    .map(
      (p) =>
        p
          .replace(/^\/+|\/+$/g, '')
          .split('/')
          .pop() ?? '',
    );
  const best = literals.filter((l) => l.length >= 3).sort((a, b) => b.length - a.length)[0];
  return best?.toLowerCase();
}

/**
 * Globs compile on first use, the exceptions once for all rules: compiling them all up
 * front (each rule with its own copy of the exceptions) was a third of a
 * `hookwise claude-code` call's CPU, and most paths never reach most rules (anchors).
 */
function compileRules(rules: PathRule[], exceptions: string[]): Matcher {
  const opts = { dot: true, nocase: true };
  let excepted: ((rel: string) => boolean) | undefined;
  const isException = (rel: string) => (excepted ??= picomatch()(exceptions, opts))(rel);
  const compiled = rules.map((r) => {
    let match: ((rel: string) => boolean) | undefined;
    return {
      rule: r,
      anchor: anchorOf(r.pattern),
      match: (rel: string) => (match ??= picomatch()(r.pattern.replace(/^\/+/, ''), opts))(rel),
    };
  });
  return {
    test(rel) {
      const lower = rel.toLowerCase();
      for (const c of compiled)
        if ((c.anchor === undefined || lower.includes(c.anchor)) && c.match(rel) && !isException(rel)) return c.rule;
      return undefined;
    },
  };
}

/** One of the policy's files, as the policy judges it: its real path, and whether it is a config itself. */
interface LoadedFile {
  real: string;
  file: PolicyFile;
  isPolicy: boolean;
}

/** Completes "… is a protected file (<why>)" for one of the policy's files: what it is, and how a person changes it. */
function policyFileWhy(file: PolicyFile, isPolicy: boolean): string {
  const what = isPolicy ? `hookwise's policy` : `the policy ${file.policy} loads it`;
  return `${what}; a person changes it outside the agent, then runs \`hookwise check\``;
}

/** Why a path that must stay absent is not written: what the loader would do with it. */
function shadowWhy(file: PolicyFile): string {
  return `which the loader would load in place of ${file.insteadOf}, a file the policy ${file.policy} loads; a person changes the policy outside the agent, then runs \`hookwise check\``;
}

function escapeGlob(s: string): string {
  return s.replace(/[*?[\]{}()!+@\\]/g, '\\$&');
}

/**
 * One place that decides whether a path may be read or written; shared by
 * pathGuard (file tools) and shellGuard (redirections, rm/cp/mv/tee targets).
 */
/** Why a write to a scratch folder is contained, whatever the sandbox's network: the folder is the session's own. */
export const SCRATCH_WHY = 'in a temporary folder, which the OS sandbox gives each session its own of';
/** The same, of a path that exists outside: the command changes only its session's copy. */
export const SCRATCH_HIDDEN_WHY =
  "which exists outside the sandbox: the command changes only its session's own copy, and the real one is untouched (a person can add the path to the shell guard's allowWrite)";

export class PathPolicy {
  readonly workspace: string;
  readonly home: string;
  readonly readMode: 'workspace' | 'anywhere';
  private readonly options: PathPolicyOptions;
  /** `folded`: the workspace as paths are compared (case-folded when the filesystem ignores case). */
  private roots:
    | { workspace: string; folded: string; read: string[]; write: string[]; fold: boolean; scratch: string[]; state: string }
    | undefined;
  /** Folders already resolved: textual path -> real path (the workspace). */
  private readonly known = new Map<string, string>();
  private readonly protectedRules: Matcher;
  private readonly secretRules: Matcher;

  /**
   * `scratch`: folders a command sees as its own empty copy (the OS sandbox's temporary
   * folders, for the shell guard only): a write there reaches nothing outside, so it is allowed.
   * `policyFiles`: the files the running policy was loaded from (`ctx.policyFiles`): never
   * written, as the config itself is not, and the OS sandbox shows them read-only.
   */
  constructor(
    options: PathPolicyOptions = {},
    private readonly scratch: readonly string[] = [],
    private readonly policyFiles: readonly PolicyFile[] = [],
  ) {
    this.options = options;
    this.workspace = path.resolve(options.workspace ?? process.cwd());
    this.home = path.resolve(options.home ?? os.homedir());
    this.readMode = options.read ?? 'workspace';
    if (this.readMode !== 'workspace' && this.readMode !== 'anywhere') {
      throw new PathPolicyOptionError(`path policy: read must be "workspace" or "anywhere", got ${JSON.stringify(options.read)}`);
    }
    const home = escapeGlob(this.home.replace(/^\/+/, ''));
    const extraProtect = (options.protect ?? []).map((pattern) => ({ pattern, why: 'protected by your configuration' }));
    this.protectedRules = compileRules([...DEFAULT_PROTECTED, ...extraProtect], PROTECTED_EXCEPTIONS);
    const extraSecrets = (options.secrets ?? []).map((pattern) => ({ pattern, why: 'marked secret by your configuration' }));
    const secretRules = [...DEFAULT_SECRETS, ...extraSecrets].map((r) => ({
      ...r,
      pattern: r.pattern.startsWith('~/')
        ? `${home}/${r.pattern.slice(2)}`
        : r.pattern.startsWith('/') || r.pattern.startsWith('**')
          ? r.pattern
          : `${escapeGlob(this.workspace.replace(/^\/+/, ''))}/${r.pattern}`,
    }));
    this.secretRules = compileRules(secretRules, SECRET_EXCEPTIONS);
  }

  /** Canonical roots, computed on first use (the workspace may be created after the guard). */
  private canonicalRoots() {
    if (this.roots) return this.roots;
    const workspace = resolveReal(this.workspace).real;
    this.known.set(this.workspace, workspace);
    if (workspace !== this.workspace) this.known.set(workspace, workspace);
    const fold = this.options.caseInsensitive ?? probeCaseInsensitive(workspace);
    const canon = (p: string) => this.fold(resolveReal(path.resolve(this.expandHome(p) ?? p)).real, fold);
    const folded = this.fold(workspace, fold);
    const write = [folded, ...(this.options.allowWrite ?? []).map(canon)];
    const read = [...write, ...(this.options.allowRead ?? []).map(canon)];
    // hookwise's per-user state folder, wherever the environment puts it (src/core/state-dir.ts): never written, even inside an allowed folder.
    const state = canon(stateDirOf(process.env, this.home));
    this.roots = { workspace, folded, read, write, fold, scratch: this.scratch.map(canon), state };
    return this.roots;
  }

  /**
   * While one command is judged (withScratchView): each scratch folder -> the real folder
   * the sandbox shows there for its session. Set, a write to a path that exists outside
   * but not in the session's folder is refused: the command would change only its own
   * copy, and the model would believe it changed the real one.
   */
  private scratchView: Readonly<Record<string, string>> | undefined;

  /** Judge with the session's scratch folders known (synchronously: the view is this call's only). */
  withScratchView<T>(view: Readonly<Record<string, string>> | undefined, judge: () => T): T {
    const before = this.scratchView;
    this.scratchView = view;
    try {
      return judge();
    } finally {
      this.scratchView = before;
    }
  }

  /** The scratch folder a path is in, when the path exists outside the sandbox and not in the session's own folder. */
  private hiddenByScratch(real: string): string | undefined {
    const view = this.scratchView;
    if (view === undefined) return undefined;
    for (const [top, own] of Object.entries(view)) {
      if (!isWithin(real, top) || real === top) continue;
      const outside = fs.lstatSync(real, { throwIfNoEntry: false }) !== undefined;
      const inside = fs.lstatSync(path.join(own, path.relative(top, real)), { throwIfNoEntry: false }) !== undefined;
      return outside && !inside ? top : undefined;
    }
    return undefined;
  }

  /** In a scratch folder, and not in what the sandbox shows there again (the home folder, `allowRead`). */
  private inScratch(folded: string, roots: { read: string[]; scratch: string[]; fold: boolean }): boolean {
    if (!roots.scratch.some((dir) => isWithin(folded, dir))) return false;
    const home = this.fold(this.home, roots.fold);
    return !isWithin(folded, home) && !roots.read.some((dir) => isWithin(folded, dir));
  }

  private fold(p: string, fold: boolean): string {
    return fold ? p.normalize('NFC').toLowerCase() : p;
  }

  /** `~`, `~/x`, `$HOME/x`, `${HOME}/x`; undefined for `~user`. */
  expandHome(raw: string): string | undefined {
    if (raw === '~' || raw === '$HOME' || raw === '${HOME}') return this.home;
    const m = /^(~|\$HOME|\$\{HOME\})\/(.*)$/s.exec(raw);
    if (m) return `${this.home}/${m[2]}`;
    if (raw.startsWith('~')) return undefined;
    return raw;
  }

  /** Where a path really leads. */
  private locate(raw: string, opts: CheckOptions) {
    const expanded = this.expandHome(raw);
    if (expanded === undefined) return undefined;
    const cwd = resolvePath(opts.cwd);
    const joined = path.isAbsolute(expanded) ? expanded : `${cwd}${path.sep}${expanded}`;
    const roots = this.canonicalRoots();
    const r = resolveReal(joined, this.known);
    const textual = resolvePath(joined);
    const shown = r.viaSymlink ? `${raw} (through a symlink: ${r.real})` : textual !== raw ? `${raw} (${r.real})` : raw;
    return { r, roots, shown, folded: this.fold(r.real, roots.fold) };
  }

  private secretRule(folded: string, roots: { folded: string }): PathRule | undefined {
    const hit = this.secretRules.test(folded.replace(/^\/+/, ''));
    if (hit) return hit;
    const ws = roots.folded;
    if (isWithin(folded, ws) && folded !== ws) return this.secretRules.test(path.relative(ws, folded));
    return undefined;
  }

  /** Judge one path for one kind of access. */
  check(raw: string, access: Access, opts: CheckOptions): PathVerdict {
    if (raw === '') return { level: 'unprovable', shown: '""', why: 'an empty path' };
    if (!opts.lenient) {
      const hazard = textHazard(raw) ?? windowsProblem(raw);
      if (hazard) return { level: 'unprovable', shown: JSON.stringify(raw), why: `which ${hazard}` };
    }
    const where = this.locate(raw, opts);
    if (where === undefined) return { level: 'unprovable', shown: raw, why: "which names another user's home folder" };
    const { r, roots, shown, folded } = where;
    const real = r.real;
    const verdict = (level: PathVerdict['level'], why?: string): PathVerdict => {
      const v: PathVerdict = { level, shown, resolved: real };
      if (why) v.why = why;
      return v;
    };
    if (r.error) return verdict('unprovable', `which ${r.error}`);
    if (access === 'read') {
      const secret = this.secretRule(folded, roots);
      if (secret) return verdict('deny', `a secret file (${secret.why})`);
    }
    const allowedRoots = access === 'write' ? roots.write : this.readMode === 'anywhere' ? undefined : roots.read;
    const root = allowedRoots === undefined ? undefined : allowedRoots.find((candidate) => isWithin(folded, candidate));
    if (allowedRoots !== undefined && root === undefined) {
      // Unprovable, not allowed: only the sandbox makes it harmless, so without one it is refused.
      if (access === 'write' && this.inScratch(folded, roots) && !isWithin(folded, roots.state)) {
        // A recursive write to a temporary folder that holds the workspace (`rm -rf ..` of a workspace in /tmp) reaches it even in the sandbox.
        if (opts.recursive && !opts.into && isWithin(roots.folded, folded))
          return verdict('deny', `which contains the workspace ${roots.workspace}`);
        const top = this.hiddenByScratch(real);
        // The command changes the session's own copy: it runs, and its output says the real one was not touched (shell-guard.ts).
        if (top !== undefined) return verdict('unprovable', `${SCRATCH_HIDDEN_WHY} (inside, ${top} is this session's own folder)`);
        return verdict('unprovable', SCRATCH_WHY);
      }
      return verdict('deny', `outside the workspace ${roots.workspace}`);
    }
    if (access === 'read') return verdict('allow');
    // Inside an allowed folder: hookwise's state folder still is not written (outside them, the line above refused already).
    if (isWithin(folded, roots.state) || (opts.recursive && isWithin(roots.state, folded)))
      return verdict(
        'deny',
        isWithin(folded, roots.state) ? `a protected file (${HOOKWISE_STATE_WHY})` : `which contains ${roots.state}, ${HOOKWISE_STATE_WHY}`,
      );

    const rel = path.relative(root!, folded);
    if (opts.recursive && isWithin(roots.folded, folded)) return verdict('deny', `which is the whole workspace ${roots.workspace}`);
    const own = (this.ownFolders ??= ownInstallWithin(roots.workspace)).find((folder) => isWithin(real, folder));
    if (own !== undefined) return verdict('deny', `a protected file (${OWN_INSTALL_WHY}: ${own})`);
    const loaded = this.policyFileAt(folded);
    if (loaded)
      return verdict(
        'deny',
        loaded.file.insteadOf ? shadowWhy(loaded.file) : `a protected file (${policyFileWhy(loaded.file, loaded.isPolicy)})`,
      );
    const hit = rel !== '' ? this.protectedRules.test(rel) : undefined;
    if (hit) return verdict('deny', `a protected file (${hit.why})`);
    if (opts.recursive) {
      const inner = this.policyFilesIn(folded)[0];
      if (inner) return verdict('deny', `which contains ${inner.real} (${policyFileWhy(inner.file, inner.isPolicy)})`);
    }
    if (opts.recursive && r.stat?.isDirectory()) {
      // `real` is resolved already: walk only the name inside it, not every folder above again.
      const below = new Map([[real, real]]);
      for (const inner of ['.git', '.claude', '.hookwise']) {
        if (resolveReal(path.join(real, inner), below).stat) return verdict('deny', `which contains ${inner}, a protected folder`);
      }
    }
    if (r.stat?.isFile() && r.stat.nlink > 1) {
      return verdict('unprovable', `which has ${r.stat.nlink} hard links: writing it also changes the same file under another name`);
    }
    return verdict('allow');
  }

  /** The real folders this policy lets be written, the workspace first, and those it lets be read (for the OS sandbox). */
  realRoots(): { workspace: string; write: string[]; read: string[] } {
    const roots = this.canonicalRoots();
    return { workspace: roots.workspace, write: roots.write, read: roots.read };
  }

  /** The protected-file rule a real path inside write root `root` falls under, without looking at the disk. */
  protectedRuleOf(real: string, root: string): PathRule | undefined {
    const rel = path.relative(root, this.fold(real, this.canonicalRoots().fold));
    return rel === '' || rel.startsWith('..') ? undefined : this.protectedRules.test(rel);
  }

  /** The policy's files (policyFiles) as real paths, case-folded as this policy compares paths, each with what it is. */
  private policyIndex: Map<string, LoadedFile> | undefined;
  /** hookwise's own folders inside the workspace (./own-install.ts), found on the first write judged. */
  private ownFolders: string[] | undefined;

  private policyFilesByPath(): Map<string, LoadedFile> {
    if (this.policyIndex) return this.policyIndex;
    const fold = this.canonicalRoots().fold;
    const real = (p: string) => resolveReal(path.resolve(p)).real;
    this.policyIndex = new Map();
    for (const file of this.policyFiles) {
      const at = real(file.path);
      const key = this.fold(at, fold);
      // The first naming wins: the config is listed before the files it loads.
      if (!this.policyIndex.has(key)) this.policyIndex.set(key, { real: at, file, isPolicy: at === real(file.policy) });
    }
    return this.policyIndex;
  }

  /** The policy file a resolved, folded path is, if any. */
  private policyFileAt(folded: string): LoadedFile | undefined {
    return this.policyFiles.length === 0 ? undefined : this.policyFilesByPath().get(folded);
  }

  /** The policy's files inside a folder (a resolved, folded path), with their real paths; not the paths that must stay absent. */
  private policyFilesIn(folded: string): LoadedFile[] {
    if (this.policyFiles.length === 0) return [];
    return [...this.policyFilesByPath()]
      .filter(([p, v]) => v.file.insteadOf === undefined && p !== folded && isWithin(p, folded))
      .map(([, v]) => v);
  }

  /** The real paths of the policy's files (for the OS sandbox, which shows them read-only). */
  policyFilePaths(): string[] {
    return [...this.policyFilesByPath().values()].filter((v) => v.file.insteadOf === undefined).map((v) => v.real);
  }

  /** The real paths that must stay absent, the loader would load them instead (for the OS sandbox, which moves them aside). */
  policyShadowPaths(): string[] {
    return [...this.policyFilesByPath().values()].filter((v) => v.file.insteadOf !== undefined).map((v) => v.real);
  }

  /** The policy's files inside a real folder, relative to it (for globs that could reach one). */
  policyFilesWithin(realDir: string): string[] {
    const roots = this.canonicalRoots();
    return this.policyFilesIn(this.fold(realDir, roots.fold)).map((v) => path.relative(realDir, v.real));
  }

  /** The secret rules' patterns as written (`~/.ssh`, `/etc/shadow`, `.env` at any depth), the configured ones included. */
  secretPatterns(): string[] {
    return [...DEFAULT_SECRETS, ...(this.options.secrets ?? []).map((pattern) => ({ pattern }))].map((r) => r.pattern);
  }

  /** The secret rule a real path falls under, without looking at the disk. */
  secretRuleOf(real: string): PathRule | undefined {
    const roots = this.canonicalRoots();
    return this.secretRule(this.fold(real, roots.fold), roots);
  }

  /** Whether a path really lies in the workspace or an extra read/write root (no other test). */
  isInside(raw: string, cwd: string): boolean {
    if (raw === '') return false;
    const where = this.locate(raw, { cwd });
    if (!where || where.r.error) return false;
    return where.roots.read.some((root) => isWithin(where.folded, root));
  }

  /** Only the secret test, for words that may or may not be paths. */
  isSecret(raw: string, cwd: string): PathVerdict | undefined {
    if (raw === '') return undefined;
    const where = this.locate(raw, { cwd });
    if (where?.r.magic) return { level: 'unprovable', shown: where.shown, resolved: where.r.real, why: `which ${where.r.error}` };
    if (!where || where.r.error) return undefined;
    const secret = this.secretRule(where.folded, where.roots);
    if (!secret) return undefined;
    return { level: 'deny', shown: where.shown, resolved: where.r.real, why: `a secret file (${secret.why})` };
  }
}
