import { canonicalEvent, eventInfo, type EventInfo } from './events.js';
import { stepNameOf, type HookInput } from './input.js';
import { compileMatcher, type CompiledMatcher } from './matchers.js';
import { MatcherError } from './regex.js';
import { DEFAULT_TIMEOUT_MS, type HookSpec, type OnError } from './spec.js';

/** A hook as the engine keeps it: validated, matcher compiled per event. */
export interface RegisteredHook {
  spec: HookSpec;
  name: string;
  events: string[];
  priority: number;
  seq: number;
  timeoutMs: number;
  async: boolean;
  maxRetries: number;
  once: boolean;
  onError: Map<string, OnError>;
  matchers: Map<string, CompiledMatcher>;
  /** The matcher when the hook has one event (the common case): saves a map lookup per fire. */
  onlyMatcher: CompiledMatcher | undefined;
}

export class HookSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HookSpecError';
  }
}

function fail(spec: Partial<HookSpec>, message: string): never {
  const where = typeof spec.name === 'string' && spec.name ? `hook "${spec.name}"` : 'hook';
  const from = spec.source ? ` (${spec.source})` : '';
  throw new HookSpecError(`${where}${from}: ${message}`);
}

/** Validate a spec and compile its matchers; throws HookSpecError naming the hook and field. */
export function prepareHook(spec: HookSpec, seq: number): RegisteredHook {
  if (!spec || typeof spec !== 'object') throw new HookSpecError('hook spec must be an object');
  if (typeof spec.name !== 'string' || spec.name === '') fail(spec, 'name: expected a non-empty string');
  const rawEvents = typeof spec.events === 'string' ? [spec.events] : spec.events;
  if (!Array.isArray(rawEvents) || rawEvents.length === 0 || rawEvents.some((e) => typeof e !== 'string' || e === '')) {
    fail(spec, 'events: expected an event name or a non-empty array of event names');
  }
  if (typeof spec.handler !== 'function') fail(spec, 'handler: expected a function');
  const priority = spec.priority ?? 0;
  if (typeof priority !== 'number' || !Number.isFinite(priority)) fail(spec, 'priority: expected a finite number');
  const timeoutMs = spec.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0)) fail(spec, 'timeoutMs: expected a positive number of milliseconds');
  const maxRetries = spec.maxRetries ?? 0;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) fail(spec, 'maxRetries: expected a whole number >= 0');
  if (spec.onError !== undefined && spec.onError !== 'block' && spec.onError !== 'continue') {
    fail(spec, `onError: expected "block" or "continue", got ${JSON.stringify(spec.onError)}`);
  }
  const events = [...new Set(rawEvents.map(canonicalEvent))];
  const matchers = new Map<string, CompiledMatcher>();
  const onError = new Map<string, OnError>();
  for (const event of events) {
    try {
      matchers.set(event, compileMatcher(spec.matcher, event));
    } catch (error) {
      if (error instanceof MatcherError) fail(spec, `matcher: ${error.message}`);
      throw error;
    }
    onError.set(event, spec.onError ?? (eventInfo(event).blockable ? 'block' : 'continue'));
  }
  return {
    spec,
    name: spec.name,
    events,
    priority,
    seq,
    timeoutMs,
    async: spec.async === true,
    maxRetries,
    once: spec.once === true,
    onError,
    matchers,
    onlyMatcher: events.length === 1 ? matchers.get(events[0]!) : undefined,
  };
}

const byRunOrder = (a: RegisteredHook, b: RegisteredHook) => b.priority - a.priority || a.seq - b.seq;
const CACHE_LIMIT = 512;

/**
 * The hooks of one event, indexed so a fire only looks at hooks that can match:
 * hooks whose matcher names exact filter values (tool names) sit in a map, the
 * rest in one list; the merged, ordered candidate list per value is cached.
 */
export class EventIndex {
  private readonly exact = new Map<string, RegisteredHook[]>();
  private generic: RegisteredHook[] = [];
  private readonly cache = new Map<string, RegisteredHook[]>();
  private count = 0;

  readonly info: EventInfo;

  constructor(readonly event: string) {
    this.info = eventInfo(event);
  }

  get size(): number {
    return this.count;
  }

  add(hook: RegisteredHook): void {
    const values = hook.matchers.get(this.event)?.exactValues;
    if (values) {
      for (const value of values) {
        const list = this.exact.get(value) ?? [];
        list.push(hook);
        list.sort(byRunOrder);
        this.exact.set(value, list);
      }
    } else {
      this.generic.push(hook);
      this.generic.sort(byRunOrder);
    }
    this.count++;
    this.cache.clear();
  }

  remove(hook: RegisteredHook): void {
    for (const [value, list] of this.exact) {
      const kept = list.filter((h) => h !== hook);
      if (kept.length) this.exact.set(value, kept);
      else this.exact.delete(value);
    }
    this.generic = this.generic.filter((h) => h !== hook);
    this.count--;
    this.cache.clear();
  }

  /** Hooks that may match an input whose filter field holds `value`, in run order. */
  candidates(value: string): RegisteredHook[] {
    if (this.exact.size === 0) return this.generic;
    let list = this.cache.get(value);
    if (list === undefined) {
      const exact = this.exact.get(value);
      list = exact ? [...exact, ...this.generic].sort(byRunOrder) : this.generic;
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      this.cache.set(value, list);
    }
    return list;
  }

  /** Every hook of the event, in run order. */
  all(): RegisteredHook[] {
    const seen = new Set<RegisteredHook>(this.generic);
    for (const list of this.exact.values()) for (const h of list) seen.add(h);
    return [...seen].sort(byRunOrder);
  }
}

/** FileChanged matchers see the file's name, as Claude Code's do (`.env`, not `/p/.env`). */
export const baseName = (file: string): string => file.slice(file.lastIndexOf('/') + 1);

export function filterValueOf(input: HookInput, field: string | undefined): string {
  if (!field) return '';
  if (field === 'step_name') return stepNameOf(input);
  const value = input[field];
  if (field === 'file_path' && typeof value === 'string') return baseName(value);
  return typeof value === 'string' ? value : '';
}
