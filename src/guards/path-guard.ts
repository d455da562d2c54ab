import path from 'node:path';
import type { HookInput } from '../core/input.js';
import type { Hook } from '../core/hook.js';
import {
  assertBoolean,
  assertStringArray,
  decide,
  DEFAULT_GUARD_PRIORITY,
  noWorkspace,
  perPolicy,
  policyFilesOf,
  toHookResult,
  workspaceOf,
  type CommonGuardOptions,
  type GuardDecision,
} from './common.js';
import { globBase, globCandidates } from '../path-policy/glob-walk.js';
import { globReadCandidates, SECRET_FILE_NAMES } from './shell/globs.js';
import { expandBraces } from '../shell/words.js';
import picomatch from 'picomatch';
import { PathPolicy, type Access, type PathPolicyOptions } from '../path-policy/judge.js';

export interface PathGuardOptions extends CommonGuardOptions, Omit<PathPolicyOptions, 'workspace'> {
  /** Extra tool names that read the path in their input. */
  readTools?: string[];
  /** Extra tool names that write the path in their input. */
  writeTools?: string[];
}

export const READ_TOOLS = ['Read', 'Glob', 'Grep', 'LS', 'NotebookRead'];
export const WRITE_TOOLS = ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'];

/** Judge one path with a policy, as the guard does; `tool` names who asks in the reason. */
export function judgePath(
  policy: PathPolicy,
  raw: string,
  access: Access,
  cwd: string,
  interactive: boolean,
  tool?: string,
): GuardDecision {
  const verb = access === 'write' ? 'writing' : 'reading';
  const who = tool ? `\`${tool}\` ${verb}` : verb;
  const v = policy.check(raw, access, { cwd });
  if (v.level === 'allow') return { decision: 'allow', reason: `${who} ${v.shown} is allowed`, findings: [] };
  return decide([{ level: v.level, reason: `${who} ${v.shown}: ${v.why}` }], interactive, '');
}

const PATH_KEYS = ['file_path', 'path', 'notebook_path'];

