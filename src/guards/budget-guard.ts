import type { HookInput } from '../core/input.js';
import { retry, stop } from '../core/results.js';
import { defineHook, type MultiEventHook } from '../core/hook.js';
import type { HookContext } from '../core/spec.js';
import type { SessionState } from '../core/state.js';
import type { CounterStore } from '../counters/types.js';
import { DEFAULT_GUARD_PRIORITY, type CommonGuardOptions } from './common.js';
import { GuardOptionError } from './errors.js';

export interface BudgetGuardOptions extends Omit<CommonGuardOptions, 'workspace' | 'interactive'> {
  /** Tokens per session (input + output), summed from PostModelCall usage. */
  maxTokens?: number;
  /** Tool calls per session. */
  maxToolCalls?: number;
  /** Tool calls per session for named tools, e.g. `{ Bash: 50 }`. */
  maxCallsPerTool?: Record<string, number>;
  /** Wall-clock milliseconds per session, from the first event the guard sees. */
  maxWallClockMs?: number;
  /** Answer a rate-limited model call with retry after the delay the provider asked for. Default true. */
  retryRateLimits?: boolean;
  /** Delay when the provider gave none. Default 1000 ms. */
  defaultRetryMs?: number;
  /** Clock, for tests. Default Date.now. */
  now?: () => number;
  workspace?: string;
  interactive?: boolean;
  /**
   * Where the counts live. Default: the store the host lends this fire (`ctx.counters`:
   * `hookwise serve` lends each tenant its view of `--counters redis://...`), else this
   * engine's session state.
   * With a store, counts are atomic across every process that shares it (docs/fleet.md).
   */
  counters?: CounterStore;
  /** How long a session's shared counts are kept after they start. Default 7 days. */
  countersTtlMs?: number;
}

interface Usage {
  tokens: number;
  toolCalls: number;
  perTool: Map<string, number>;
  startedAt: number;
}

const KEY = 'hookwise:budget';
const fmt = (n: number) => n.toLocaleString('en-US');

/** Tokens in a usage object, whichever provider's field names it uses. */
export function tokensOf(usage: unknown): number {
  if (!usage || typeof usage !== 'object') return 0;
  const u = usage as Record<string, unknown>;
  const num = (k: string) => (typeof u[k] === 'number' && Number.isFinite(u[k]) ? (u[k] as number) : undefined);
  const total = num('total_tokens') ?? num('totalTokens');
  if (total !== undefined) return total;
  const input = num('input_tokens') ?? num('inputTokens') ?? num('prompt_tokens') ?? num('promptTokens') ?? 0;
  const output = num('output_tokens') ?? num('outputTokens') ?? num('completion_tokens') ?? num('completionTokens') ?? 0;
  return input + output;
}

function positive(value: unknown, field: string): void {
  if (value !== undefined && !(typeof value === 'number' && value > 0))
    throw new GuardOptionError(`budgetGuard: ${field} must be a positive number, got ${JSON.stringify(value)}`);
}

/**
 * Per-session limits: tokens, tool calls (total and per tool), wall-clock.
 * Over a limit the agent is stopped with a reason saying which and by how
 * much; a rate-limited model call is retried after the provider's delay.
 */
type BudgetEvent = 'PreToolUse' | 'PreModelCall' | 'PostModelCall' | 'UserPromptSubmit' | 'StepStart' | 'SessionStart';

export function budgetGuard(options: BudgetGuardOptions = {}): MultiEventHook<BudgetEvent> {
  positive(options.maxTokens, 'maxTokens');
  positive(options.maxToolCalls, 'maxToolCalls');
  positive(options.maxWallClockMs, 'maxWallClockMs');
  for (const [tool, n] of Object.entries(options.maxCallsPerTool ?? {})) positive(n, `maxCallsPerTool.${tool}`);
  const now = options.now ?? Date.now;
  const usageOf = (state: SessionState): Usage => {
    let u = state.get<Usage>(KEY);
    if (!u) state.set(KEY, (u = { tokens: 0, toolCalls: 0, perTool: new Map(), startedAt: now() }));
    return u;
  };
  const name = options.name ?? 'guard:budget';
  const shared = sharedBudget(options, name, now);
  return defineHook<BudgetEvent>({
    name,
    events: ['PreToolUse', 'PreModelCall', 'PostModelCall', 'UserPromptSubmit', 'StepStart', 'SessionStart'],
    priority: options.priority ?? DEFAULT_GUARD_PRIORITY,
    onError: 'continue',
    handler: (input: HookInput, ctx) => {
      const store = options.counters ?? ctx.counters;
      if (store) return shared(store, input, ctx);
      const u = usageOf(ctx.state);
      const event = input.hook_event_name;
      const late = overTime(options, now() - u.startedAt);
      if (late) return late;
      if (event === 'PostModelCall') {
        const wait = rateLimitRetry(options, input);
        if (wait) return wait;
        u.tokens += usedTokens(input);
      }
      if (event === 'PostModelCall' || event === 'PreModelCall') {
        const spent = overTokens(options, u.tokens);
        if (spent) return spent;
      }
      if (event === 'PreToolUse') {
        const tool = toolOf(input);
        u.toolCalls++;
        const n = (u.perTool.get(tool) ?? 0) + 1;
        u.perTool.set(tool, n);
        return overToolCalls(options, tool, u.toolCalls, n);
      }
      return undefined;
    },
  });
}

