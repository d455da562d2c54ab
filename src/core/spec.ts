import type { HookInput } from './input.js';
import type { Matcher } from './matchers.js';
import type { ClaudeCodeJsonOutput, HookResult } from './results.js';
import type { SessionState } from './state.js';

export interface HookLogger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** What a handler gets beside the input. */
export interface HookContext {
  /** Fires when the hook times out or the fire is aborted. */
  readonly signal: AbortSignal;
  readonly sessionId: string;
  readonly cwd: string;
  /** A store private to the session; it lives until SessionEnd. */
  readonly state: SessionState;
  readonly logger: HookLogger;
  /** The hook's name. */
  readonly hookName: string;
  /** Add fields to this hook's entry in the Outcome (e.g. `{ truncated: true }`). */
  annotate(fields: Record<string, unknown>): void;
}

export type HandlerReturn = HookResult | ClaudeCodeJsonOutput | undefined | null | void;

export type HookHandler<I extends HookInput = HookInput> = (
  input: I,
  ctx: HookContext,
) => HandlerReturn | Promise<HandlerReturn>;

export type OnError = 'block' | 'continue';

/** A hook, as registered. */
export interface HookSpec<I extends HookInput = HookInput> {
  /** Unique. Registering the name again replaces the old hook. */
  name: string;
  /** One event or several; aliases are accepted. */
  events: string | string[];
  matcher?: Matcher;
  /** Higher runs first; ties keep registration order. Default 0. */
  priority?: number;
  /** Default 60 000 for in-process hooks. */
  timeoutMs?: number;
  /** Run in the background; never changes the outcome. */
  async?: boolean;
  /** Failure policy. Default: `block` on blockable events, `continue` elsewhere. */
  onError?: OnError;
  /** Re-invoke a failing handler up to N times before `onError` applies. */
  maxRetries?: number;
  /** At most once per session. */
  once?: boolean;
  handler: HookHandler<I>;
  /** Where the hook came from (a file and JSON path); shown by `hookwise check`. */
  source?: string;
  /** Shown by hosts while the hook runs (Claude Code's `statusMessage`). */
  statusMessage?: string;
  /**
   * Hooks with the same `concurrentGroup` that follow one another in run order run at
   * once, each on the input as the group found it; their results merge in run order.
   * Claude Code's settings hooks use it: Claude Code runs the hooks matched for an
   * event concurrently on the original input.
   */
  concurrentGroup?: string;
  /** Within one run of a concurrent group, hooks with the same key run once (the first in run order). */
  dedupKey?: string;
}

export const DEFAULT_TIMEOUT_MS = 60_000;

/** Identity helper that gives a config file types. */
export function defineHook<I extends HookInput = HookInput>(spec: HookSpec<I>): HookSpec<I> {
  return spec;
}
