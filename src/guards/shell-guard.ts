import path from 'node:path';
import type { HookInput } from '../core/input.js';
import type { Hook } from '../core/hook.js';
import { loadBashParser, type Parser } from '../shell/parser.js';
import { assertBoolean, assertStringArray, decide, DEFAULT_GUARD_PRIORITY, toHookResult, type CommonGuardOptions, type GuardDecision } from './common.js';
import { PathPolicy, type PathPolicyOptions } from './paths/judge.js';
import { ShellJudgement, type ShellJudgeOptions } from './shell/judge.js';
import { compileRules, type ShellRule } from './shell/rules.js';

export interface ShellGuardOptions extends CommonGuardOptions, Omit<PathPolicyOptions, 'workspace'> {
  /** Tool names whose `tool_input.command` is a shell command. Default `['Bash']`. */
  tools?: string[];
  /** Commands to pre-approve (the hook answers allow when every command matches). */
  allow?: ShellRule[];
  /** Commands that always need a person's confirmation. */
  ask?: ShellRule[];
  /** Commands that are always refused. */
  deny?: ShellRule[];
}

/** Judges shell commands synchronously once the parser is loaded. */
export interface ShellJudge {
  judge(command: string, cwd?: string): GuardDecision;
  readonly policy: PathPolicy;
}

function compile(options: ShellGuardOptions): { judgeOptions: ShellJudgeOptions; interactive: boolean } {
  const guard = 'shellGuard';
  assertBoolean(options.interactive, 'interactive', guard);
  assertStringArray(options.tools, 'tools', guard);
  const policy = new PathPolicy({ ...options, workspace: options.workspace ?? process.cwd() });
  return {
    interactive: options.interactive === true,
    judgeOptions: { policy, allow: compileRules(options.allow, 'allow'), ask: compileRules(options.ask, 'ask'), deny: compileRules(options.deny, 'deny') },
  };
}

function makeJudge(p: Parser, judgeOptions: ShellJudgeOptions, interactive: boolean): ShellJudge {
  return {
    policy: judgeOptions.policy,
    judge(command, cwd) {
      if (typeof command !== 'string') return decide([{ level: 'unprovable', reason: 'the command is not a string' }], interactive, '');
      const result = new ShellJudgement(p, judgeOptions, path.resolve(cwd ?? judgeOptions.policy.workspace)).run(command);
      return decide(result.findings, interactive, result.allowedByRule ? 'every command matches your allow rules' : 'no rule objects to this command', result.allowedByRule);
    },
  };
}

/** Load the parser (once per process) and return a synchronous judge. */
export async function loadShellJudge(options: ShellGuardOptions = {}): Promise<ShellJudge> {
  const { judgeOptions, interactive } = compile(options);
  return makeJudge(await loadBashParser(), judgeOptions, interactive);
}

/**
 * A PreToolUse hook that parses shell commands with a real bash grammar and
 * refuses what it cannot prove safe.
 */
export function shellGuard(options: ShellGuardOptions = {}): Hook<'PreToolUse'> {
  const { judgeOptions, interactive } = compile(options);
  const tools = new Set(options.tools ?? ['Bash']);
  let judge: ShellJudge | undefined;
  // The judge reports a command that is not a string, so it is passed on unchecked.
  const run = (j: ShellJudge, input: HookInput) =>
    toHookResult(j.judge(input.tool_input?.command as string, typeof input.cwd === 'string' ? input.cwd : undefined));
  return {
    name: options.name ?? 'guard:shell',
    events: 'PreToolUse',
    matcher: (input: HookInput) => typeof input.tool_name === 'string' && tools.has(input.tool_name),
    priority: options.priority ?? DEFAULT_GUARD_PRIORITY,
    onError: 'block',
    statusMessage: 'hookwise: checking the shell command',
    handler: (input) => {
      if (judge) return run(judge, input);
      // First use: load the parser, then stay synchronous.
      return loadBashParser().then((p) => run((judge ??= makeJudge(p, judgeOptions, interactive)), input));
    },
  };
}
