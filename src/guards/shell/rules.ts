import { GuardOptionError } from '../errors.js';
/**
 * User rules for the shell guard: data, not code. A rule is a pattern matched
 * against each simple command, written as its words joined by one space, with
 * wrappers removed and the program's folder dropped (`/usr/bin/git push` is
 * `git push`). `*` matches any run of characters, and a trailing ` *` also
 * matches nothing (`git push *` matches `git push`).
 */
export type ShellRule = string | { pattern: string; reason?: string };

export interface CompiledRule {
  pattern: string;
  reason?: string;
  test(command: string): boolean;
}

export function compileRules(rules: ShellRule[] | undefined, field: string): CompiledRule[] {
  if (rules === undefined) return [];
  if (!Array.isArray(rules)) throw new GuardOptionError(`shellGuard: ${field} must be an array of patterns, got ${typeof rules}`);
  return rules.map((rule, i) => {
    const pattern = typeof rule === 'string' ? rule : rule?.pattern;
    if (typeof pattern !== 'string' || pattern.trim() === '') {
      throw new GuardOptionError(`shellGuard: ${field}[${i}] must be a non-empty string or { pattern, reason }`);
    }
    const normalised = pattern.trim().replace(/\s+/g, ' ');
    const compiled: CompiledRule = {
      pattern: normalised,
      test: (command) => wildcard(normalised, command) || (normalised.endsWith(' *') && wildcard(normalised.slice(0, -2), command)),
    };
    if (typeof rule === 'object' && rule.reason) compiled.reason = rule.reason;
    return compiled;
  });
}

/** `*` matches any run of characters; linear-time greedy matching with one backtrack point. */
export function wildcard(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      mark = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++mark;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}
