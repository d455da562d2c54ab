import path from 'node:path';
import type { HookInput } from '../core/input.js';
import type { MultiEventHook } from '../core/hook.js';
import { context, deny, modify } from '../core/results.js';
import type { HookContext, PolicyFile } from '../core/spec.js';
import { heldBack } from '../sandbox/held-back.js';
import { PRIVATE_TEMP } from '../sandbox/layout.js';
import { privateTempRoot, removePrivateTemp, sessionKey } from '../sandbox/private-temp.js';
import { Sandbox, type WrapOptions } from '../sandbox/sandbox.js';
import { resolveSandbox, type SandboxOption } from '../sandbox/settings.js';
import { ParsedScripts } from '../shell/parsed.js';
import { loadBashParser, type Parser } from '../shell/parser.js';
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
import { PathPolicy, SCRATCH_HIDDEN_WHY, SCRATCH_WHY, type PathPolicyOptions } from '../path-policy/judge.js';
import { FILE_WRITES_WHY, ShellJudgement, type ShellJudgeOptions } from './shell/judge.js';
import { madeThisSession, type MadeThisSession } from './shell/made-this-session.js';
import { provesOffline } from './shell/offline.js';
import type { Judgement } from './shell/judgement.js';
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
  /**
   * The OS sandbox every allowed command runs in: `on` (default), `off`, or
   * `{ network, passEnv }` (docs/security.md#the-os-sandbox). With it, what the parser
   * cannot prove safe runs sandboxed instead of being refused.
   */
  sandbox?: SandboxOption;
}

/** Judges shell commands synchronously once the parser is loaded. */
export interface ShellJudge {
  /** `scratch`: the session's own /tmp and /var/tmp, when the command will run in them (PathPolicy.withScratchView). */
  /** `made`: which files the agent made this session, which it may delete (made-this-session.ts). */
  judge(command: string, cwd?: string, scratch?: Readonly<Record<string, string>>, made?: MadeThisSession): GuardDecision;
  /** The decision with what led to it: every simple command, wrappers peeled, pack rules, disk looks. */
  explain(command: string, cwd?: string, made?: MadeThisSession): GuardDecision & { explanation: Judgement };
  readonly policy: PathPolicy;
}

interface Compiled {
  interactive: boolean;
  /** Undefined with `sandbox: 'off'`. */
  sandbox: Sandbox | undefined;
  /** Judge options for one workspace and the files its policy was loaded from (cached per both). */
  forWorkspace: (workspace: string, policyFiles?: readonly PolicyFile[]) => ShellJudgeOptions;
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
  const settings = resolveSandbox(options.sandbox, guard);
  // In the sandbox the temporary folders are its own: writing there changes nothing outside.
  const scratch = settings ? PRIVATE_TEMP : [];
  return {
    interactive: options.interactive === true,
    sandbox: settings ? new Sandbox(settings) : undefined,
    forWorkspace: perPolicy((workspace, files) => ({ policy: new PathPolicy({ ...options, workspace }, scratch, files), ...rules })),
  };
}