/**
 * The same limits counted in a CounterStore: every count is one atomic increment whose
 * result decides, so replicas sharing Redis stop a session at exactly the limit.
 */
function sharedBudget(options: BudgetGuardOptions, name: string, now: () => number) {
  const ttlMs = options.countersTtlMs ?? 7 * 24 * 3600_000;
  return async (store: CounterStore, input: HookInput, ctx: HookContext) => {
    const key = (what: string) => `budget:${name}:${ctx.sessionId}:${what}`;
    const event = input.hook_event_name;
    if (options.maxWallClockMs !== undefined) {
      const late = overTime(options, now() - (await store.setOnce(key('startedAt'), now(), { ttlMs })));
      if (late) return late;
    }
    let tokens: number | undefined;
    if (event === 'PostModelCall') {
      const wait = rateLimitRetry(options, input);
      if (wait) return wait;
      const used = usedTokens(input);
      if (used > 0) tokens = await store.increment(key('tokens'), used, { ttlMs });
    }
    if (options.maxTokens !== undefined && (event === 'PostModelCall' || event === 'PreModelCall')) {
      const spent = overTokens(options, tokens ?? (await store.get(key('tokens'))));
      if (spent) return spent;
    }
    if (event === 'PreToolUse') {
      const tool = toolOf(input);
      const [calls, n] = await Promise.all([
        store.increment(key('toolCalls'), 1, { ttlMs }),
        store.increment(key(`tool:${tool}`), 1, { ttlMs }),
      ]);
      return overToolCalls(options, tool, calls, n);
    }
    return undefined;
  };
}

// The limits, judged the same way whether the counts live in the session or in a CounterStore.

function overTime(options: BudgetGuardOptions, elapsedMs: number) {
  if (options.maxWallClockMs === undefined || elapsedMs <= options.maxWallClockMs) return undefined;
  return stop(
    `time budget exceeded: this session has run ${fmt(Math.round(elapsedMs / 1000))} s, limit ${fmt(Math.round(options.maxWallClockMs / 1000))} s`,
  );
}

function rateLimitRetry(options: BudgetGuardOptions, input: HookInput) {
  const error = input.error as { type?: string; retry_after_ms?: unknown; message?: string } | undefined;
  if (!error || typeof error !== 'object' || error.type !== 'rate_limit' || options.retryRateLimits === false) return undefined;
  const delay =
    typeof error.retry_after_ms === 'number' && error.retry_after_ms >= 0 ? error.retry_after_ms : (options.defaultRetryMs ?? 1000);
  return retry(delay, {
    reason: `the model provider is rate-limiting${error.message ? ` (${error.message})` : ''}; retrying in ${fmt(delay)} ms`,
  });
}

function overTokens(options: BudgetGuardOptions, tokens: number) {
  if (options.maxTokens === undefined || tokens <= options.maxTokens) return undefined;
  return stop(`token budget exceeded: ${fmt(tokens)} tokens used this session, limit ${fmt(options.maxTokens)}`);
}

function overToolCalls(options: BudgetGuardOptions, tool: string, calls: number, callsOfTool: number) {
  if (options.maxToolCalls !== undefined && calls > options.maxToolCalls) {
    return stop(`tool-call budget exceeded: this would be tool call ${fmt(calls)} of the session, limit ${fmt(options.maxToolCalls)}`);
  }
  const limit = options.maxCallsPerTool?.[tool];
  if (limit !== undefined && callsOfTool > limit)
    return stop(`tool-call budget exceeded for ${tool}: this would be call ${fmt(callsOfTool)} of the session, limit ${fmt(limit)}`);
  return undefined;
}

const usedTokens = (input: HookInput) => tokensOf(input.usage ?? (input.response as { usage?: unknown } | undefined)?.usage);
const toolOf = (input: HookInput) => (typeof input.tool_name === 'string' ? input.tool_name : '(unnamed tool)');
