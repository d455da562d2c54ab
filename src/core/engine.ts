import { performance } from 'node:perf_hooks';
import { canonicalEvent, eventInfo, type EventInfo } from './events.js';
import type { HookInput } from './input.js';
import { emptyOutcome, OutcomeBuilder, type HookRecord, type Outcome } from './outcome.js';
import { EventIndex, filterValueOf, prepareHook, type RegisteredHook } from './registry.js';
import { toVerdict, type Verdict } from './results.js';
import type { HookLogger, HookSpec } from './spec.js';
import { Context } from './context.js';
import { Sessions, type Session } from './state.js';

export interface FireOptions {
  /** Defaults to `input.session_id`, else `"default"`. */
  sessionId?: string;
  /** Defaults to `input.cwd`, else the process's cwd. */
  cwd?: string;
  /** Aborting it aborts the running hook; the rest of the chain is skipped. */
  signal?: AbortSignal;
}

export interface EngineOptions {
  /** Run the hooks of one fire concurrently, all on the original input. */
  parallel?: boolean;
  logger?: HookLogger;
}

export interface OutcomeEvent {
  input: HookInput;
  sessionId: string;
}
export interface HookStartEvent {
  event: string;
  name: string;
  sessionId: string;
  statusMessage?: string;
}
export interface HookEndEvent extends HookStartEvent {
  record: HookRecord;
}

type Listeners = {
  outcome: (outcome: Outcome, meta: OutcomeEvent) => void;
  hookStart: (info: HookStartEvent) => void;
  hookEnd: (info: HookEndEvent) => void;
};

const stderrLogger: HookLogger = {
  debug: () => {},
  info: (m) => process.stderr.write(`${m}\n`),
  warn: (m) => process.stderr.write(`${m}\n`),
  error: (m) => process.stderr.write(`${m}\n`),
};

/** A handler failed: threw, rejected, timed out or was aborted. */
class Failure {
  constructor(
    readonly why: string,
    readonly timeout = false,
  ) {}
}
type Attempt = Verdict | Failure;

const NO_OPTIONS: FireOptions = Object.freeze({});
const NO_HOOKS: RegisteredHook[] = [];
// Bound once: the global `performance` is a lazy accessor, and the clock is read once per hook.
const now = performance.now.bind(performance);

/**
 * The input with the canonical hook_event_name, the fire's session_id and (when
 * known) its cwd. What the host sent wins; the caller's object is copied, never
 * changed, and only when something is missing.
 */
function withCommonFields(input: HookInput, event: string, sessionId: string, cwd: string | undefined): HookInput {
  if (input.hook_event_name === event && input.session_id !== undefined && (input.cwd !== undefined || cwd === undefined)) return input;
  const seen: HookInput = { ...input, hook_event_name: event };
  if (seen.session_id === undefined) seen.session_id = sessionId;
  if (seen.cwd === undefined && cwd !== undefined) seen.cwd = cwd;
  return seen;
}

/** Handlers may return any thenable; the engine's own promises are native (checked with instanceof). */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value instanceof Promise || (typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function');
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}


/** One fire in progress. */
interface Fire {
  event: string;
  input: HookInput;
  sessionId: string;
  session: Session;
  cwd: string | undefined;
  signal: AbortSignal | undefined;
  hooks: RegisteredHook[];
  records: HookRecord[];
  builder: OutcomeBuilder;
  toolEvent: boolean;
  ended: boolean;
  /** When the previous sequential hook ended: the clock is read once per hook, not twice. */
  clock: number;
  /**
   * A context a finished hook no longer uses, handed to the next one: sequential hooks
   * run one at a time. A hook that timed out keeps its own (it may still be running).
   */
  spare: Context | undefined;
}

/**
 * Runs the hooks of an event and merges what they say into one Outcome.
 * No I/O of its own: handlers do their I/O, hosts act on the Outcome.
 */
export class HookEngine {
  private readonly registered = new Map<string, RegisteredHook>();
  private readonly index = new Map<string, EventIndex>();
  private readonly sessions = new Sessions();
  private readonly inflight = new Set<Promise<void>>();
  private readonly listeners: { [K in keyof Listeners]: Array<Listeners[K]> } = { outcome: [], hookStart: [], hookEnd: [] };
  private readonly pendingReady = new Set<Promise<void>>();
  private readonly logger: HookLogger;
  private seq = 0;
  readonly parallel: boolean;