/** What a file tool's input names: paths to judge, and what cannot be read as a path. */
export function toolPaths(input: HookInput): { paths: string[]; unreadable: string[] } {
  const args = input.tool_input ?? {};
  const paths: string[] = [];
  const unreadable: string[] = [];
  for (const key of PATH_KEYS) {
    const v = args[key];
    if (v === undefined || v === null) continue;
    if (typeof v === 'string' && v !== '') paths.push(v);
    else unreadable.push(`${key} is ${typeof v === 'string' ? 'empty' : Array.isArray(v) ? 'an array' : typeof v}, not a path`);
  }
  // Glob patterns (and Grep's file filter) start from a folder: everything before the first wildcard.
  for (const key of input.tool_name === 'Glob' ? ['pattern'] : input.tool_name === 'Grep' ? ['glob'] : []) {
    const v = args[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') unreadable.push(`${key} is ${Array.isArray(v) ? 'an array' : typeof v}, not a glob`);
    else if (v !== '') paths.push(v);
  }
  return { paths, unreadable };
}

/** A PreToolUse hook that keeps file tools inside the workspace and away from protected files. */
export function pathGuard(options: PathGuardOptions = {}): Hook<'PreToolUse'> {
  const guard = 'pathGuard';
  assertBoolean(options.interactive, 'interactive', guard);
  assertStringArray(options.readTools, 'readTools', guard);
  assertStringArray(options.writeTools, 'writeTools', guard);
  const policies = perPolicy((workspace, files) => new PathPolicy({ ...options, workspace }, [], files));
  // Bad options fail when the guard is made, not on its first call.
  new PathPolicy({ ...options, workspace: options.workspace ?? path.sep });
  const interactive = options.interactive === true;
  const access = new Map<string, Access>();
  for (const t of [...READ_TOOLS, ...(options.readTools ?? [])]) access.set(t, 'read');
  for (const t of [...WRITE_TOOLS, ...(options.writeTools ?? [])]) access.set(t, 'write');
  return {
    name: options.name ?? 'guard:path',
    events: 'PreToolUse',
    matcher: (input: HookInput) => typeof input.tool_name === 'string' && access.has(input.tool_name),
    priority: options.priority ?? DEFAULT_GUARD_PRIORITY,
    onError: 'block',
    recheck: true,
    handler: (input, ctx) => {
      const workspace = workspaceOf(options.workspace, input, ctx);
      if (workspace === undefined) return noWorkspace('the path guard', interactive);
      const policy = policies(workspace, policyFilesOf(ctx));
      const tool = input.tool_name!;
      const kind = access.get(tool)!;
      const cwd = typeof input.cwd === 'string' && path.isAbsolute(input.cwd) ? input.cwd : workspace;
      const { paths, unreadable } = toolPaths(input);
      if (unreadable.length > 0)
        return toHookResult(
          decide(
            unreadable.map((reason) => ({ level: 'unprovable' as const, reason: `\`${tool}\` input: ${reason}` })),
            interactive,
            '',
          ),
        );
      if (paths.length === 0) {
        // A writer must name its file; a search tool without a path searches the working folder.
        if (kind === 'write')
          return toHookResult(decide([{ level: 'unprovable', reason: `\`${tool}\` names no file to write` }], interactive, ''));
        paths.push(cwd);
      }
      const isGlob = (p: string) =>
        (tool === 'Glob' && p === input.tool_input?.pattern) || (tool === 'Grep' && p === input.tool_input?.glob);
      // A tool's own folder argument (`cwd`, `dir_path`, `directory`): relative paths are the tool's from there.
      const own = toolFolder(input);
      const from = own === undefined ? cwd : path.resolve(cwd, policy.expandHome(own) ?? own);
      if (own !== undefined) {
        const d = judgePath(policy, from, 'read', cwd, interactive, tool);
        if (d.decision !== 'allow') return toHookResult(d);
      }
      const base =
        typeof input.tool_input?.path === 'string' && input.tool_input.path !== ''
          ? path.resolve(from, policy.expandHome(input.tool_input.path) ?? input.tool_input.path)
          : from;
      for (const p of paths) {
        if (!isGlob(p)) {
          const d = judgePath(policy, p, kind, from, interactive, tool);
          if (d.decision !== 'allow') return toHookResult(d);
          continue;
        }
        const refused = judgeGlob(policy, p, base, tool, interactive);
        if (refused !== undefined) return toHookResult(refused);
      }
      return undefined;
    },
  };
}

/** The folder a file tool's own argument names, if any (some agents' tools take one beside the path). */
function toolFolder(input: HookInput): string | undefined {
  for (const key of ['cwd', 'dir_path', 'directory']) {
    const v = input.tool_input?.[key];
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}

/**
 * A glob reads wherever its folders lead, symlinks included: each alternative of its
 * braces (`{src,../elsewhere}/*`) is judged, with every folder it can reach now. Grep's
 * file filter without a slash matches a name at any depth, and Grep returns contents:
 * a filter that could match a secret name (`.env*`) is judged as if it did.
 */
function judgeGlob(policy: PathPolicy, pattern: string, base: string, tool: string, interactive: boolean): GuardDecision | undefined {
  const alternatives = expandBraces(pattern);
  if (alternatives === undefined)
    return decide(
      [{ level: 'unprovable', reason: `\`${tool}\` ${pattern}: its braces expand to too many patterns to judge` }],
      interactive,
      '',
    );
  for (const alt of alternatives) {
    const targets = [globBase(alt), ...globCandidates(alt, base, policy.home)];
    if (tool === 'Grep') {
      const name = alt.includes('/') ? undefined : picomatch(alt, { dot: true });
      if (name !== undefined) targets.push(...SECRET_FILE_NAMES.filter((n) => name(n)).map((n) => path.join(base, n)));
      else targets.push(...globReadCandidates(alt, base, true));
    }
    for (const t of targets) {
      const d = judgePath(policy, t, 'read', base, interactive, tool);
      if (d.decision !== 'allow') return d;
    }
  }
  return undefined;
}
