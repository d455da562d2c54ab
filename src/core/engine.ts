import { performance } from 'node:perf_hooks';
import { CANONICAL_NAMES, EVENTS, EventNameError, type EventInfo, type EventNames } from './events.js';
import { InputError, sealInput, sealValue, sealWith, thawValue, type HookInput } from './input.js';
import { emptyOutcome, OutcomeBuilder, type HookRecord, type Outcome } from './outcome.js';
import { bindEvent, EventIndex, filterValueOf, HookSpecError, prepareHook, type RegisteredHook } from './registry.js';
import { NO_OPINION, toVerdict, type ResultReader, type Verdict } from './results.js';
import type { AnyHook } from './hook.js';
import type { CounterStore } from './counter-store.js';
import type { HookLogger, HookSpec, PolicyFile } from './spec.js';
import { Context, type FireScope } from './context.js';
import { Sessions } from './state.js';
import { sameData } from './same-data.js';
import { AbortedError } from './errors.js';

export interface FireOptions {
  /** Defaults to `input.session_id`, else `"default"`. */
  sessionId?: string;
  /** Defaults to `input.cwd`; without either, `ctx.cwd` is undefined (the engine never reads the process's cwd). */
  cwd?: string;
  /** The project the agent works on (`ctx.projectDir`, the guards' workspace). Defaults to the fire's cwd. */
  projectDir?: string;
  /**
   * Nothing will run after this fire: a policy test, a replay, an explanation (`ctx.dryRun`).
   * Hooks that act beside judging (a checkpoint of the workspace) skip that part.
   */
  dryRun?: boolean;
  /** The environment hooks run with (`ctx.env`, frozen). Defaults to an empty object: the host decides what hooks see. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Aborting it aborts the running hook; the rest of the chain is skipped. */
  signal?: AbortSignal;
  /**
   * Counters shared beyond this process (`ctx.counters`): hookwise serve lends each tenant
   * its share of `--counters`, and budgetGuard counts there. Default: none.
   */
  counters?: CounterStore;
}

export interface EngineOptions {
  /** Run the hooks of one fire concurrently, all on the original input. */
  parallel?: boolean;
  logger?: HookLogger;
  /**
   * Measure each hook's `durationMs`. By default the engine times hooks while anyone
   * listens to it (`outcome`, `hookStart` or `hookEnd`), since reading the clock is a
   * system call on some machines (docs/model.md, "Durations").
   */
  timing?: boolean;
  /**
   * The names events go by besides hookwise's own (EventNames built with aliases):
   * `register()`, `fire()` and a matcher's `target` accept them. Default: the canonical names only.
   */
  eventNames?: EventNames;
  /**
   * Readers of return values in shapes other than hookwise's results, asked in order
   * when a handler returns an object without `kind`. Default: none (such a value is a
   * hook failure).
   */
  resultReaders?: readonly ResultReader[];
  /** The class of the `ctx` each handler call gets: Context, or a subclass that adds views of the input. */
  contextClass?: typeof Context;
  /** The files the policy was loaded from (`ctx.policyFiles`): the config loader gives them (engineFor). Default: none. */
  policyFiles?: readonly PolicyFile[];
}

