import { HookwiseError } from '../core/errors.js';
/**
 * Canonical JSON: object keys sorted by code unit, no whitespace, the rest as
 * JSON.stringify writes it. Two equal values always give the same text, so the
 * hash chain does not depend on the order a caller built an object in.
 *
 * Like JSON.stringify: `toJSON` is honoured, `undefined` and functions are left
 * out of objects and become `null` in arrays, non-finite numbers become `null`.
 * Unlike it: a cycle or a BigInt is an error that names the path to the value.
 *
 * It runs on the caller's thread for every audit record, so it is written for
 * speed (bench/audit.mjs): the text is built with `+` and flattened once at the
 * end (faster than collecting parts in an array and joining them), and each
 * object's key list is laid out once (sorted, quoted) and reused by every later
 * object with the same keys.
 */
export function canonicalJson(value: unknown): string {
  let text: string | undefined;
  try {
    text = write(value, '', []);
  } catch (error) {
    if (error instanceof CanonicalJsonError)
      throw new CanonicalJsonError(error.culprit, `canonical JSON: ${pathTo(value, error.culprit)} ${error.why}`);
    throw error;
  }
  return text === undefined ? 'null' : flatten(text);
}

/**
 * The text comes out of `write` as a rope (a tree of pieces). Reading one character
 * makes V8 copy the pieces into one flat string, once. Left as a rope, it is walked
 * twice (when the row's hash reads it inside a larger rope, and again when SQLite
 * binds it), which measured 20-30% of the whole append + flush (bench/audit.mjs).
 */
function flatten(text: string): string {
  // plain Error: unreachable; the test is there only to make V8 read a character, which flattens the rope
  if (text.charCodeAt(0) < 0) throw new Error('unreachable: a character code is never negative');
  return text;
}

/** A string as JSON.stringify quotes it, without calling it for the common string that needs no escaping. */
export function quoteJsonString(value: string): string {
  return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
}

/** Quotes, controls, backslashes and surrogates (lone ones are escaped) need JSON.stringify; the rest is copied as is. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Thrown deep inside `write`; the path is worked out only then, keeping the hot path lean. */
class CanonicalJsonError extends HookwiseError {
  override readonly code = 'CANONICAL_JSON';
  constructor(
    readonly culprit: unknown,
    readonly why: string,
  ) {
    super(why);
  }
}

/** The value's text, or undefined for what JSON leaves out: undefined, functions, symbols. */
function write(value: unknown, key: string | number, stack: object[]): string | undefined {
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: (key: string) => unknown }).toJSON(String(key));
  }
  switch (typeof value) {
    case 'string':
      return quoteJsonString(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new CanonicalJsonError(value, 'is a BigInt, which JSON cannot hold; convert it to a string or number');
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (value === null) return 'null';
  const object = value as object;
  if (stack.includes(object)) throw new CanonicalJsonError(object, 'refers back to one of its parents (a cycle)');
  stack.push(object);
  const text = Array.isArray(object) ? writeArray(object, stack) : writeObject(object as Record<string, unknown>, stack);
  stack.pop();
  return text;
}

function writeArray(array: unknown[], stack: object[]): string {
  const length = array.length;
  if (length === 0) return '[]';
  let text = `[${write(array[0], 0, stack) ?? 'null'}`;
  for (let i = 1; i < length; i++) text += `,${write(array[i], i, stack) ?? 'null'}`;
  return `${text}]`;
}

function writeObject(object: Record<string, unknown>, stack: object[]): string {
  const own = Object.keys(object);
  if (own.length === 0) return '{}';
  const { keys, opening, separated } = layoutOf(own);
  let text = '';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const member = write(object[key], key, stack);
    if (member === undefined) continue;
    text = text === '' ? opening[i]! + member : text + separated[i]! + member;
  }
  return text === '' ? '{}' : `${text}}`;
}

/** How an object with a given key list is written: its keys sorted, each with `{"key":` and `,"key":` ready. */
interface Layout {
  /** The key list as Object.keys gave it. */
  from: string[];
  keys: string[];
  opening: string[];
  separated: string[];
}

/**
 * Sorting and quoting an Outcome's keys cost more than the rest of its writing,
 * and the same key lists come back record after record: remember each list's
 * layout, found by its first key and compared entry by entry. Bounded (lists,
 * their length and their keys' length), so odd data cannot grow it without limit.
 */
const layoutsByFirstKey = new Map<string, Layout[]>();
const FIRST_KEYS_MAX = 1024;
const LAYOUTS_PER_FIRST_KEY = 8;
const LAYOUT_KEYS_MAX = 64;
const LAYOUT_KEY_LENGTH_MAX = 128;

function layoutOf(own: string[]): Layout {
  const first = own[0]!;
  const known = layoutsByFirstKey.get(first);
  if (known !== undefined) {
    next: for (const layout of known) {
      const from = layout.from;
      if (from.length !== own.length) continue;
      for (let i = 1; i < own.length; i++) if (from[i] !== own[i]) continue next;
      return layout;
    }
  }
  const layout = makeLayout(own);
  if (own.length <= LAYOUT_KEYS_MAX && own.every((k) => k.length <= LAYOUT_KEY_LENGTH_MAX)) {
    if (known !== undefined) {
      if (known.length < LAYOUTS_PER_FIRST_KEY) known.push(layout);
    } else if (layoutsByFirstKey.size < FIRST_KEYS_MAX) layoutsByFirstKey.set(first, [layout]);
  }
  return layout;
}

function makeLayout(from: string[]): Layout {
  const keys = isSorted(from) ? from : [...from].sort();
  const quoted = keys.map(quoteJsonString);
  return { from, keys, opening: quoted.map((q) => `{${q}:`), separated: quoted.map((q) => `,${q}:`) };
}

function isSorted(keys: string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]! > keys[i]!) return false;
  return true;
}

/** `$.a.b[2]`: where `culprit` sits inside `root` (a breadth-first search, run only on error). */
function pathTo(root: unknown, culprit: unknown): string {
  const queue: Array<[unknown, string]> = [[root, '$']];
  const seen = new Set<unknown>();
  while (queue.length > 0) {
    const [value, path] = queue.shift()!;
    // A cycle's object is met first where it sits, then where it is referred back to: report the latter.
    if (value === culprit && (typeof culprit !== 'object' || seen.has(value))) return path;
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    for (const [k, v] of Object.entries(value)) queue.push([v, Array.isArray(value) ? `${path}[${k}]` : `${path}.${k}`]);
  }
  return '$';
}
