import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { all, type Matcher } from '../../core/matchers.js';
import type { HookContext, HookHandler, HookSpec } from '../../core/spec.js';
import type { HookInput } from '../../core/input.js';
import type { CommandHandlerOptions } from '../../handlers/types.js';
import { installShellSplitter } from '../shell.js';
import type { CollectedEntry } from './collect.js';
import type { AgentEntry, CommandEntry, HttpEntry, McpToolEntry, PromptEntry } from './entry-schema.js';
import type { McpStdioServer } from '../../handlers/mcp-tool.js';
import { hookLabel } from './hook-label.js';
import { identityKey, setIdentity, shortHash } from './identity.js';
import { defaultTimeoutMs } from './timeouts.js';

/** Facts about the file an entry came from that shape its hook. */
export interface EntryContext {
  file: string;
  /** Names start with this: `settings`, `plugin:<name>`, `skill:<name>`. */
  namePrefix: string;
  /** CLAUDE_PROJECT_DIR for its commands. */
  projectDir: string;
  /** Plugin hooks: `${CLAUDE_PLUGIN_ROOT}` and env CLAUDE_PLUGIN_ROOT. */
  pluginRoot?: string;
  /** Skill/agent hooks: `${CLAUDE_SKILL_DIR}`. */
  skillDir?: string;
  /**
   * `allowedHttpHookUrls` / `httpHookAllowedEnvVars` of the settings: filled once every
   * source is loaded (they merge across sources), read when an HTTP hook runs.
   */
  httpPolicy?: HttpPolicy;
  /** MCP servers an `mcp_tool` hook may call: the settings' `mcpServers`, then the project's `.mcp.json`. */
  mcpServers?: () => Record<string, McpStdioServer>;
}

/** Claude Code's settings-wide limits on HTTP hooks; undefined means no limit. */
export interface HttpPolicy {
  allowedUrls?: string[];
  allowedEnvVars?: string[];
}

/** The concurrent group of every hook from Claude Code's configuration (settings, plugins, skills). */
export const CLAUDE_CODE_GROUP = 'claude-code';

/**
 * Claude Code 2.1.197 documents `shell: "bash"` (the default) but, on Linux and macOS,
 * spawns the line with Node's `shell: true`, which is `/bin/sh -c`: hookwise does the
 * same, so a script behaves as it does there. `"powershell"` runs pwsh.
 */
const shellOf = (shell: CommandEntry['shell']): 'sh' | 'powershell' => (shell === 'powershell' ? 'powershell' : 'sh');

/** Events whose command hooks get CLAUDE_ENV_FILE, as in Claude Code. */
const ENV_FILE_EVENTS = new Set(['SessionStart', 'CwdChanged', 'FileChanged']);
export const DEFAULT_PROMPT_MODEL = 'anthropic:claude-haiku-4-5';

/** The HookSpec for one collected entry. Handlers load their modules on first call. */
export function buildSpec(item: CollectedEntry, ctx: EntryContext): HookSpec {
  const entry = substitute(item.entry, ctx);
  const type = entry.type ?? 'command';
  const key = identityKey({
    event: item.event,
    type,
    command:
      type === 'command'
        ? (entry as CommandEntry).command
        : type === 'mcp_tool'
          ? `${(entry as McpToolEntry).server}/${(entry as McpToolEntry).tool}`
          : undefined,
    args: type === 'command' ? (entry as CommandEntry).args : undefined,
    url: type === 'http' ? (entry as HttpEntry).url : undefined,
    prompt: type === 'prompt' || type === 'agent' ? (entry as PromptEntry).prompt : undefined,
    matcher: item.matcher,
    if: entry.if,
  });
  const seconds = entry.timeout ?? entry.timeout_secs;
  const spec: HookSpec = {
    name: item.name ?? `${ctx.namePrefix}:${item.event}:${hookLabel(type, entry)}#${shortHash(key).slice(0, 6)}`,
    events: item.event,
    timeoutMs: seconds !== undefined ? seconds * 1000 : defaultTimeoutMs(type, item.event),
    // Claude Code: a failing hook is a non-blocking error unless the entry asks otherwise.
    onError: entry.onFailure === 'block' ? 'block' : 'continue',
    source: `${ctx.file} ${item.path}`,
    handler: handlerFor(type, entry, item, ctx),
  };
  const matcher = matcherOf(item.matcher, entry.if);
  if (matcher !== undefined) spec.matcher = matcher;
  // Claude Code runs the hooks matched for an event at once, each on the original input, and
  // runs one of those that do the same thing (docs/claude-code.md#order-and-duplicates).
  spec.concurrentGroup = CLAUDE_CODE_GROUP;
  spec.dedupKey = dedupKeyOf(item.entry, ctx);
  if (entry.async || entry.asyncRewake) spec.async = true;
  if (entry.once) spec.once = true;
  if (entry.statusMessage) spec.statusMessage = entry.statusMessage;
  setIdentity(spec, key);
  return spec;
}