  constructor(options: EngineOptions = {}) {
    this.parallel = options.parallel === true;
    this.logger = options.logger ?? stderrLogger;
  }

  /** Add a hook. A name registered again replaces the old hook, at the end of registration order. */
  register<I extends HookInput>(spec: HookSpec<I>): this {
    const hook = prepareHook(spec as unknown as HookSpec, this.seq++);
    this.unregister(hook.name);
    this.registered.set(hook.name, hook);
    for (const event of hook.events) {
      let idx = this.index.get(event);
      if (!idx) this.index.set(event, (idx = new EventIndex(event)));
      idx.add(hook);
      for (const ready of hook.matchers.get(event)?.ready ?? []) this.track(ready());
    }
    return this;
  }

  private track(ready: Promise<void>): void {
    const p = ready.finally(() => this.pendingReady.delete(p));
    // A load that fails fails the next fire, which awaits it; never an unhandled rejection.
    p.catch(() => {});
    this.pendingReady.add(p);
  }

  /** Remove a hook by name. */
  unregister(name: string): boolean {
    const hook = this.registered.get(name);
    if (!hook) return false;
    this.registered.delete(name);
    for (const event of hook.events) {
      const idx = this.index.get(event);
      if (!idx) continue;
      idx.remove(hook);
      if (idx.size === 0) this.index.delete(event);
    }
    return true;
  }

  /** The registered hooks, for one event in run order, or all in registration order. */
  hooks(event?: string): HookSpec[] {
    if (event === undefined) return [...this.registered.values()].sort((a, b) => a.seq - b.seq).map((h) => h.spec);
    return (this.index.get(canonicalEvent(event))?.all() ?? []).map((h) => h.spec);
  }

  /** Subscribe; returns the function that unsubscribes. */
  on<K extends keyof Listeners>(type: K, listener: Listeners[K]): () => void {
    const list = this.listeners[type] as Array<Listeners[K]>;
    if (!list) throw new Error(`unknown engine event "${String(type)}"; expected outcome, hookStart or hookEnd`);
    list.push(listener);
    return () => {
      const i = list.indexOf(listener);
      if (i >= 0) list.splice(i, 1);
    };
  }

  /** Resolves when every async hook started so far has finished. */
  async drain(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  /** Fire an event; resolves to the merged Outcome. Never rejects because of a hook. */
  fire(event: string, input: HookInput = {}, options: FireOptions = NO_OPTIONS): Promise<Outcome> {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      return Promise.reject(new TypeError(`fire(${event}): input must be a JSON object`));
    }
    if (this.pendingReady.size > 0) return Promise.all(this.pendingReady).then(() => this.fire(event, input, options));
    if (options.signal?.aborted) return Promise.reject(options.signal.reason ?? new Error('aborted'));
    const canonical = canonicalEvent(event);
    const sessionId = options.sessionId ?? (typeof input.session_id === 'string' ? input.session_id : 'default');
    const cwd = options.cwd ?? (typeof input.cwd === 'string' ? input.cwd : undefined);
    const idx = this.index.get(canonical);
    // Matchers see what handlers see: `path` needs the fire's cwd, `session` its session.
    const seen = idx === undefined ? input : withCommonFields(input, canonical, sessionId, cwd);
    const selected = idx === undefined ? NO_HOOKS : this.select(idx, seen, sessionId);
    if (selected.length === 0 && !this.sessions.anyUndelivered) {
      const outcome = emptyOutcome(canonical);
      if (this.listeners.outcome.length > 0) this.emitOutcome(outcome, withCommonFields(input, canonical, sessionId, cwd), sessionId);
      if (canonical === 'SessionEnd') return this.endSession(sessionId).then(() => outcome);
      return Promise.resolve(outcome);
    }
    const result = this.run(this.startFire(idx?.info ?? eventInfo(canonical), seen, sessionId, cwd, options, selected), 0);
    return result instanceof Promise ? result : Promise.resolve(result);
  }

  private select(idx: EventIndex, input: HookInput, sessionId: string): RegisteredHook[] {
    const event = idx.event;
    const candidates = idx.candidates(filterValueOf(input, idx.info.filterField));
    // Copy only once a candidate fails to match; usually every candidate matches.
    let selected: RegisteredHook[] | undefined;
    for (let i = 0; i < candidates.length; i++) {
      const hook = candidates[i]!;
      const matcher = hook.onlyMatcher ?? hook.matchers.get(event)!;
      const ok = (matcher.trivial === true || matcher.test(input)) && !(hook.once && this.sessions.peek(sessionId)?.onceRan.has(hook.name));
      if (!ok) selected ??= candidates.slice(0, i);
      else if (selected) selected.push(hook);
    }
    return selected ?? candidates;
  }

