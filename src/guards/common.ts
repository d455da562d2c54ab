import path from 'node:path';
import type { HookInput } from '../core/input.js';
import type { PolicyFile } from '../core/spec.js';
import { allow, ask, deny, type HookResult } from '../core/results.js';
import { normalizePath } from '../path-policy/resolve.js';
import { GuardOptionError } from './errors.js';

/** Options every guard takes. */
export interface CommonGuardOptions {
  /**
   * The root folder. Default: the host's project folder for each call
   * (`ctx.projectDir`, else the input's `cwd`); never the process's cwd.
   */
  workspace?: string;
  /** false (default): what cannot be proven safe is denied; true: it is asked. */
  interactive?: boolean;
  /** Hook priority; guards run before user hooks. Default 1000. */
  priority?: number;
  /** Hook name. Default `guard:<kind>`. */
  name?: string;
}

export const DEFAULT_GUARD_PRIORITY = 1000;

/** A guard's answer about one operation. */
export interface GuardDecision {
  /** `allow`: nothing to object to (the hook then has no opinion unless `explicit`). */
  decision: 'allow' | 'ask' | 'deny';
  reason: string;
  /** A user allow rule matched: the hook answers allow (pre-approves) instead of no opinion. */
  explicit?: boolean;
  /** Everything found, worst first. */
  findings: Array<{ level: 'deny' | 'irreversible' | 'unprovable' | 'ask'; reason: string }>;
  /** What hookwise could not prove safe and lets run because the OS sandbox contains it. */
  contained?: string[];
}

/** Turn a decision into what the hook returns. A guard never pre-approves by itself. */
export function toHookResult(d: GuardDecision): HookResult | undefined {
  if (d.decision === 'deny') return deny(d.reason);
  if (d.decision === 'ask') return ask(d.reason);
  return d.explicit ? allow(d.reason) : undefined;
}

/**
 * Fold findings into one decision: deny > irreversible (ask or deny, never contained) > unprovable (ask or deny) > ask > allow.
 * `contained`: the command will run in the OS sandbox, so what is only unprovable
 * runs there instead of being refused (docs/security.md#the-os-sandbox).
 */
export function decide(
  findings: GuardDecision['findings'],
  interactive: boolean,
  allowReason: string,
  explicit = false,
  contained: boolean | ((reason: string) => boolean) = false,
): GuardDecision {
  const order = { deny: 0, irreversible: 1, unprovable: 2, ask: 3 } as const;
  const sorted = [...findings].sort((a, b) => order[a.level] - order[b.level]);
  // A predicate: only some unprovable findings are contained (the sandbox's own /tmp, whatever its network).
  const holds = (f: GuardDecision['findings'][number]) =>
    f.level === 'unprovable' && (typeof contained === 'function' ? contained(f.reason) : contained);
  const inSandbox = sorted.filter(holds).map((f) => f.reason);
  const worst = sorted.find((f) => !holds(f));
  if (!worst) {
    const reason =
      inSandbox.length > 0
        ? `runs in the OS sandbox, which contains what hookwise cannot prove safe: ${inSandbox.join('; ')}`
        : allowReason;
    const d: GuardDecision = { decision: 'allow', reason, findings: sorted };
    if (inSandbox.length > 0) d.contained = inSandbox;
    if (explicit && inSandbox.length === 0) d.explicit = true;
    return d;
  }
  const same = sorted.filter((f) => f.level === worst.level).map((f) => f.reason);
  const listed = same.length > 3 ? [...same.slice(0, 3), `and ${same.length - 3} more`] : same;
  let reason = listed.join('; ');
  if (worst.level === 'unprovable') reason = `hookwise cannot prove this safe: ${reason}`;
  if (worst.level === 'irreversible') reason = `hookwise cannot tell what this would destroy: ${reason}`;
  const decision = worst.level === 'deny' ? 'deny' : worst.level === 'ask' ? 'ask' : interactive ? 'ask' : 'deny';
  return { decision, reason, findings: sorted };
}

export function assertBoolean(value: unknown, field: string, guard: string): void {
  if (value !== undefined && typeof value !== 'boolean')
    throw new GuardOptionError(`${guard}: ${field} must be true or false, got ${JSON.stringify(value)}`);
}

export function assertStringArray(value: unknown, field: string, guard: string): void {
  if (value !== undefined && (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))) {
    throw new GuardOptionError(`${guard}: ${field} must be an array of strings`);
  }
}

/**
 * The folder a guard protects on one call: the explicit option, else the host's
 * project folder, else the input's cwd. The process's own cwd is never used: a
 * hook process started from `/` must not judge `/` to be the workspace.
 * undefined: no absolute folder is known, so nothing can be proven.
 */
export function workspaceOf(explicit: string | undefined, input: HookInput, ctx: unknown): string | undefined {
  if (explicit !== undefined) return path.resolve(explicit);
  // The core adds `projectDir` to the context; read it defensively.
  const projectDir = (ctx as { projectDir?: unknown } | undefined)?.projectDir;
  for (const candidate of [projectDir, input.cwd]) {
    if (typeof candidate === 'string' && path.isAbsolute(candidate)) return normalizePath(candidate);
  }
  return undefined;
}

/** The answer when no workspace is known. */
export function noWorkspace(guard: string, interactive: boolean): HookResult {
  const reason = `hookwise cannot prove this safe: ${guard} has no workspace (no \`workspace\` option, no project folder from the host, no absolute cwd in the input)`;
  return interactive ? ask(reason) : deny(reason);
}

/** One compiled value per workspace, the most recent few kept (a policy compiles its globs once). */
export function perWorkspace<T>(make: (workspace: string) => T, keep = 16): (workspace: string) => T {
  const cache = new Map<string, T>();
  return (workspace) => {
    let v = cache.get(workspace);
    if (v === undefined) {
      v = make(workspace);
      if (cache.size >= keep) cache.delete(cache.keys().next().value!);
      cache.set(workspace, v);
    }
    return v;
  };
}

const NO_POLICY_FILES: readonly PolicyFile[] = Object.freeze([]);

/** The files the running policy was loaded from (`ctx.policyFiles`), read defensively: none for an engine made in code. */
export function policyFilesOf(ctx: unknown): readonly PolicyFile[] {
  const files = (ctx as { policyFiles?: unknown } | undefined)?.policyFiles;
  return Array.isArray(files) ? (files as readonly PolicyFile[]) : NO_POLICY_FILES;
}

/**
 * One compiled value per workspace and policy: an engine hands every fire the same
 * list of policy files, so a value is made once per engine that runs the guard.
 */
export function perPolicy<T>(
  make: (workspace: string, files: readonly PolicyFile[]) => T,
): (workspace: string, files?: readonly PolicyFile[]) => T {
  const byWorkspace = perWorkspace(() => new WeakMap<readonly PolicyFile[], T>());
  return (workspace, files = NO_POLICY_FILES) => {
    const made = byWorkspace(workspace);
    let v = made.get(files);
    if (v === undefined) made.set(files, (v = make(workspace, files)));
    return v;
  };
}
