import { CANONICAL_NAMES, EventNameError, eventInfo, type EventInfo, type EventNames } from './events.js';
import { stepNameOf, type HookInput } from './input.js';
import { compileMatcher, type CompiledMatcher } from './matchers.js';
import { MatcherError } from './regex.js';
import { DEFAULT_TIMEOUT_MS, type HookSpec, type OnError } from './spec.js';
import type { HookRecord } from './outcome.js';
import { HookwiseError } from './errors.js';

/** `events: '*'`: the hook is bound to every event, known or custom, as it is first fired. */
export const EVERY_EVENT = '*';

/** A hook as the engine keeps it: validated, matcher compiled per event. */
export interface RegisteredHook {
  spec: HookSpec;
  name: string;
  /** The events the hook is bound to so far (a `'*'` hook gains events as they are fired). */
  events: string[];
  everyEvent: boolean;
  priority: number;
  seq: number;
  timeoutMs: number;
  async: boolean;
  maxRetries: number;
  once: boolean;
  recheck: boolean;
  onError: Map<string, OnError>;
  matchers: Map<string, CompiledMatcher>;
  /** The matcher when the hook has one event (the common case): saves a map lookup per fire. */
  onlyMatcher: CompiledMatcher | undefined;
  /** Not async, not once, in no concurrent group: the run loop calls it without further checks. */
  plain: boolean;
  /** Its record when it ran untimed and had no opinion (the commonest record): made once, frozen, shared. */
  quiet: HookRecord;
  /** The names the engine knows events by (a matcher's `target` may use any). */
  eventNames: EventNames;
}

export class HookSpecError extends HookwiseError {
  override readonly code = 'HOOK_SPEC';
}

function fail(spec: Partial<HookSpec>, message: string): never {
  const where = typeof spec.name === 'string' && spec.name ? `hook "${spec.name}"` : 'hook';
  const from = spec.source ? ` (${spec.source})` : '';
  throw new HookSpecError(`${where}${from}: ${message}`);
}

function optionalBoolean(spec: HookSpec, field: 'async' | 'once' | 'recheck'): boolean {
  const value = spec[field];
  if (value !== undefined && typeof value !== 'boolean') fail(spec, `${field}: expected true or false, got ${JSON.stringify(value)}`);
  return value === true;
}

function eventsOf(spec: HookSpec, eventNames: EventNames): string[] {
  const raw = typeof spec.events === 'string' ? [spec.events] : spec.events;
  if (!Array.isArray(raw) || raw.length === 0) fail(spec, 'events: expected an event name, "*", or a non-empty array of event names');
  if (raw.includes(EVERY_EVENT)) return [EVERY_EVENT];
  const events = raw.map((name) => {
    try {
      return eventNames.check(name);
    } catch (error) {
      if (error instanceof EventNameError) fail(spec, `events: ${error.message}`);
      throw error;
    }
  });
  return [...new Set(events)];
}

/** Validate a spec and compile its matchers; throws HookSpecError naming the hook and field. */
export function prepareHook(spec: HookSpec, seq: number, eventNames: EventNames = CANONICAL_NAMES): RegisteredHook {
  if (!spec || typeof spec !== 'object') throw new HookSpecError('hook spec must be an object');
  if (typeof spec.name !== 'string' || spec.name === '') fail(spec, 'name: expected a non-empty string');
  const events = eventsOf(spec, eventNames);
  if (typeof spec.handler !== 'function') fail(spec, 'handler: expected a function');
  if (spec.last !== undefined && typeof spec.last !== 'function') fail(spec, 'last: expected a function');
  const priority = spec.priority ?? 0;
  if (typeof priority !== 'number' || !Number.isFinite(priority)) fail(spec, 'priority: expected a finite number');
  const timeoutMs = spec.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0)) fail(spec, 'timeoutMs: expected a positive number of milliseconds');
  const maxRetries = spec.maxRetries ?? 0;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) fail(spec, 'maxRetries: expected a whole number >= 0');
  if (spec.onError !== undefined && spec.onError !== 'block' && spec.onError !== 'continue') {
    fail(spec, `onError: expected "block" or "continue", got ${JSON.stringify(spec.onError)}`);
  }
  const hook: RegisteredHook = {
    spec,
    name: spec.name,
    events: [],
    everyEvent: events[0] === EVERY_EVENT,
    priority,
    seq,
    timeoutMs,
    async: optionalBoolean(spec, 'async'),
    maxRetries,
    once: optionalBoolean(spec, 'once'),
    recheck: optionalBoolean(spec, 'recheck'),
    onError: new Map(),
    matchers: new Map(),
    onlyMatcher: undefined,
    plain: false,
    quiet: Object.freeze({ name: spec.name, status: 'ok', result: 'none', durationMs: undefined, error: null } as const),
    eventNames,
  };
  hook.plain = !hook.async && !hook.once && spec.concurrentGroup === undefined;
  // A '*' hook's matcher is compiled per event as it is bound; compile it once now so a bad one fails here.
  if (hook.everyEvent) compileFor(hook, 'PreToolUse');
  else for (const event of events) bindEvent(hook, event);
  hook.onlyMatcher = !hook.everyEvent && events.length === 1 ? hook.matchers.get(events[0]!) : undefined;
  return hook;
}

