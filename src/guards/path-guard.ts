import path from 'node:path';
import type { HookInput } from '../core/input.js';
import type { Hook } from '../core/hook.js';
import { assertBoolean, assertStringArray, decide, DEFAULT_GUARD_PRIORITY, toHookResult, type CommonGuardOptions, type GuardDecision } from './common.js';
import { PathPolicy, type Access, type PathPolicyOptions } from './paths/judge.js';

export interface PathGuardOptions extends CommonGuardOptions, Omit<PathPolicyOptions, 'workspace'> {
  /** Extra tool names that read the path in their input. */
  readTools?: string[];
  /** Extra tool names that write the path in their input. */
  writeTools?: string[];
}

export const READ_TOOLS = ['Read', 'Glob', 'Grep', 'LS', 'NotebookRead'];
export const WRITE_TOOLS = ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'];

/** Judge one path with a policy, as the guard does; `tool` names who asks in the reason. */
export function judgePath(policy: PathPolicy, raw: string, access: Access, cwd: string, interactive: boolean, tool?: string): GuardDecision {
  const verb = access === 'write' ? 'writing' : 'reading';
  const who = tool ? `\`${tool}\` ${verb}` : verb;
  const v = policy.check(raw, access, { cwd });
  if (v.level === 'allow') return { decision: 'allow', reason: `${who} ${v.shown} is allowed`, findings: [] };
  return decide([{ level: v.level, reason: `${who} ${v.shown}: ${v.why}` }], interactive, '');
}

/** The paths a file tool's input names. */
export function toolPaths(input: HookInput): string[] {
  const args = input.tool_input ?? {};
  const out: string[] = [];
  for (const key of ['file_path', 'path', 'notebook_path']) {
    const v = args[key];
    if (typeof v === 'string' && v !== '') out.push(v);
  }
  const pattern = args.pattern;
  if (input.tool_name === 'Glob' && typeof pattern === 'string' && (/^(\/|~)/.test(pattern) || pattern.split('/').includes('..'))) {
    // The folder the glob starts from: everything before the first wildcard.
    const parts = pattern.split('/');
    const stop = parts.findIndex((p) => /[*?[{]/.test(p));
    out.push(parts.slice(0, stop < 0 ? parts.length : stop).join('/') || '/');
  }
  return out;
}

/** A PreToolUse hook that keeps file tools inside the workspace and away from protected files. */
export function pathGuard(options: PathGuardOptions = {}): Hook<'PreToolUse'> {
  const guard = 'pathGuard';
  assertBoolean(options.interactive, 'interactive', guard);
  assertStringArray(options.readTools, 'readTools', guard);
  assertStringArray(options.writeTools, 'writeTools', guard);
  const policy = new PathPolicy({ ...options, workspace: options.workspace ?? process.cwd() });
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
    handler: (input) => {
      const kind = access.get(input.tool_name!)!;
      const cwd = path.resolve(typeof input.cwd === 'string' ? input.cwd : policy.workspace);
      const paths = toolPaths(input);
      // Search tools without a path search the working folder.
      if (paths.length === 0 && kind === 'read') paths.push(cwd);
      for (const p of paths) {
        const d = judgePath(policy, p, kind, cwd, interactive, input.tool_name);
        if (d.decision !== 'allow') return toHookResult(d);
      }
      return undefined;
    },
  };
}