  private startFire(info: EventInfo, input: HookInput, sessionId: string, cwd: string | undefined, options: FireOptions, hooks: RegisteredHook[]): Fire {
    const builder = new OutcomeBuilder(info.name, info.permission === true, info.tool === true);
    const waiting = this.sessions.anyUndelivered ? this.sessions.takeUndelivered(sessionId) : undefined;
    if (waiting) builder.prepend(waiting.context, waiting.messages);
    return {
      event: info.name,
      input,
      sessionId,
      session: this.sessions.get(sessionId),
      cwd,
      signal: options.signal,
      hooks,
      records: new Array(hooks.length),
      builder,
      toolEvent: info.tool === true,
      ended: false,
      clock: now(),
      spare: undefined,
    };
  }

  /** Sequential chain from hook `i`; stays synchronous until a handler returns a promise. */
  private run(fire: Fire, i: number): Outcome | Promise<Outcome> {
    if (this.parallel) return this.runParallel(fire);
    for (; i < fire.hooks.length; i++) {
      const hook = fire.hooks[i]!;
      if (hook.spec.concurrentGroup !== undefined && !fire.ended) {
        const end = this.groupEnd(fire, i);
        return this.runGroup(fire, i, end).then(() => this.run(fire, end));
      }
      // After the chain ended, or a `once` hook an overlapping fire of the session ran while this one waited.
      if (fire.ended || (hook.once && fire.session.onceRan.has(hook.name))) {
        fire.records[i] = { name: hook.name, status: 'skipped', result: null, durationMs: 0, error: null };
        continue;
      }
      if (hook.once) fire.session.onceRan.add(hook.name);
      if (hook.async) {
        fire.records[i] = this.startAsync(fire, hook);
        continue;
      }
      const step = this.invoke(fire, hook, fire.input);
      if (step instanceof Promise) {
        const at = i;
        return (step as Promise<HookRecord>).then((record) => {
          fire.records[at] = record;
          return this.run(fire, at + 1);
        });
      }
      fire.records[i] = step;
    }
    return this.finish(fire);
  }

  /** The index after the run of hooks that share hook `i`'s concurrent group. */
  private groupEnd(fire: Fire, i: number): number {
    const group = fire.hooks[i]!.spec.concurrentGroup;
    let end = i + 1;
    while (end < fire.hooks.length && fire.hooks[end]!.spec.concurrentGroup === group) end++;
    return end;
  }

  /**
   * Hooks [from, to) of one concurrent group: all start at once on the input as the
   * group found it (a repeated dedupKey runs once), then fold in run order.
   */
  private async runGroup(fire: Fire, from: number, to: number): Promise<void> {
    const input = fire.input;
    const keys = new Set<string>();
    const attempts: Array<Promise<{ record: HookRecord; attempt: Attempt }> | undefined> = [];
    for (let i = from; i < to; i++) {
      const hook = fire.hooks[i]!;
      const key = hook.spec.dedupKey;
      const duplicate = key !== undefined && keys.has(key);
      if (key !== undefined) keys.add(key);
      if (duplicate || (hook.once && fire.session.onceRan.has(hook.name))) {
        fire.records[i] = { name: hook.name, status: 'skipped', result: null, durationMs: 0, error: null, ...(duplicate && { duplicate: true }) };
        continue;
      }
      if (hook.once) fire.session.onceRan.add(hook.name);
      if (hook.async) fire.records[i] = this.startAsync(fire, hook);
      else attempts[i - from] = this.attempt(fire, hook, input);
    }
    for (let i = from; i < to; i++) {
      const pending = attempts[i - from];
      if (pending === undefined) continue;
      const { record, attempt } = await pending;
      fire.records[i] = record;
      if (!fire.ended) this.apply(fire, fire.hooks[i]!, attempt);
    }
    fire.clock = now();
  }