/** The group's matcher and the entry's `if` rule, both required. */
function matcherOf(matcher: string | undefined, rule: string | undefined): Matcher | undefined {
  const group = matcher !== undefined && matcher.trim() !== '' && matcher.trim() !== '*' ? matcher : undefined;
  if (rule === undefined) return group;
  installShellSplitter();
  return group === undefined ? { if: rule } : all([group, { if: rule }]);
}

/** Claude Code's key for "the same hook" at a fire: what it runs, its `if`, and its plugin or skill root; never its matcher. */
function dedupKeyOf(entry: CollectedEntry['entry'], ctx: EntryContext): string {
  const type = entry.type ?? 'command';
  const root = ctx.pluginRoot ?? ctx.skillDir ?? '';
  const rule = entry.if ?? '';
  let what: unknown[];
  if (type === 'command') {
    const e = entry as CommandEntry;
    what = [e.shell ?? 'bash', e.command, e.args ?? null, e.protocol ?? null];
  } else if (type === 'http') what = [(entry as HttpEntry).url];
  else if (type === 'mcp_tool') what = [(entry as McpToolEntry).server, (entry as McpToolEntry).tool, (entry as McpToolEntry).input ?? {}];
  else what = [(entry as PromptEntry | AgentEntry).prompt];
  return JSON.stringify([root, type, ...what, rule]);
}

function substitute<T extends CollectedEntry['entry']>(entry: T, ctx: EntryContext): T {
  const vars: Record<string, string> = {};
  if (ctx.pluginRoot) vars.CLAUDE_PLUGIN_ROOT = ctx.pluginRoot;
  if (ctx.skillDir) vars.CLAUDE_SKILL_DIR = ctx.skillDir;
  if (Object.keys(vars).length === 0) return entry;
  const replace = (s: string) => s.replace(/\$\{(CLAUDE_PLUGIN_ROOT|CLAUDE_SKILL_DIR)\}/g, (whole, name: string) => vars[name] ?? whole);
  const out = { ...entry };
  if ('command' in out && typeof out.command === 'string') (out as CommandEntry).command = replace(out.command);
  if ('args' in out && Array.isArray(out.args)) (out as CommandEntry).args = out.args.map(replace);
  if ('url' in out && typeof out.url === 'string') (out as HttpEntry).url = replace(out.url);
  return out;
}

function lazy(make: () => Promise<HookHandler>): HookHandler {
  let made: Promise<HookHandler> | undefined;
  return async (input, hookCtx) => (await (made ??= make()))(input, hookCtx);
}

function handlerFor(type: string, entry: CollectedEntry['entry'], item: CollectedEntry, ctx: EntryContext): HookHandler {
  // Claude Code skips HTTP hooks on SessionStart and Setup.
  if (type === 'http' && (item.event === 'SessionStart' || item.event === 'Setup')) {
    return (_input, hookCtx) => void hookCtx.annotate({ skippedBecause: `HTTP hooks do not run on ${item.event} (as in Claude Code)` });
  }
  if (type === 'http') return httpHandlerFor(entry as HttpEntry, ctx.httpPolicy);
  if (type === 'prompt') {
    const e = entry as PromptEntry;
    const handler = lazy(async () => {
      const [{ promptHandler }, { createProvider }] = await Promise.all([
        import('../../handlers/prompt.js'),
        import('../../providers/index.js'),
      ]);
      return promptHandler({ prompt: e.prompt, provider: createProvider(modelSpec(e.model) as Parameters<typeof createProvider>[0]) });
    });
    return promptEndsTurn(handler, item.event, e.continueOnBlock === true);
  }
  if (type === 'agent') {
    const e = entry as AgentEntry;
    return lazy(async () => {
      const [{ agentHandler }, { createProvider }] = await Promise.all([
        import('../../handlers/agent.js'),
        import('../../providers/index.js'),
      ]);
      return agentHandler({
        prompt: e.prompt,
        provider: createProvider(modelSpec(e.model) as Parameters<typeof createProvider>[0]),
        root: ctx.projectDir,
      });
    });
  }
  if (type === 'mcp_tool') {
    const e = entry as McpToolEntry;
    return lazy(async () => {
      const { mcpToolHandler } = await import('../../handlers/mcp-tool.js');
      return mcpToolHandler({ server: e.server, tool: e.tool, ...(e.input && { input: e.input }), launch: ctx.mcpServers?.()[e.server] });
    });
  }
  return commandHandlerFor(entry as CommandEntry, item, ctx);
}