export interface OutcomeEvent {
  /** The input the call goes ahead with: after every rewrite (a `last` handler's too, e.g. the OS sandbox's line). */
  input: HookInput;
  /** The input as the host handed it, before any hook rewrote it: what the agent asked for. */
  received: HookInput;
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

/** Without a host's logger, the platform's console: the core writes nowhere of its own. */
const consoleLogger: HookLogger = {
  debug: () => {},
  info: (m) => console.info(m),
  warn: (m) => console.warn(m),
  error: (m) => console.error(m),
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
/** No event fired yet, or the index changed since: the next name is looked up again. */
const FORGOTTEN: unique symbol = Symbol('no event remembered');
const NO_HOOKS: RegisteredHook[] = [];
// Bound once: the global `performance` is a lazy accessor, and the clock is read once per hook.
const now = performance.now.bind(performance);

/** Handlers may return any thenable (native promises included). */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * A verdict, not a Failure (nor the promise of either): verdicts always carry their
 * `result` kind. One property read; `instanceof` walked the prototype chain several
 * times per hook.
 */
function succeeded(attempt: Attempt | Promise<Attempt>): attempt is Verdict {
  return typeof (attempt as Verdict).result === 'string';
}

/**
 * A hook that edited the tool input in its context's writable view (Context.draft)
 * answered a rewrite: the edit becomes the verdict's updatedInput, recorded and
 * checked like a returned `modify`. A refusal keeps nothing of it; an edit beside a
 * returned rewrite that differs is ambiguous, and fails the hook.
 */
function withEdit(ctx: Context, attempt: Attempt): Attempt {
  const edited = ctx.edited();
  if (edited === undefined || !succeeded(attempt) || attempt.block || attempt.halt || attempt.retryDelayMs !== undefined) return attempt;
  if (attempt.updatedInput !== undefined) {
    if (sameData(attempt.updatedInput, edited)) return attempt;
    return new Failure('the hook edited ctx.tool_input in place and also returned modify(...) with another input: do one of the two');
  }
  return { ...attempt, result: attempt.result === 'none' ? 'modify' : attempt.result, updatedInput: edited };
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** A write to the sealed input says how to rewrite instead. */
function describeHandlerError(error: unknown): string {
  const why = describe(error);
  if (error instanceof TypeError && /read[- ]only|not extensible|Cannot (add|delete|assign|define) property/i.test(why)) {
    return `${why} (hook inputs are read-only: return modify(...) to rewrite the input)`;
  }
  return why;
}

/**
 * One fire in progress. It is also the scope every hook's Context reads: one object
 * per fire, not two, made as a literal (allocated inline; a class constructor here
 * was not inlined into the fire path).
 */
interface Fire extends FireScope {
  event: string;
  index: EventIndex;
  /** The sealed input the next hook sees (rewrites applied, in sequential mode). */
  input: HookInput;
  /** The sealed input the fire started with. */
  original: HookInput;
  hooks: RegisteredHook[];
  records: HookRecord[];
  builder: OutcomeBuilder;
  toolEvent: boolean;
  ended: boolean;
  /** Whether this fire measures its hooks' durations. */
  timed: boolean;
  /** When the previous sequential hook ended: the clock is read once per hook, not twice. */
  clock: number;
  /** Hooks whose matcher failed (threw, or answered something not boolean): they fail without running. */
  matcherFailed: Map<RegisteredHook, string> | undefined;
  /** What each `recheck` hook judged, to tell whether the final input is new to it. */
  judged: Map<RegisteredHook, HookInput> | undefined;
}

/**
 * Runs the hooks of an event and merges what they say into one Outcome.
 * No I/O of its own: handlers do their I/O, hosts act on the Outcome.
 */
export class HookEngine {
  private readonly registered = new Map<string, RegisteredHook>();
  private readonly index = new Map<string, EventIndex>();
  /** Hooks registered with `events: '*'`, bound to each event's index as it appears. */
  private readonly everyEvent: RegisteredHook[] = [];
  private readonly sessions = new Sessions();
  private readonly inflight = new Set<Promise<void>>();
  private readonly listeners: { [K in keyof Listeners]: Array<Listeners[K]> } = { outcome: [], hookStart: [], hookEnd: [] };
  private readonly pendingReady = new Set<Promise<void>>();
  private readonly logger: HookLogger;
  private seq = 0;
  /** The event name fired last, what it resolved to and its index: a host fires the same few names over and over. */
  private lastName: string | typeof FORGOTTEN = FORGOTTEN;
  private lastCanonical = '';
  private lastIndex: EventIndex | undefined;
  /** Set by select() for the fire it selects for, read by startFire() right after. */
  private failedMatchers: Map<RegisteredHook, string> | undefined;
  readonly parallel: boolean;
  private readonly timing: boolean | undefined;
  /** The names events go by in this engine. */
  readonly eventNames: EventNames;
  private readonly readers: readonly ResultReader[];
  private readonly Ctx: typeof Context;
  private readonly policyFiles: readonly PolicyFile[];

  constructor(options: EngineOptions = {}) {
    this.parallel = options.parallel === true;
    this.timing = options.timing;
    this.logger = options.logger ?? consoleLogger;
    this.eventNames = options.eventNames ?? CANONICAL_NAMES;
    this.readers = options.resultReaders ?? [];
    this.Ctx = options.contextClass ?? Context;
    this.policyFiles = Object.freeze([...(options.policyFiles ?? [])]);
  }

  /** Add a hook. Its name must be new: a name already registered is an error (`replace()` swaps a hook). */
  register(typed: AnyHook): this {
    const spec = typed as unknown as HookSpec;
    if (spec && typeof spec === 'object' && typeof spec.name === 'string' && this.registered.has(spec.name)) {
      const from = spec.source ? ` (${spec.source})` : '';
      const first = this.registered.get(spec.name)!.spec.source;
      throw new HookSpecError(
        `hook "${spec.name}"${from}: name: a hook named "${spec.name}" is already registered${first ? ` (${first})` : ''}; give each hook its own name, or call replace() to swap it`,
      );
    }
    return this.add(spec);
  }

  /** Add a hook, or swap the hook of the same name (the new one goes to the end of registration order). */
  replace(typed: AnyHook): this {
    return this.add(typed as unknown as HookSpec);
  }

  private add(spec: HookSpec): this {
    const hook = prepareHook(spec, this.seq++, this.eventNames);
    // A new index, or a '*' hook that makes one on the next fire: look the name up again.
    this.lastName = FORGOTTEN;
    this.unregister(hook.name);
    this.registered.set(hook.name, hook);
    const events = hook.everyEvent ? new Set([...EVENTS, ...this.index.keys()]) : [...hook.events];
    for (const event of events) this.attach(hook, this.indexFor(event));
    if (hook.everyEvent) this.everyEvent.push(hook);
    return this;
  }

  /** Put a hook in an event's index, and start whatever its matcher must load first. */
  private attach(hook: RegisteredHook, idx: EventIndex): void {
    const matcher = bindEvent(hook, idx.event);
    idx.add(hook);
    for (const ready of matcher.ready ?? []) this.track(ready());
  }

  /** The index of an event, made on first use with the `'*'` hooks in it. */
  private indexFor(event: string): EventIndex {
    let idx = this.index.get(event);
    if (idx === undefined) {
      this.index.set(event, (idx = new EventIndex(event)));
      for (const hook of this.everyEvent) this.attach(hook, idx);
    }
    return idx;
  }

  /** The index of an event, if any hook listens to it. */
  private indexOf(event: string): EventIndex | undefined {
    const idx = this.index.get(event);
    if (idx !== undefined || this.everyEvent.length === 0) return idx;
    return this.indexFor(event);
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
    this.lastName = FORGOTTEN;
    if (hook.everyEvent) this.everyEvent.splice(this.everyEvent.indexOf(hook), 1);
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
    return (this.indexOf(this.eventNames.check(event))?.all() ?? []).map((h) => h.spec);
  }

  /** How many hooks are registered, for one event (aliases accepted) or in all. */
  hookCount(event?: string): number {
    if (event === undefined) return this.registered.size;
    return this.indexOf(this.eventNames.check(event))?.size ?? 0;
  }

  /** The hook registered under `name`, as it was registered. */
  getHook(name: string): HookSpec | undefined {
    return this.registered.get(name)?.spec;
  }

  /** Subscribe; returns the function that unsubscribes. */
  on<K extends keyof Listeners>(type: K, listener: Listeners[K]): () => void {
    const list = this.listeners[type] as Array<Listeners[K]>;
    if (!list) throw new EventNameError(`unknown engine event "${String(type)}"; expected outcome, hookStart or hookEnd`);
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

  /**
   * Fire an event; resolves to the merged Outcome. Never rejects because of a hook;
   * rejects for a mistake of the caller (an unknown-looking event name, an input
   * that is not an object or cannot be sealed).
   */
  fire(event: string, input: HookInput = {}, options: FireOptions = NO_OPTIONS): Promise<Outcome> {
    const outcome = this.fireMaybeSync(event, input, options);
    if (outcome instanceof Promise) return outcome;
    // Read a field first: V8 then knows the Outcome's shape, which has no `then`, and
    // fulfils the promise without Promise.resolve's generic lookup of `outcome.then`
    // (measured: 5-7% of a fire of three sync hooks).
    void outcome.hooks;
    return Promise.resolve(outcome);
  }

  /**
   * fire(), except that an Outcome reached without waiting (no hook selected, or every
   * selected hook answered synchronously) is returned as it is, not in a promise. For
   * hosts on a hot path, where a promise and an `await` per fire are a measurable cost
   * (an agent framework that tracks async context makes each one dearer). Mistakes of
   * the caller are the same rejected promise as fire()'s.
   */
  fireMaybeSync(event: string, input: HookInput = {}, options: FireOptions = NO_OPTIONS): Outcome | Promise<Outcome> {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      return Promise.reject(new InputError(`fire(${event}): input must be a JSON object`));
    }
    if (this.pendingReady.size > 0) return Promise.all(this.pendingReady).then(() => this.fire(event, input, options));
    if (options.signal?.aborted) return Promise.reject(options.signal.reason ?? new AbortedError('aborted'));
    try {
      return this.start(event, input, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Whether a fire of `event` now would be noticed: a hook listens to it, an outcome
   * listener records every fire, async hooks' output waits for the session's next
   * Outcome, or it is SessionEnd (which ends the session). A host may skip building
   * and firing an event nobody would notice.
   */
  observes(event: string): boolean {
    const canonical = this.eventNames.check(event);
    return (
      (this.indexOf(canonical)?.size ?? 0) > 0 ||
      this.listeners.outcome.length > 0 ||
      this.sessions.anyUndelivered ||
      canonical === 'SessionEnd'
    );
  }

  private start(event: string, input: HookInput, options: FireOptions): Outcome | Promise<Outcome> {
    let canonical = this.lastCanonical;
    let idx = this.lastIndex;
    if (event !== this.lastName) {
      canonical = this.eventNames.check(event);
      idx = this.indexOf(canonical);
      this.lastName = event;
      this.lastCanonical = canonical;
      this.lastIndex = idx;
    }
    const sessionId = options.sessionId ?? (typeof input.session_id === 'string' ? input.session_id : 'default');
    const cwd = options.cwd ?? (typeof input.cwd === 'string' ? input.cwd : undefined);
    const candidates = idx === undefined ? NO_HOOKS : idx.candidates(filterValueOf(input, idx.info.filterField));
    // Matchers see what handlers see (a sealed copy): `path` needs the fire's cwd, `session` its session.
    const seen = candidates.length === 0 ? undefined : sealInput(input, canonical, sessionId, cwd);
    const selected = seen === undefined ? NO_HOOKS : this.select(idx!, candidates, seen, sessionId);
    if (selected.length === 0 && !this.sessions.anyUndelivered) {
      const outcome = emptyOutcome(canonical);
      if (this.listeners.outcome.length > 0) {
        const sealed = seen ?? sealInput(input, canonical, sessionId, cwd);
        this.emitOutcome(outcome, sealed, sealed, sessionId);
      }
      if (canonical === 'SessionEnd') return this.endSession(sessionId).then(() => outcome);
      return outcome;
    }
    const fire = this.startFire(
      idx ?? new EventIndex(canonical),
      seen ?? sealInput(input, canonical, sessionId, cwd),
      sessionId,
      cwd,
      options,
      selected,
    );
    return this.run(fire, 0);
  }

  /**
   * The candidates whose matcher accepts the input. A matcher that throws or answers
   * anything but a boolean selects its hook, which then fails without running.
   */
  private select(idx: EventIndex, candidates: RegisteredHook[], input: HookInput, sessionId: string): RegisteredHook[] {
    const event = idx.event;
    this.failedMatchers = undefined;
    // Copy only once a candidate fails to match; usually every candidate matches.
    let selected: RegisteredHook[] | undefined;
    for (let i = 0; i < candidates.length; i++) {
      const hook = candidates[i]!;
      const matcher = hook.onlyMatcher ?? hook.matchers.get(event)!;
      let ok: boolean;
      try {
        ok = matcher.trivial === true || matcher.test(input);
      } catch (error) {
        (this.failedMatchers ??= new Map()).set(hook, `matcher failed: ${describe(error)}`);
        ok = true;
      }
      if (ok && hook.once && this.sessions.peek(sessionId)?.onceRan.has(hook.name)) ok = false;
      if (!ok) selected ??= candidates.slice(0, i);
      else if (selected) selected.push(hook);
    }
    return selected ?? candidates;
  }

  private startFire(
    idx: EventIndex,
    input: HookInput,
    sessionId: string,
    cwd: string | undefined,
    options: FireOptions,
    hooks: RegisteredHook[],
  ): Fire {
    const info: EventInfo = idx.info;
    const records: HookRecord[] = new Array(hooks.length);
    const builder = new OutcomeBuilder(info.name, info.permission === true, info.tool === true, records);
    const waiting = this.sessions.anyUndelivered ? this.sessions.takeUndelivered(sessionId) : undefined;
    if (waiting) builder.prepend(waiting.context, waiting.messages);
    const matcherFailed = this.failedMatchers;
    this.failedMatchers = undefined;
    const timed = this.timing ?? this.listened();
    return {
      event: info.name,
      index: idx,
      input,
      original: input,
      hooks,
      records,
      builder,
      toolEvent: info.tool === true,
      ended: false,
      timed,
      clock: timed ? now() : 0,
      matcherFailed,
      judged: undefined,
      sessionId,
      session: this.sessions.get(sessionId),
      cwd,
      projectDir: options.projectDir ?? cwd,
      policyFiles: this.policyFiles,
      dryRun: options.dryRun === true,
      logger: this.logger,
      outer: options.signal,
      hostEnv: options.env,
      frozenEnv: undefined,
      counters: options.counters,
    };
  }

  /** Sequential chain from hook `i`; stays synchronous until a handler returns a promise. */
  private run(fire: Fire, i: number): Outcome | Promise<Outcome> {
    if (this.parallel) return this.runParallel(fire);
    const hooks = fire.hooks;
    for (; i < hooks.length; i++) {
      const hook = hooks[i]!;
      if (!hook.plain || fire.ended) {
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
      }
      const input = fire.input;
      const started = this.emitStart(fire, hook);
      const t0 = fire.clock;
      const ctx = new this.Ctx(hook.name, fire, input);
      const first = this.call(fire, hook, input, ctx);
      if (!succeeded(first) && (first instanceof Promise || hook.maxRetries > 0)) {
        const at = i;
        return this.retrying(fire, hook, input, ctx, first).then(([attempt, last]) => {
          fire.records[at] = this.settle(fire, hook, attempt, last, t0, started);
          return this.run(fire, at + 1);
        });
      }
      fire.records[i] = this.settle(fire, hook, first, ctx, t0, started);
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
        fire.records[i] = {
          name: hook.name,
          status: 'skipped',
          result: null,
          durationMs: 0,
          error: null,
          ...(duplicate && { duplicate: true }),
        };
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
    if (fire.timed) fire.clock = now();
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

  /** Like a sequential hook's run, without folding into the outcome (parallel mode and rechecks fold later, in order). */
  private attempt(fire: Fire, hook: RegisteredHook, input: HookInput): Promise<{ record: HookRecord; attempt: Attempt }> {
    const started = this.emitStart(fire, hook);
    const t0 = fire.timed ? now() : 0;
    const ctx = new this.Ctx(hook.name, fire, input);
    return this.retrying(fire, hook, input, ctx, this.call(fire, hook, input, ctx)).then(([attempt, last]) => {
      const record = this.record(fire, hook, attempt, last, t0, false);
      if (started) this.emitEnd(fire, hook, record);
      return { record, attempt };
    });
  }

  /** Re-invoke a failing handler up to `maxRetries` times, each time with a fresh context. */
  private async retrying(
    fire: Fire,
    hook: RegisteredHook,
    input: HookInput,
    ctx: Context,
    first: Attempt | Promise<Attempt>,
  ): Promise<[Attempt, Context]> {
    let attempt = await first;
    for (let tries = 0; !succeeded(attempt) && tries < hook.maxRetries && !fire.outer?.aborted; tries++) {
      ctx = new this.Ctx(hook.name, fire, input);
      attempt = await this.call(fire, hook, input, ctx);
    }
    return [attempt, ctx];
  }

  /** Call the handler once. Synchronous results stay synchronous; promises get a timeout. */
  private call(fire: Fire, hook: RegisteredHook, input: HookInput, ctx: Context): Attempt | Promise<Attempt> {
    const matcherFailure = fire.matcherFailed?.get(hook);
    if (matcherFailure !== undefined) return new Failure(matcherFailure);
    if (hook.recheck) (fire.judged ??= new Map()).set(hook, input);
    let returned: unknown;
    try {
      returned = hook.spec.handler(input, ctx);
    } catch (error) {
      return new Failure(describeHandlerError(error));
    }
    if (returned === undefined) return withEdit(ctx, NO_OPINION);
    if (!isThenable(returned)) return withEdit(ctx, this.verdictOf(returned));
    return this.withTimeout(hook, ctx, returned as Promise<unknown>);
  }

  private verdictOf(value: unknown): Attempt {
    try {
      return toVerdict(value, this.readers);
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
        (value) => finish(withEdit(ctx, this.verdictOf(value))),
        (error) => finish(new Failure(describeHandlerError(error))),
      );
    });
  }

  /** `sequential`: the hook's end is the next one's start. */
  private record(fire: Fire, hook: RegisteredHook, attempt: Attempt, ctx: Context, t0: number, sequential: boolean): HookRecord {
    if (!fire.timed && attempt === NO_OPINION && ctx.annotations === undefined) return hook.quiet;
    let durationMs: number | undefined;
    if (fire.timed) {
      const end = now();
      if (sequential) fire.clock = end;
      durationMs = end - t0;
    }
    const record: HookRecord = succeeded(attempt)
      ? { name: hook.name, status: 'ok', result: attempt.result, durationMs, error: null }
      : { name: hook.name, status: attempt.timeout ? 'timeout' : 'error', result: null, durationMs, error: attempt.why };
    if (ctx.annotations) Object.assign(record, ctx.annotations, { name: record.name, status: record.status });
    return record;
  }

  private settle(fire: Fire, hook: RegisteredHook, attempt: Attempt, ctx: Context, t0: number, started: boolean): HookRecord {
    const record = this.record(fire, hook, attempt, ctx, t0, true);
    this.apply(fire, hook, attempt);
    if (started) this.emitEnd(fire, hook, record);
    return record;
  }

  /** Fold one hook's attempt into the outcome and the input the next hook sees. */
  private apply(fire: Fire, hook: RegisteredHook, attempt: Attempt): void {
    if (attempt === NO_OPINION) return;
    if (!succeeded(attempt)) {
      if (hook.onError.get(fire.event) === 'block') {
        fire.builder.addFailure(hook.name, attempt.why);
        fire.ended = true;
      }
      return;
    }
    if (attempt.updatedInput === undefined) {
      fire.builder.add(attempt);
    } else {
      // Hooks see a sealed copy; the Outcome gets a copy of its own, so neither the hook nor the host can change the other's.
      const sealed = sealValue(attempt.updatedInput);
      fire.builder.add({ ...attempt, updatedInput: thawValue(sealed) });
      if (!this.parallel && !fire.ended && !attempt.ends) fire.input = rewritten(fire.input, sealed, fire.toolEvent);
    }
    if (attempt.ends) fire.ended = true;
  }

  /** Async hooks run in the background; what they return reaches the session's next outcome. */
  private startAsync(fire: Fire, hook: RegisteredHook): HookRecord {
    const ctx = new this.Ctx(hook.name, fire, fire.input);
    const run = this.retrying(fire, hook, fire.input, ctx, this.call(fire, hook, fire.input, ctx)).then(([attempt]) => {
      if (!succeeded(attempt)) this.logger.warn(`hookwise: async hook ${hook.name} failed: ${attempt.why}`);
      else this.sessions.deliverLater(fire.sessionId, attempt.additionalContext, attempt.systemMessage);
    });
    const tracked: Promise<void> = run.finally(() => this.inflight.delete(tracked));
    this.inflight.add(tracked);
    return { name: hook.name, status: 'async', result: null, durationMs: 0, error: null };
  }

  private finish(fire: Fire): Outcome | Promise<Outcome> {
    if (fire.index.rechecks > 0 && fire.builder.outcome.updatedInput !== null && !fire.builder.outcome.blocked) {
      const rechecked = this.recheck(fire);
      if (rechecked instanceof Promise) return rechecked.then(() => this.finishLast(fire));
    }
    return this.finishLast(fire);
  }

  /** The `last` handlers have the final word on a call that still goes ahead (docs/model.md, "Last handlers"). */
  private finishLast(fire: Fire): Outcome | Promise<Outcome> {
    if (fire.index.lasts > 0 && !fire.builder.outcome.blocked) {
      const ran = this.runLast(fire);
      if (ran instanceof Promise) return ran.then(() => this.finishOutcome(fire));
    }
    return this.finishOutcome(fire);
  }

  private finishOutcome(fire: Fire): Outcome | Promise<Outcome> {
    const outcome = fire.builder.finish();
    if (this.listeners.outcome.length > 0) this.emitOutcome(outcome, fire.input, fire.original, fire.sessionId);
    if (fire.event === 'SessionEnd') return this.endSession(fire.sessionId).then(() => outcome);
    return outcome;
  }

  /**
   * The input was rewritten after (or, in parallel mode, beside) a `recheck` hook:
   * run every `recheck` hook that matches the final input and has not judged it, one
   * after another, and let a deny, block or stop of theirs decide (docs/model.md, "Rechecks").
   */
  private recheck(fire: Fire): Promise<void> | void {
    const final = this.parallel ? rewritten(fire.original, sealValue(fire.builder.outcome.updatedInput!), fire.toolEvent) : fire.input;
    fire.input = final;
    const idx = fire.index;
    const todo = idx.candidates(filterValueOf(final, idx.info.filterField)).filter((hook) => {
      if (!hook.recheck || hook.async) return false;
      const judged = fire.judged?.get(hook);
      if (judged !== undefined && (judged === final || sameData(judged, final))) return false;
      const matcher = hook.onlyMatcher ?? hook.matchers.get(fire.event)!;
      try {
        return matcher.trivial === true || matcher.test(final);
      } catch (error) {
        (fire.matcherFailed ??= new Map()).set(hook, `matcher failed: ${describe(error)}`);
        return true;
      }
    });
    if (todo.length === 0) return;
    return (async () => {
      for (const hook of todo) {
        const { record, attempt } = await this.attempt(fire, hook, final);
        fire.records.push({ ...record, recheck: true });
        if (this.applyRecheck(fire, hook, attempt)) return;
      }
    })();
  }

  /** The final input: in parallel mode the hooks' rewrites are folded onto the original here. */
  private finalInput(fire: Fire): HookInput {
    const updated = fire.builder.outcome.updatedInput;
    if (this.parallel && updated !== null) return rewritten(fire.original, sealValue(updated), fire.toolEvent);
    return fire.input;
  }

  /** Every `last` handler whose hook matches the final input runs on it, in run order; a refusal ends the run. */
  private runLast(fire: Fire): Promise<void> | void {
    fire.input = this.finalInput(fire);
    const todo = fire.index.candidates(filterValueOf(fire.input, fire.index.info.filterField)).filter((hook) => {
      if (hook.spec.last === undefined || hook.async) return false;
      const matcher = hook.onlyMatcher ?? hook.matchers.get(fire.event)!;
      try {
        return matcher.trivial === true || matcher.test(fire.input);
      } catch (error) {
        // A matcher that fails selects its hook, which then fails without running (as in select()).
        (fire.matcherFailed ??= new Map()).set(hook, `matcher failed: ${describe(error)}`);
        return true;
      }
    });
    return this.runLastFrom(fire, todo, 0);
  }

  private runLastFrom(fire: Fire, todo: RegisteredHook[], from: number): Promise<void> | void {
    for (let k = from; k < todo.length; k++) {
      const hook = todo[k]!;
      const t0 = fire.timed ? now() : 0;
      const ctx = new this.Ctx(hook.name, fire, fire.input);
      const attempt = this.callLast(fire, hook, ctx);
      if (attempt instanceof Promise) {
        return attempt.then((a) => (this.settleLast(fire, hook, a, ctx, t0) ? undefined : this.runLastFrom(fire, todo, k + 1)));
      }
      if (this.settleLast(fire, hook, attempt, ctx, t0)) return;
    }
  }

  private callLast(fire: Fire, hook: RegisteredHook, ctx: Context): Attempt | Promise<Attempt> {
    const matcherFailure = fire.matcherFailed?.get(hook);
    if (matcherFailure !== undefined) return new Failure(matcherFailure);
    let returned: unknown;
    try {
      returned = hook.spec.last!(fire.input, ctx);
    } catch (error) {
      return new Failure(describeHandlerError(error));
    }
    if (returned === undefined) return withEdit(ctx, NO_OPINION);
    if (!isThenable(returned)) return withEdit(ctx, this.verdictOf(returned));
    return this.withTimeout(hook, ctx, returned as Promise<unknown>);
  }

  /** Fold a last handler's answer: a rewrite replaces the input that runs, a refusal or failure ends the call. True when it ended. */
  private settleLast(fire: Fire, hook: RegisteredHook, attempt: Attempt, ctx: Context, t0: number): boolean {
    fire.records.push({ ...this.record(fire, hook, attempt, ctx, t0, false), last: true });
    if (attempt === NO_OPINION) return false;
    if (!succeeded(attempt)) {
      if (hook.onError.get(fire.event) !== 'block') return false;
      fire.builder.addFailure(hook.name, `${attempt.why} (its last handler)`);
      return true;
    }
    const { result, decision, block, stop, reason, stopReason, updatedInput } = attempt;
    if (block || stop) {
      fire.builder.add({ result, decision, block, stop, reason, stopReason });
      return true;
    }
    if (updatedInput !== undefined) {
      const sealed = sealValue(updatedInput);
      fire.builder.add({ result, updatedInput: thawValue(sealed) });
      fire.input = rewritten(fire.input, sealed, fire.toolEvent);
    }
    return false;
  }

  /** Only what can stop the rewritten call counts in a recheck; true when it did. */
  private applyRecheck(fire: Fire, hook: RegisteredHook, attempt: Attempt): boolean {
    if (!succeeded(attempt)) {
      if (hook.onError.get(fire.event) !== 'block') return false;
      fire.builder.addFailure(hook.name, `${attempt.why} (judging the rewritten input)`);
      return true;
    }
    const { result, decision, block, stop, reason, stopReason } = attempt;
    if (block || stop) {
      fire.builder.add({ result, decision, block, stop, reason, stopReason });
      return true;
    }
    if (decision === 'ask' || decision === 'defer') fire.builder.add({ result, decision, reason });
    return false;
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

  private emitOutcome(outcome: Outcome, input: HookInput, received: HookInput, sessionId: string): void {
    this.emit('outcome', outcome, { input, received, sessionId });
  }

  /** Anyone listening: then hooks are timed, unless the engine was told otherwise. */
  private listened(): boolean {
    const l = this.listeners;
    return l.outcome.length > 0 || l.hookStart.length > 0 || l.hookEnd.length > 0;
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

/** The sealed input after a rewrite: tool events replace `tool_input`, other events patch the input. */
function rewritten(input: HookInput, sealed: Record<string, unknown>, toolEvent: boolean): HookInput {
  return sealWith(input, toolEvent ? { tool_input: sealed } : sealed);
}
