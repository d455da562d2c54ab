import path from 'node:path';
import type { HookInput } from '../core/input.js';
import type { Hook } from '../core/hook.js';
import { ParsedScripts } from '../shell/parsed.js';
import { loadBashParser, type Parser } from '../shell/parser.js';
import {
  assertBoolean,
  assertStringArray,
  decide,
  DEFAULT_GUARD_PRIORITY,
  noWorkspace,
  perWorkspace,
  toHookResult,
  workspaceOf,
  type CommonGuardOptions,
  type GuardDecision,
} from './common.js';
import { PathPolicy, type PathPolicyOptions } from './paths/judge.js';
import { ShellJudgement, type Judgement, type ShellJudgeOptions } from './shell/judge.js';
import { compileRules, type ShellRule } from './shell/rules.js';
import { compilePacks, type PackName, type PacksOption } from './shell/packs/index.js';

export interface ShellGuardOptions extends CommonGuardOptions, Omit<PathPolicyOptions, 'workspace'> {
  /** Tool names whose `tool_input.command` is a shell command. Default `['Bash']`. */
  tools?: string[];
  /** Commands to pre-approve (the hook answers allow when every command matches). */
  allow?: ShellRule[];
  /** Commands that always need a person's confirmation. */
  ask?: ShellRule[];
  /** Commands that are always refused. */
  deny?: ShellRule[];
  /**
   * Rule packs that know what cannot be undone, each on by default:
   * `{ git, files, databases, containers, clouds, publishing }`; `{ clouds: false }` turns one off.
   */
  packs?: PacksOption;
}

/** Judges shell commands synchronously once the parser is loaded. */
export interface ShellJudge {
  judge(command: string, cwd?: string): GuardDecision;
  /** The decision with what led to it: every simple command, wrappers peeled, pack rules, disk looks. */
  explain(command: string, cwd?: string): GuardDecision & { explanation: Judgement };
  readonly policy: PathPolicy;
}

interface Compiled {
  interactive: boolean;
  /** Judge options for one workspace (policies are cached per workspace). */
  forWorkspace: (workspace: string) => ShellJudgeOptions;
}

function compile(options: ShellGuardOptions): Compiled {
  const guard = 'shellGuard';
  assertBoolean(options.interactive, 'interactive', guard);
  assertStringArray(options.tools, 'tools', guard);
  // Bad options fail when the guard is made, not on its first call.
  new PathPolicy({ ...options, workspace: options.workspace ?? path.sep });
  const rules = {
    allow: compileRules(options.allow, 'allow'),
    ask: compileRules(options.ask, 'ask'),
    deny: compileRules(options.deny, 'deny'),
    packs: compilePacks(options.packs),
    // One per guard, shared by its workspaces: the parse of a command does not depend on where it runs.
    scripts: new ParsedScripts(),
  };
  return {
    interactive: options.interactive === true,
    forWorkspace: perWorkspace((workspace) => ({ policy: new PathPolicy({ ...options, workspace }), ...rules })),
  };
}

function makeJudge(p: Parser, judgeOptions: ShellJudgeOptions, interactive: boolean): ShellJudge {
  return {
    policy: judgeOptions.policy,
    judge(command, cwd) {
      if (typeof command !== 'string') return decide([{ level: 'unprovable', reason: 'the command is not a string' }], interactive, '');
      return this.explain(command, cwd);
    },
    explain(command, cwd) {
      // The judgement resolves the folder itself.
      const result = new ShellJudgement(p, judgeOptions, cwd ?? judgeOptions.policy.workspace).run(command);
      const decision = decide(
        result.findings,
        interactive,
        result.allowedByRule ? 'every command matches your allow rules' : 'no rule objects to this command',
        result.allowedByRule,
      );
      // Not enumerable: a decision stays a plain { decision, reason, findings } when printed or compared.
      return Object.defineProperty(decision, 'explanation', { value: result, enumerable: false }) as GuardDecision & {
        explanation: Judgement;
      };
    },
  };
}

/**
 * Load the parser (once per process) and return a synchronous judge. The
 * workspace is the `workspace` option, else the process's cwd when the judge
 * is made (for the CLI and scripts; the hook never uses the process's cwd).
 */
export async function loadShellJudge(options: ShellGuardOptions = {}): Promise<ShellJudge> {
  const { forWorkspace, interactive } = compile(options);
  return makeJudge(await loadBashParser(), forWorkspace(path.resolve(options.workspace ?? process.cwd())), interactive);
}

/** The packs each shell guard has on, by its handler (for `hookwise check`). */
const PACKS_BY_HANDLER = new WeakMap<object, ReadonlySet<PackName>>();

/** The rule packs a registered hook has on, when it is a shell guard. */
export function shellGuardPacks(hook: { handler?: unknown }): ReadonlySet<PackName> | undefined {
  return typeof hook.handler === 'function' ? PACKS_BY_HANDLER.get(hook.handler) : undefined;
}

/**
 * A PreToolUse hook that parses shell commands with a real bash grammar and
 * refuses what it cannot prove safe. The workspace is the `workspace` option,
 * else the host's project folder on each call (see workspaceOf).
 */
export function shellGuard(options: ShellGuardOptions = {}): Hook<'PreToolUse'> {
  const { forWorkspace, interactive } = compile(options);
  const tools = new Set(options.tools ?? ['Bash']);
  const judges = perWorkspace((workspace) => (parser ? makeJudge(parser, forWorkspace(workspace), interactive) : undefined));
  let parser: Parser | undefined;
  // The judge reports a command that is not a string, so it is passed on unchecked.
  const run = (input: HookInput, workspace: string) => {
    const judge = judges(workspace)!;
    return toHookResult(
      judge.judge(input.tool_input?.command as string, typeof input.cwd === 'string' && path.isAbsolute(input.cwd) ? input.cwd : workspace),
    );
  };
  const hook: Hook<'PreToolUse'> = {
    name: options.name ?? 'guard:shell',
    events: 'PreToolUse',
    matcher: (input: HookInput) => typeof input.tool_name === 'string' && tools.has(input.tool_name),
    priority: options.priority ?? DEFAULT_GUARD_PRIORITY,
    onError: 'block',
    recheck: true,
    statusMessage: 'hookwise: checking the shell command',
    handler: (input, ctx) => {
      const workspace = workspaceOf(options.workspace, input, ctx);
      if (workspace === undefined) return noWorkspace('the shell guard', interactive);
      if (parser) return run(input, workspace);
      // First use: load the parser, then stay synchronous.
      return loadBashParser().then((p) => {
        parser = p;
        return run(input, workspace);
      });
    },
  };
  PACKS_BY_HANDLER.set(hook.handler, compilePacks(options.packs));
  return hook;
}