  private runParallel(fire: Fire): Promise<Outcome> {
    const pending: Array<Promise<void>> = [];
    const verdicts: Array<Attempt | undefined> = new Array(fire.hooks.length);
    fire.hooks.forEach((hook, i) => {
      if (hook.once) fire.session.onceRan.add(hook.name);
      if (hook.async) {
        fire.records[i] = this.startAsync(fire, hook);
        return;
      }
      pending.push(
        this.attempt(fire, hook, fire.input).then(({ record, attempt }) => {
          fire.records[i] = record;
          verdicts[i] = attempt;
        }),
      );
    });
    return Promise.all(pending).then(() => {
      // Merge in run order as if the chain were sequential: nothing after the hook that ended it counts.
      fire.hooks.forEach((hook, i) => {
        const attempt = verdicts[i];
        if (attempt === undefined || fire.ended) return;
        this.apply(fire, hook, attempt);
      });
      return this.finish(fire);
    });
  }

  /** Run one hook (with retries and timeout), fold its verdict into the fire, return its record. */
  private invoke(fire: Fire, hook: RegisteredHook, input: HookInput): HookRecord | Promise<HookRecord> {
    const started = this.emitStart(fire, hook);
    const t0 = fire.clock;
    const ctx = fire.spare?.reuse(hook.name) ?? this.context(fire, hook);
    fire.spare = undefined;
    const first = this.call(hook, input, ctx);
    if (!(first instanceof Promise) && (!(first instanceof Failure) || hook.maxRetries === 0)) {
      return this.settle(fire, hook, first as Attempt, ctx, t0, started);
    }
    return this.retrying(fire, hook, input, ctx, first).then(([attempt, last]) => this.settle(fire, hook, attempt, last, t0, started));
  }

  /** Like invoke, without folding into the outcome (parallel mode folds later, in order). */
  private attempt(fire: Fire, hook: RegisteredHook, input: HookInput): Promise<{ record: HookRecord; attempt: Attempt }> {
    const started = this.emitStart(fire, hook);
    const t0 = now();
    const ctx = this.context(fire, hook);
    return this.retrying(fire, hook, input, ctx, this.call(hook, input, ctx)).then(([attempt, last]) => {
      const record = this.record(hook, attempt, last, t0);
      if (started) this.emitEnd(fire, hook, record);
      return { record, attempt };
    });
  }

  private context(fire: Fire, hook: RegisteredHook): Context {
    return new Context(hook.name, fire.sessionId, fire.session, fire.cwd, this.logger, fire.signal);
  }

  /** Re-invoke a failing handler up to `maxRetries` times, each time with a fresh context. */
  private async retrying(fire: Fire, hook: RegisteredHook, input: HookInput, ctx: Context, first: Attempt | Promise<Attempt>): Promise<[Attempt, Context]> {
    let attempt = await first;
    for (let tries = 0; attempt instanceof Failure && tries < hook.maxRetries && !fire.signal?.aborted; tries++) {
      ctx = this.context(fire, hook);
      attempt = await this.call(hook, input, ctx);
    }
    return [attempt, ctx];
  }

  /** Call the handler once. Synchronous results stay synchronous; promises get a timeout. */
  private call(hook: RegisteredHook, input: HookInput, ctx: Context): Attempt | Promise<Attempt> {
    let returned: unknown;
    try {
      returned = hook.spec.handler(input, ctx);
    } catch (error) {
      return new Failure(describe(error));
    }
    if (!isThenable(returned)) return this.verdictOf(returned);
    return this.withTimeout(hook, ctx, returned as Promise<unknown>);
  }

  private verdictOf(value: unknown): Attempt {
    try {
      return toVerdict(value);
    } catch (error) {
      return new Failure(describe(error));
    }
  }

