import { DEFAULT_SECRET_PATTERNS, entropy, type SecretPattern } from './patterns.js';

export interface SecretHit {
  id: string;
  label: string;
  /** A hint safe to show: first 4 and last 2 characters. */
  hint: string;
}

export interface SecretScanner {
  /** Secrets found in a string. */
  find(text: string): SecretHit[];
  /** The string with each secret replaced by [REDACTED:<id>]. */
  redact(text: string): string;
}

function hintOf(secret: string): string {
  return secret.length <= 10 ? '…' : `${secret.slice(0, 4)}…${secret.slice(-2)}`;
}

export function createScanner(extra: SecretPattern[] = [], ignore: Array<string | RegExp> = []): SecretScanner {
  const patterns = [...DEFAULT_SECRET_PATTERNS, ...extra].map((p) => ({
    ...p,
    regex: new RegExp(p.regex.source, p.regex.flags.includes('g') ? p.regex.flags : `${p.regex.flags}g`),
  }));
  const ignored = (s: string) => ignore.some((i) => (typeof i === 'string' ? i === s : i.test(s)));
  // Cheap pre-filter: most strings have none of the markers any pattern needs.
  const quick =
    /sk-|AKIA|ASIA|ABIA|ACCA|AIDA|AROA|gh[pousr]_|github_pat_|glpat-|xox|hooks\.slack|_live_|AIza|npm_|hf_|eyJ|PRIVATE KEY|key|secret|token|pass|pwd|auth|credential/i;
  const visit = (text: string, onHit: (p: SecretPattern, secret: string, start: number, end: number) => void) => {
    if (extra.length === 0 && !quick.test(text)) return;
    for (const p of patterns) {
      p.regex.lastIndex = 0;
      for (const m of text.matchAll(p.regex)) {
        const secret = p.group !== undefined ? m[p.group] : m[0];
        if (!secret || ignored(secret)) continue;
        if (p.minEntropy !== undefined && entropy(secret) < p.minEntropy) continue;
        if (p.unless?.test(secret)) continue;
        const start = m.index! + (p.group !== undefined ? m[0].lastIndexOf(secret) : 0);
        onHit(p, secret, start, start + secret.length);
      }
    }
  };
  return {
    find(text) {
      // One secret matched by two formats (a key inside `api_key = ...`) counts once, as the more specific.
      const hits: SecretHit[] = [];
      const spans: Array<[number, number]> = [];
      visit(text, (p, secret, start, end) => {
        if (spans.some(([s, e]) => start < e && end > s)) return;
        spans.push([start, end]);
        hits.push({ id: p.id, label: p.label, hint: hintOf(secret) });
      });
      return hits;
    },
    redact(text) {
      const spans: Array<[number, number, string]> = [];
      visit(text, (p, _secret, start, end) => {
        if (!spans.some(([s, e]) => start < e && end > s)) spans.push([start, end, p.id]);
      });
      if (spans.length === 0) return text;
      spans.sort((a, b) => a[0] - b[0]);
      let out = '';
      let at = 0;
      for (const [s, e, id] of spans) {
        out += `${text.slice(at, s)}[REDACTED:${id}]`;
        at = e;
      }
      return out + text.slice(at);
    },
  };
}

/**
 * Apply fn to every string inside a JSON-like value, object keys included;
 * returns a new value when anything changed. Recursive: a value nested deeper
 * than the stack allows throws, and a guard that throws fails closed.
 */
export function mapStrings(value: unknown, fn: (s: string) => string): unknown {
  if (typeof value === 'string') return fn(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const n = mapStrings(v, fn);
      if (n !== v) changed = true;
      return n;
    });
    return changed ? out : value;
  }
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const key = fn(k);
    const n = mapStrings(v, fn);
    if (n !== v || key !== k) changed = true;
    out[key] = n;
  }
  return changed ? out : value;
}

/**
 * Every string inside a JSON-like value, object keys included, at any depth
 * (iterative, so nesting cannot hide a secret or overflow the stack; shared
 * objects are visited once).
 */
export function stringsOf(value: unknown, out: string[] = []): string[] {
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') out.push(v);
    else if (v !== null && typeof v === 'object' && !seen.has(v)) {
      seen.add(v);
      if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
      else {
        const entries = Object.entries(v);
        for (let i = entries.length - 1; i >= 0; i--) {
          stack.push(entries[i]![1]);
          out.push(entries[i]![0]);
        }
      }
    }
  }
  return out;
}
