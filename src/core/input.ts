import { HookwiseError } from './errors.js';
/**
 * The input a hook receives: hookwise's wire format (docs/model.md, "Types"), snake_case field names.
 * Only the fields hookwise reads are typed; anything else passes through.
 */
export interface HookInput {
  hook_event_name?: string;
  session_id?: string;
  cwd?: string;
  timestamp?: string;
  transcript_path?: string;
  agent_id?: string;
  agent_type?: string;
  step?: { index?: number; name?: string };
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  tool_use_id?: string;
  tool_response?: unknown;
  error?: unknown;
  prompt?: string;
  source?: string;
  trigger?: string;
  notification_type?: string;
  metadata?: Record<string, unknown>;
  [field: string]: unknown;
}

/** The file a tool call is about: `file_path`, else `path`, else `notebook_path`. */
export function filePathOf(input: HookInput): string | undefined {
  const args = input.tool_input;
  if (!args || typeof args !== 'object') return undefined;
  for (const key of ['file_path', 'path', 'notebook_path']) {
    const value = args[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/** The step's name, whichever way the host wrote it. */
export function stepNameOf(input: HookInput): string {
  if (typeof input.step_name === 'string') return input.step_name;
  return typeof input.step?.name === 'string' ? input.step.name : '';
}

/** Deeper than this, or cyclic: refused rather than walked forever. */
const MAX_DEPTH = 512;

/** Thrown when a fire's input cannot be sealed: cyclic or absurdly deep. */
export class InputError extends HookwiseError {
  override readonly code = 'INPUT';
}

function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A deep-frozen copy of JSON-like data: plain objects and arrays are copied and
 * frozen, anything else (primitives, class instances, typed arrays) is kept as is.
 * Always a copy, even of frozen data: a shallow-frozen object may hold mutable ones.
 */
export function sealValue<T>(value: T, depth = 0): T {
  return copyData(value, true, depth);
}

/** A deep copy the host may change: what the Outcome hands over (never the engine's sealed data). */
export function thawValue<T>(value: T): T {
  return copyData(value, false, 0);
}

const hasOwn = Object.prototype.hasOwnProperty;

// Copies are built key by key into a literal, never with spread: V8 freezes a spread
// clone about 20x slower than an object built this way.
function copyData<T>(value: T, freeze: boolean, depth: number): T {
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_DEPTH) throw new InputError(`input is nested deeper than ${MAX_DEPTH} levels (or is cyclic)`);
  let copy: unknown[] | Record<string, unknown>;
  if (Array.isArray(value)) {
    copy = new Array(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = copyData(value[i], freeze, depth + 1);
  } else {
    if (!isPlain(value)) return value;
    copy = copyFields(value as Record<string, unknown>, freeze, depth);
  }
  return (freeze ? Object.freeze(copy) : copy) as T;
}

function copyFields(value: Record<string, unknown>, freeze: boolean, depth: number): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  let site = -1;
  for (const key in value) {
    if (!hasOwn.call(value, key)) continue;
    const field = value[key];
    setOwnAt(copy, site--, key, typeof field === 'object' && field !== null ? copyData(field, freeze, depth + 1) : field);
  }
  return copy;
}

/**
 * `copy[key] = value`, except for a `__proto__` key (JSON.parse makes it an own field of
 * model-written tool input): assigned, it would set the copy's prototype, and hooks
 * would read fields the input does not have.
 */
function setOwn(copy: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  else copy[key] = value;
}

/**
 * setOwn through the store site for a field's position. V8 keeps an inline cache per
 * site, and a keyed store site that has seen two key names goes megamorphic: a generic
 * lookup per store (measured: one site for all fields made a fire of three sync hooks
 * about 20% slower). Hosts send the same fields in the same order fire after fire, so
 * the site of each position keeps seeing one name. Sites 0 to 7 take an input's first
 * fields, -1 to -4 a nested object's; the fields after those share the default site.
 */
function setOwnAt(copy: Record<string, unknown>, site: number, key: string, value: unknown): void {
  if (key === '__proto__') {
    setOwn(copy, key, value);
    return;
  }
  // biome-ignore format: one store site per line
  switch (site) {
    case 0: copy[key] = value; return;
    case 1: copy[key] = value; return;
    case 2: copy[key] = value; return;
    case 3: copy[key] = value; return;
    case 4: copy[key] = value; return;
    case 5: copy[key] = value; return;
    case 6: copy[key] = value; return;
    case 7: copy[key] = value; return;
    case -1: copy[key] = value; return;
    case -2: copy[key] = value; return;
    case -3: copy[key] = value; return;
    case -4: copy[key] = value; return;
    default: copy[key] = value;
  }
}

/**
 * The input handlers and matchers see: a deep-frozen copy of the host's input with
 * the canonical `hook_event_name`, the fire's `session_id` and (when known) its
 * `cwd`. What the host sent wins for session_id and cwd; the host's object is never
 * changed or frozen.
 */
export function sealInput(input: HookInput, event: string, sessionId: string, cwd: string | undefined): HookInput {
  // copyFields inlined: the input's own fields take store sites of their own (setOwnAt).
  const copy: HookInput = {};
  let site = 0;
  for (const key in input) {
    if (!hasOwn.call(input, key)) continue;
    const field = input[key];
    setOwnAt(copy, site++, key, typeof field === 'object' && field !== null ? copyData(field, true, 1) : field);
  }
  if (copy.hook_event_name !== event) copy.hook_event_name = event;
  if (copy.session_id === undefined) copy.session_id = sessionId;
  if (copy.cwd === undefined && cwd !== undefined) copy.cwd = cwd;
  return Object.freeze(copy);
}

/** A sealed input with some fields replaced (a rewrite); `fields` must be sealed already. */
export function sealWith(input: HookInput, fields: Record<string, unknown>): HookInput {
  const copy: HookInput = {};
  for (const key in input) if (hasOwn.call(input, key)) setOwn(copy, key, input[key]);
  for (const key in fields) if (hasOwn.call(fields, key)) setOwn(copy, key, fields[key]);
  return Object.freeze(copy);
}