  private withTimeout(hook: RegisteredHook, ctx: Context, promise: Promise<unknown>): Promise<Attempt> {
    return new Promise<Attempt>((resolve) => {
      let done = false;
      const outer = ctx.outer;
      const finish = (attempt: Attempt) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        outer?.removeEventListener('abort', onAbort);
        resolve(attempt);
      };
      const onAbort = () => {
        ctx.abort('fire aborted');
        finish(new Failure('aborted'));
      };
      const timer = setTimeout(() => {
        ctx.abort(`timed out after ${hook.timeoutMs} ms`);
        finish(new Failure(`timed out after ${hook.timeoutMs} ms`, true));
      }, hook.timeoutMs);
      outer?.addEventListener('abort', onAbort, { once: true });
      // A handler that ignores its signal keeps running; its late result or rejection is dropped here.
      promise.then(
        (value) => finish(this.verdictOf(value)),
        (error) => finish(new Failure(describe(error))),
      );
    });
  }

  private record(hook: RegisteredHook, attempt: Attempt, ctx: Context, t0: number, fire?: Fire): HookRecord {
    const end = now();
    if (fire) fire.clock = end;
    const durationMs = end - t0;
    const record: HookRecord =
      attempt instanceof Failure
        ? { name: hook.name, status: attempt.timeout ? 'timeout' : 'error', result: null, durationMs, error: attempt.why }
        : { name: hook.name, status: 'ok', result: attempt.result, durationMs, error: null };
    if (ctx.annotations) Object.assign(record, ctx.annotations, { name: record.name, status: record.status });
    return record;
  }

  private settle(fire: Fire, hook: RegisteredHook, attempt: Attempt, ctx: Context, t0: number, started: boolean): HookRecord {
    const record = this.record(hook, attempt, ctx, t0, fire);
    if (!(attempt instanceof Failure)) fire.spare = ctx;
    this.apply(fire, hook, attempt);
    if (started) this.emitEnd(fire, hook, record);
    return record;
  }

  /** Fold one hook's attempt into the outcome and the input the next hook sees. */
  private apply(fire: Fire, hook: RegisteredHook, attempt: Attempt): void {
    if (attempt instanceof Failure) {
      if (hook.onError.get(fire.event) === 'block') {
        fire.builder.addFailure(hook.name, attempt.why);
        fire.ended = true;
      }
      return;
    }
    fire.builder.add(attempt);
    if (attempt.ends) fire.ended = true;
    if (attempt.updatedInput !== undefined && !fire.ended && !this.parallel) {
      fire.input = fire.toolEvent ? { ...fire.input, tool_input: attempt.updatedInput } : { ...fire.input, ...attempt.updatedInput };
    }
  }

  /** Async hooks run in the background; what they return reaches the session's next outcome. */
  private startAsync(fire: Fire, hook: RegisteredHook): HookRecord {
    const ctx = this.context(fire, hook);
    const run = this.retrying(fire, hook, fire.input, ctx, this.call(hook, fire.input, ctx)).then(([attempt]) => {
      if (attempt instanceof Failure) this.logger.warn(`hookwise: async hook ${hook.name} failed: ${attempt.why}`);
      else this.sessions.deliverLater(fire.sessionId, attempt.additionalContext, attempt.systemMessage);
    });
    const tracked: Promise<void> = run.finally(() => this.inflight.delete(tracked));
    this.inflight.add(tracked);
    return { name: hook.name, status: 'async', result: null, durationMs: 0, error: null };
  }

  private finish(fire: Fire): Outcome | Promise<Outcome> {
    const outcome = fire.builder.finish();
    outcome.hooks = fire.records;
    if (this.listeners.outcome.length > 0) this.emitOutcome(outcome, fire.input, fire.sessionId);
    if (fire.event === 'SessionEnd') return this.endSession(fire.sessionId).then(() => outcome);
    return outcome;
  }

  /** Ending a session drains its async hooks, then forgets its state. */
  private async endSession(sessionId: string): Promise<void> {
    await this.drain();
    this.sessions.end(sessionId);
  }

  /** Call every listener of `type`; a listener that throws is logged and does not stop the others. */
  private emit<K extends keyof Listeners>(type: K, ...args: Parameters<Listeners[K]>): void {
    for (const listener of [...this.listeners[type]]) {
      try {
        (listener as (...a: Parameters<Listeners[K]>) => void)(...args);
      } catch (error) {
        this.logger.error(`hookwise: ${type} listener failed: ${describe(error)}`);
      }
    }
  }

  private emitOutcome(outcome: Outcome, input: HookInput, sessionId: string): void {
    this.emit('outcome', outcome, { input, sessionId });
  }

  private emitStart(fire: Fire, hook: RegisteredHook): boolean {
    if (this.listeners.hookStart.length === 0 && this.listeners.hookEnd.length === 0) return false;
    const info: HookStartEvent = { event: fire.event, name: hook.name, sessionId: fire.sessionId };
    if (hook.spec.statusMessage) info.statusMessage = hook.spec.statusMessage;
    this.emit('hookStart', info);
    return true;
  }

  private emitEnd(fire: Fire, hook: RegisteredHook, record: HookRecord): void {
    this.emit('hookEnd', { event: fire.event, name: hook.name, sessionId: fire.sessionId, record });
  }
}
