/**
 * Canonical JSON: object keys sorted by code unit, no whitespace, the rest as
 * JSON.stringify writes it. Two equal values always give the same text, so the
 * hash chain does not depend on the order a caller built an object in.
 *
 * Like JSON.stringify: `toJSON` is honoured, `undefined` and functions are left
 * out of objects and become `null` in arrays, non-finite numbers become `null`.
 * Unlike it: a cycle or a BigInt is an error that names the path to the value.
 */
export function canonicalJson(value: unknown): string {
  // Parts joined once: a string grown with += is a rope that costs a lot to keep in a buffer.
  const out: string[] = [];
  try {
    if (!write(value, '', out, [])) return 'null';
  } catch (error) {
    if (error instanceof CanonicalJsonError) throw new TypeError(`canonical JSON: ${pathTo(value, error.culprit)} ${error.why}`);
    throw error;
  }
  return out.join('');
}

/** Thrown deep inside `write`; the path is worked out only then, keeping the hot path lean. */
class CanonicalJsonError extends Error {
  constructor(
    readonly culprit: unknown,
    readonly why: string,
  ) {
    super(why);
  }
}

/** Object keys repeat from record to record (an Outcome's fields): quote each once. */
const quotedKeys = new Map<string, string>();
const QUOTED_KEYS_MAX = 4096;
function quoteKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = JSON.stringify(key);
    if (quotedKeys.size < QUOTED_KEYS_MAX) quotedKeys.set(key, quoted);
  }
  return quoted;
}

/** Most strings need no escaping; JSON.stringify handles the rest (quotes, controls, lone surrogates). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
function quoteString(value: string): string {
  return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
}

/** Pushes the value's text; false (nothing pushed) for what JSON leaves out: undefined, functions, symbols. */
function write(value: unknown, key: string | number, out: string[], stack: object[]): boolean {
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: (key: string) => unknown }).toJSON(String(key));
  }
  switch (typeof value) {
    case 'string':
      out.push(quoteString(value));
      return true;
    case 'number':
      out.push(Number.isFinite(value) ? String(value) : 'null');
      return true;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return true;
    case 'bigint':
      throw new CanonicalJsonError(value, 'is a BigInt, which JSON cannot hold; convert it to a string or number');
    case 'undefined':
    case 'function':
    case 'symbol':
      return false;
  }
  if (value === null) {
    out.push('null');
    return true;
  }
  const object = value as object;
  if (stack.includes(object)) throw new CanonicalJsonError(object, 'refers back to one of its parents (a cycle)');
  stack.push(object);
  if (Array.isArray(object)) {
    out.push('[');
    for (let i = 0; i < object.length; i++) {
      if (i > 0) out.push(',');
      if (!write(object[i], i, out, stack)) out.push('null');
    }
    out.push(']');
  } else {
    const keys = sortedKeys(Object.keys(object));
    let first = true;
    out.push('{');
    for (const k of keys) {
      const mark = out.length;
      out.push(first ? `${quoteKey(k)}:` : `,${quoteKey(k)}:`);
      if (write((object as Record<string, unknown>)[k], k, out, stack)) first = false;
      else out.length = mark;
    }
    out.push('}');
  }
  stack.pop();
  return true;
}

function isSorted(keys: string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]! > keys[i]!) return false;
  return true;
}

/**
 * Sorting an Outcome's keys costs more than the rest of its serialising, and the
 * same key lists come back record after record: remember each list's sorted form,
 * found by its first key and compared entry by entry. Bounded, so odd data cannot
 * grow it without limit.
 */
const sortedByFirstKey = new Map<string, Array<{ from: string[]; sorted: string[] }>>();
const FIRST_KEYS_MAX = 4096;
const LISTS_PER_FIRST_KEY = 8;
function sortedKeys(keys: string[]): string[] {
  if (keys.length < 2 || isSorted(keys)) return keys;
  const first = keys[0]!;
  const known = sortedByFirstKey.get(first);
  if (known) {
    next: for (const entry of known) {
      if (entry.from.length !== keys.length) continue;
      for (let i = 1; i < keys.length; i++) if (entry.from[i] !== keys[i]) continue next;
      return entry.sorted;
    }
  }
  const sorted = [...keys].sort();
  if (known) {
    if (known.length < LISTS_PER_FIRST_KEY) known.push({ from: keys, sorted });
  } else if (sortedByFirstKey.size < FIRST_KEYS_MAX) sortedByFirstKey.set(first, [{ from: keys, sorted }]);
  return sorted;
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