/** An HTTP hook under the settings' allowedHttpHookUrls / httpHookAllowedEnvVars, read when it runs. */
function httpHandlerFor(e: HttpEntry, policy: HttpPolicy | undefined): HookHandler {
  return async (input, hookCtx) => {
    const { httpHandler } = await import('../../handlers/http.js');
    const own = e.allowedEnvVars ?? [];
    const limit = policy?.allowedEnvVars;
    const envVars = limit === undefined ? own : own.filter((name) => limit.includes(name));
    return httpHandler({
      url: e.url,
      ...(e.headers && { headers: e.headers }),
      allowedEnvVars: envVars,
      ...(policy?.allowedUrls !== undefined && { allowedUrls: policy.allowedUrls }),
    })(input, hookCtx);
  };
}

/**
 * Claude Code: a prompt hook whose condition is not met blocks and ends the turn
 * (`continue: false`), unless `continueOnBlock` is set; on Stop and SubagentStop it
 * only blocks (the agent goes on to meet the condition).
 */
function promptEndsTurn(handler: HookHandler, event: string, continueOnBlock: boolean): HookHandler {
  if (continueOnBlock || event === 'Stop' || event === 'SubagentStop') return handler;
  return async (input, hookCtx) => {
    const result = await handler(input, hookCtx);
    if (result && typeof result === 'object' && 'kind' in result && (result.kind === 'deny' || result.kind === 'block')) {
      // Blocked (denied on PreToolUse) and the turn ends, as Claude Code's blockingError with preventContinuation.
      return { decision: 'block', reason: result.reason, continue: false, stopReason: result.reason };
    }
    return result;
  };
}

/** Claude Code names bare models (`claude-haiku-4-5`); hookwise needs `provider:model`. */
export function modelSpec(model: string | undefined): string {
  const chosen = model ?? process.env.HOOKWISE_PROMPT_MODEL ?? DEFAULT_PROMPT_MODEL;
  return /^(openai|anthropic):/.test(chosen) ? chosen : `anthropic:${chosen}`;
}

function commandHandlerFor(entry: CommandEntry, item: CollectedEntry, ctx: EntryContext): HookHandler {
  const env: Record<string, string> = { CLAUDE_PROJECT_DIR: ctx.projectDir };
  if (ctx.pluginRoot) env.CLAUDE_PLUGIN_ROOT = ctx.pluginRoot;
  const options: CommandHandlerOptions = {
    command: entry.command,
    shell: shellOf(entry.shell),
    // claude-agent-rs' own forms were written for claude-agent-rs, whose command hooks speak its protocol.
    protocol: entry.protocol ?? (item.variant ? 'claude-agent-rs' : 'claude-code'),
    env,
  };
  if (entry.args) options.args = entry.args;
  if (entry.asyncRewake) options.asyncRewake = true;
  const load = () => import('../../handlers/command.js');
  if (!ENV_FILE_EVENTS.has(item.event)) return lazy(async () => (await load()).commandHandler(options));
  return async (input: HookInput, hookCtx: HookContext) => {
    const envFile = envFilePath(ctx.projectDir, hookCtx.sessionId);
    await mkdir(path.dirname(envFile), { recursive: true });
    const { commandHandler } = await load();
    return commandHandler({ ...options, env: { ...env, CLAUDE_ENV_FILE: envFile } })(input, hookCtx);
  };
}

/** Where a session's CLAUDE_ENV_FILE lives: `<project>/.hookwise/env/<session>.sh`. */
export function envFilePath(projectDir: string, sessionId: string): string {
  return path.join(projectDir, '.hookwise', 'env', `${sessionId.replace(/[^A-Za-z0-9._-]/g, '_')}.sh`);
}