function compileFor(hook: RegisteredHook, event: string): CompiledMatcher {
  const spec = hook.spec;
  try {
    return compileMatcher(spec.matcher, event, hook.eventNames);
  } catch (error) {
    if (error instanceof MatcherError) fail(spec, `matcher: ${error.message}`);
    throw error;
  }
}

/** Compile the hook's matcher and failure policy for one more (canonical) event. */
export function bindEvent(hook: RegisteredHook, event: string): CompiledMatcher {
  let matcher = hook.matchers.get(event);
  if (matcher) return matcher;
  matcher = compileFor(hook, event);
  hook.matchers.set(event, matcher);
  hook.onError.set(event, hook.spec.onError ?? (eventInfo(event).blockable ? 'block' : 'continue'));
  hook.events.push(event);
  return matcher;
}

const byRunOrder = (a: RegisteredHook, b: RegisteredHook) => b.priority - a.priority || a.seq - b.seq;
const CACHE_LIMIT = 512;

function insertSorted(list: RegisteredHook[], hook: RegisteredHook): void {
  list.push(hook);
  list.sort(byRunOrder);
}

/**
 * The hooks of one event, indexed so a fire only looks at hooks that can match.
 * Hooks whose matcher names exact filter values (tool names) sit in a map; hooks
 * whose matcher depends on the filter value alone (a regex on the tool name) are
 * tested once per distinct value; the rest sit in one list. The merged, ordered
 * candidate list per value is cached, so a fire costs one map lookup however many
 * exact or regex hooks there are.
 */
export class EventIndex {
  private readonly exact = new Map<string, RegisteredHook[]>();
  private keyed: RegisteredHook[] = [];
  private generic: RegisteredHook[] = [];
  private readonly cache = new Map<string, RegisteredHook[]>();
  /** The value asked for last and its list: a host fires for the same tool again and again. */
  private lastValue: string | undefined;
  private lastList: RegisteredHook[] = [];
  private count = 0;
  /** Hooks that asked to judge the final input again (`recheck: true`). */
  rechecks = 0;
  /** Hooks with a `last` handler, which runs on the final input. */
  lasts = 0;

  readonly info: EventInfo;

  constructor(readonly event: string) {
    this.info = eventInfo(event);
  }

  get size(): number {
    return this.count;
  }

  add(hook: RegisteredHook): void {
    const matcher = hook.matchers.get(this.event)!;
    if (matcher.exactValues) {
      for (const value of matcher.exactValues) {
        const list = this.exact.get(value) ?? [];
        insertSorted(list, hook);
        this.exact.set(value, list);
      }
    } else if (matcher.keyTest) {
      insertSorted(this.keyed, hook);
    } else {
      insertSorted(this.generic, hook);
    }
    this.count++;
    if (hook.recheck) this.rechecks++;
    if (hook.spec.last) this.lasts++;
    this.forget();
  }

  remove(hook: RegisteredHook): void {
    for (const [value, list] of this.exact) {
      const kept = list.filter((h) => h !== hook);
      if (kept.length) this.exact.set(value, kept);
      else this.exact.delete(value);
    }
    this.keyed = this.keyed.filter((h) => h !== hook);
    this.generic = this.generic.filter((h) => h !== hook);
    this.count--;
    if (hook.recheck) this.rechecks--;
    if (hook.spec.last) this.lasts--;
    this.forget();
  }

  private forget(): void {
    this.cache.clear();
    this.lastValue = undefined;
  }

  /** Hooks that may match an input whose filter field holds `value`, in run order. */
  candidates(value: string): RegisteredHook[] {
    if (this.exact.size === 0 && this.keyed.length === 0) return this.generic;
    if (value === this.lastValue) return this.lastList;
    let list = this.cache.get(value);
    if (list === undefined) {
      list = this.compute(value);
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      this.cache.set(value, list);
    }
    this.lastValue = value;
    this.lastList = list;
    return list;
  }

  private compute(value: string): RegisteredHook[] {
    const exact = this.exact.get(value);
    const keyed = this.keyed.filter((h) => h.matchers.get(this.event)!.keyTest!(value));
    if (!exact && keyed.length === 0) return this.generic;
    return [...(exact ?? []), ...keyed, ...this.generic].sort(byRunOrder);
  }

  /** Every hook of the event, in run order. */
  all(): RegisteredHook[] {
    const seen = new Set<RegisteredHook>([...this.keyed, ...this.generic]);
    for (const list of this.exact.values()) for (const h of list) seen.add(h);
    return [...seen].sort(byRunOrder);
  }
}

/** FileChanged matchers see the file's base name (`.env`, not `/p/.env`). */
export const baseName = (file: string): string => file.slice(file.lastIndexOf('/') + 1);

export function filterValueOf(input: HookInput, field: string | undefined): string {
  if (!field) return '';
  if (field === 'step_name') return stepNameOf(input);
  const value = input[field];
  if (field === 'file_path' && typeof value === 'string') return baseName(value);
  return typeof value === 'string' ? value : '';
}