/** `sandbox`: set when the command will run in a working OS sandbox, which contains what is only unprovable. */
function makeJudge(p: Parser, judgeOptions: ShellJudgeOptions, interactive: boolean, sandbox: Sandbox | undefined): ShellJudge {
  // The sandbox contains what stays on this machine; with the host's network on, an upload it cannot read would leave.
  // Writes to the session's own /tmp are contained whatever the network (nothing there is uploaded by writing it).
  const contained = () => {
    if (sandbox === undefined || !sandbox.available().ok) return false;
    return sandbox.settings.network === 'off'
      ? true
      : (reason: string) => reason.includes(SCRATCH_WHY) || reason.includes(SCRATCH_HIDDEN_WHY) || reason.endsWith(FILE_WRITES_WHY);
  };
  return {
    policy: judgeOptions.policy,
    judge(command, cwd, scratch, made) {
      if (typeof command !== 'string') return decide([{ level: 'unprovable', reason: 'the command is not a string' }], interactive, '');
      return judgeOptions.policy.withScratchView(scratch, () => this.explain(command, cwd, made));
    },
    explain(command, cwd, made) {
      // The judgement resolves the folder itself.
      const options = made === undefined ? judgeOptions : { ...judgeOptions, madeThisSession: made };
      const result = new ShellJudgement(p, options, cwd ?? judgeOptions.policy.workspace).run(command);
      const decision = decide(
        result.findings,
        interactive,
        result.allowedByRule ? 'every command matches your allow rules' : 'no rule objects to this command',
        result.allowedByRule,
        contained(),
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
  const { forWorkspace, interactive, sandbox } = compile(options);
  return makeJudge(await loadBashParser(), forWorkspace(path.resolve(options.workspace ?? process.cwd())), interactive, sandbox);
}

/** The packs each shell guard has on, by its handler (for `hookwise check`). */
const PACKS_BY_HANDLER = new WeakMap<object, ReadonlySet<PackName>>();

/** The rule packs a registered hook has on, when it is a shell guard. */
export function shellGuardPacks(hook: { handler?: unknown }): ReadonlySet<PackName> | undefined {
  return typeof hook.handler === 'function' ? PACKS_BY_HANDLER.get(hook.handler) : undefined;
}

/** The events the shell guard answers: the judgement and the wrap before a call; with the sandbox, its word after it and the session's end. */
export type ShellGuardEvent = 'PreToolUse' | 'PostToolUse' | 'SessionEnd';

/**
 * A hook that parses shell commands with a real bash grammar and refuses what it
 * cannot prove safe (PreToolUse). The workspace is the `workspace` option, else the
 * host's project folder on each call (see workspaceOf). With the OS sandbox (the
 * default) it also runs every allowed command inside it (its `last` handler), adds
 * after a sandboxed command one line saying what the sandbox held back and how a
 * person allows it (PostToolUse), and removes the session's own /tmp when the
 * session ends (SessionEnd).
 */
export function shellGuard(options: ShellGuardOptions = {}): MultiEventHook<ShellGuardEvent> {
  const { forWorkspace, interactive, sandbox } = compile(options);
  const tools = new Set(options.tools ?? ['Bash']);
  const judges = perPolicy((workspace, files) =>
    parser ? makeJudge(parser, forWorkspace(workspace, files), interactive, sandbox) : undefined,
  );
  // The path policy of a call: its workspace, and the files the engine's policy was loaded from.
  const policyOf = (workspace: string, ctx: HookContext) => forWorkspace(workspace, policyFilesOf(ctx)).policy;
  // Set on first use; after a failed parse it is reloading, and calls wait for it (parser.ts).
  let parser: Parser | undefined;
  // What the judgement found the command does only to its session's copies, for the wrap to say after it.
  const notes = new Notes();
  // The judge reports a command that is not a string, so it is passed on unchecked.
  const run = (input: HookInput, workspace: string, ctx: HookContext) => {
    const judge = judges(workspace, policyFilesOf(ctx))!;
    const policy = policyOf(workspace, ctx);
    const scratch = sandbox?.sessionTemp(policy, sessionKey(input.session_id, workspace));
    const decision = judge.judge(
      input.tool_input?.command as string,
      typeof input.cwd === 'string' && path.isAbsolute(input.cwd) ? input.cwd : workspace,
      scratch,
      madeThisSession(workspace, ctx.sessionId ?? (input.session_id as string | undefined)),
    );
    if (decision.contained) ctx.annotate({ contained: decision.contained });
    if (sandbox === undefined) ctx.annotate({ sandbox: 'off' });
    const hidden = decision.contained?.filter((reason) => reason.includes(SCRATCH_HIDDEN_WHY));
    if (hidden !== undefined && hidden.length > 0) notes.keep(noteKey(input, workspace), hidden);
    return toHookResult(decision);
  };
  const events: ShellGuardEvent[] = sandbox ? ['PreToolUse', 'PostToolUse', 'SessionEnd'] : ['PreToolUse'];
  const spec: MultiEventHook<ShellGuardEvent> = {
    name: options.name ?? 'guard:shell',
    events,
    matcher: (input: HookInput) =>
      input.hook_event_name === 'SessionEnd' || (typeof input.tool_name === 'string' && tools.has(input.tool_name)),
    priority: options.priority ?? DEFAULT_GUARD_PRIORITY,
    onError: 'block',
    recheck: true,
    statusMessage: 'hookwise: checking the shell command',
    handler: (input, ctx) => {
      const workspace = workspaceOf(options.workspace, input, ctx);
      if (input.hook_event_name === 'PostToolUse')
        return sandbox && workspace ? afterTool(sandbox, input, ctx, policyOf(workspace, ctx), workspace) : undefined;
      if (input.hook_event_name === 'SessionEnd') return workspace ? sessionEnded(input, policyOf(workspace, ctx), workspace) : undefined;
      if (workspace === undefined) return noWorkspace('the shell guard', interactive);
      if (parser?.ready) return run(input, workspace, ctx);
      // First use, or the first since a failed parse: load the parser, then stay synchronous.
      return loadBashParser().then((p) => {
        parser = p;
        return run(input, workspace, ctx);
      });
    },
  };
  PACKS_BY_HANDLER.set(spec.handler, compilePacks(options.packs));
  if (sandbox) {
    spec.last = (input, ctx) => {
      if (input.hook_event_name !== undefined && input.hook_event_name !== 'PreToolUse') return undefined;
      const workspace = workspaceOf(options.workspace, input, ctx);
      if (workspace === undefined) return noWorkspace('the OS sandbox', false);
      const said = notes.take(noteKey(input, workspace));
      const { policy, scripts } = forWorkspace(workspace, policyFilesOf(ctx));
      const command = input.tool_input?.command;
      // A command proved to need no network skips the allowlist's bridge (guards/shell/offline.ts).
      const offline = parser?.ready === true && typeof command === 'string' && provesOffline(parser, scripts, command);
      return sandboxed(sandbox, input, ctx, policy, { session: sessionKey(input.session_id, workspace), notes: said, offline });
    };
  }
  return spec;
}

/**
 * The guard's last word on a call that goes ahead: the final command, after every
 * other hook's rewrite, becomes its sandboxed form (docs/security.md#the-os-sandbox).
 * No sandbox, no run: the call is refused with the fix.
 */
function sandboxed(sandbox: Sandbox, input: HookInput, ctx: HookContext, policy: PathPolicy, options: WrapOptions) {
  const command = input.tool_input?.command;
  if (typeof command !== 'string') return deny('hookwise cannot run this in the OS sandbox: the command is not a string');
  const found = sandbox.available();
  if (!found.ok) return deny(`hookwise refused to run this without its OS sandbox: ${found.why}`);
  const wrap = () => {
    const wrapped = sandbox.wrap(command, policy, envOf(ctx), options);
    ctx.annotate({ sandboxed: true, sandboxDigest: wrapped.digest });
    return modify({ ...input.tool_input, command: wrapped.line });
  };
  if (!sandbox.needsBridge(options)) return wrap();
  // The network allowlist's proxy is started now, so that it answers when the host runs the line.
  return sandbox.prepare(options).then((why) => (why ? deny(`hookwise refused to run this without its network proxy: ${why}`) : wrap()));
}

function envOf(ctx: HookContext): Readonly<Record<string, string | undefined>> {
  return Object.keys(ctx.env).length > 0 ? ctx.env : process.env;
}

/** After a sandboxed command: one line for the model when the sandbox held something back (held-back.ts). */
function afterTool(sandbox: Sandbox, input: HookInput, ctx: HookContext, policy: PathPolicy, workspace: string) {
  // With the sandbox on, every shell command that ran, ran in it (the last handler wraps each, or refuses).
  if (typeof input.tool_input?.command !== 'string') return undefined;
  const line = heldBack({
    response: input.tool_response,
    settings: sandbox.settings,
    policy,
    layout: sandbox.layoutOf(policy, envOf(ctx)),
    cwd: typeof input.cwd === 'string' && path.isAbsolute(input.cwd) ? input.cwd : undefined,
    temp: sandbox.sessionTemp(policy, sessionKey(input.session_id, workspace)),
  });
  return line === undefined ? undefined : context(line);
}

/** The session is over: its own /tmp and /var/tmp go (private-temp.ts). */
function sessionEnded(input: HookInput, policy: PathPolicy, workspace: string) {
  if (typeof input.session_id !== 'string' || input.session_id === '') return undefined;
  try {
    removePrivateTemp(privateTempRoot(policy.home), sessionKey(input.session_id, workspace));
  } catch {
    // What is left is removed as stale (private-temp.ts); the end of a session is never refused for it.
  }
  return undefined;
}

/** The call a judgement's notes belong to: the session, the workspace, and the command as judged (a later rewrite has none). */
function noteKey(input: HookInput, workspace: string): string {
  return `${input.session_id ?? ''}\0${workspace}\0${input.cwd ?? ''}\0${String(input.tool_input?.command)}`;
}

/** Notes kept from a call's judgement to its wrap (the same fire, moments later); the oldest go past a few dozen. */
class Notes {
  private readonly kept = new Map<string, string[]>();
  keep(key: string, notes: string[]): void {
    if (this.kept.size >= 64) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(key, notes);
  }
  take(key: string): string[] | undefined {
    const notes = this.kept.get(key);
    this.kept.delete(key);
    return notes;
  }
}
