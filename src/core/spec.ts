import type { HookInput } from './input.js';
import type { CounterStore } from './counter-store.js';
import type { Matcher } from './matchers.js';
import type { HookResult } from './results.js';
import type { SessionState } from './state.js';

export interface HookLogger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** A file the loaded policy is made of: the config itself, or a file it loads (`import './policy/rules.ts'`). */
export interface PolicyFile {
  /** The file's real absolute path. */
  readonly path: string;
  /** The config file that loads it (the file itself for a config). */
  readonly policy: string;
  /**
   * Set on a path that is not there and must stay so: the loader would load it in
   * place of this file (`./rules.js` before `./rules.ts`).
   */
  readonly insteadOf?: string;
}

/** What a handler gets beside the input. */
export interface HookContext {
  /** Fires when the hook times out or the fire is aborted. */
  readonly signal: AbortSignal;
  readonly sessionId: string;
  /**
   * The fire's working directory: the `cwd` fire option, else the input's `cwd`;
   * undefined when the host gave neither (the engine never guesses from the process).
   */
  readonly cwd: string | undefined;
  /**
   * The project the agent works on, for hooks that judge paths (the built-in guards'
   * workspace): the `projectDir` fire option, else the fire's cwd; undefined when unknown.
   */
  readonly projectDir: string | undefined;
  /**
   * The files the engine's policy was loaded from (the `policyFiles` engine option): the
   * guards keep every tool and command from writing them. Empty for an engine made in code.
   */
  readonly policyFiles?: readonly PolicyFile[];
  /** True when nothing will run after this fire (a policy test, a replay, an explanation): act on nothing, only judge. */
  readonly dryRun: boolean;
  /** The environment the hook runs with: a frozen copy of the `env` fire option, else empty. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Counters the host shares beyond this process (the `counters` fire option); undefined when it lends none. */
  readonly counters: CounterStore | undefined;
  /** A store private to the session; it lives until SessionEnd. */
  readonly state: SessionState;
  readonly logger: HookLogger;
  /** The hook's name. */
  readonly hookName: string;
  /** Add fields to this hook's entry in the Outcome (e.g. `{ truncated: true }`). */
  annotate(fields: Record<string, unknown>): void;
}

/**
 * The shapes a handler may return, by name: hookwise's result. A layer that gives the
 * engine a ResultReader for another shape adds that shape here (declaration merging),
 * so handlers written in it type-check.
 */
export interface ResultShapes {
  result: HookResult;
}

export type HandlerReturn = ResultShapes[keyof ResultShapes] | undefined | null | void;

export type HookHandler<I extends HookInput = HookInput> = (input: I, ctx: HookContext) => HandlerReturn | Promise<HandlerReturn>;

export type OnError = 'block' | 'continue';

/** A hook as the engine stores it, its input untyped. Users write `Hook` (./hook.ts), typed by its events. */
export interface HookSpec<I extends HookInput = HookInput> {
  /** Unique within an engine: `register()` of a name already there throws; `replace()` swaps it. */
  name: string;
  /** One event or several; aliases are accepted; `'*'` means every event, custom ones included. */
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
  /**
   * Judge the final input again: when a later hook rewrote the input this hook
   * judged, the engine runs it once more on the input that will run, and its
   * deny/block wins (see docs/model.md, "Rechecks"). The built-in guards set it.
   */
  recheck?: boolean;
  handler: HookHandler<I>;
  /**
   * A second handler for the final word: after every hook of the fire and every
   * recheck, when the call still goes ahead, it runs on the input that will run,
   * even after a \`skip\`. It may rewrite (\`modify\`) or refuse; nothing runs after
   * it (docs/model.md, "Last handlers"). The shell guard wraps the command in the
   * OS sandbox here, so that no later rewrite can unwrap it.
   */
  last?: HookHandler<I>;
  /** Where the hook came from (a file and JSON path); shown by `hookwise check`. */
  source?: string;
  /** Shown by hosts while the hook runs. */
  statusMessage?: string;
  /**
   * Hooks with the same `concurrentGroup` that follow one another in run order run at
   * once, each on the input as the group found it; their results merge in run order.
   * Hooks read from an agent's settings file use it where that agent runs the hooks
   * matched for an event concurrently on the original input (docs/model.md, "Hook fields").
   */
  concurrentGroup?: string;
  /** Within one run of a concurrent group, hooks with the same key run once (the first in run order). */
  dedupKey?: string;
}

export const DEFAULT_TIMEOUT_MS = 60_000;
