import { picomatch } from './lazy-deps.js';
import { CANONICAL_NAMES, eventInfo, type EventNames } from './events.js';
import { stepNameOf, type HookInput } from './input.js';
import { lazyGlob, toolPathGlob } from './path-glob.js';
import { parsePermissionRule } from './permission-rule.js';
import { compileRegex, MatcherError, parseDelimitedRegex, type SafeRegex } from './regex.js';
import { HookwiseError } from './errors.js';

/** Fields of a structured matcher; all given fields must match. */
export interface StructuredMatcher {
  /** Exact tool name, or any of a list. */
  tool?: string | string[];
  /** Anchored glob on the tool name (`read_*`). */
  toolGlob?: string;
  /** Unanchored regex on the tool name. */
  toolRegex?: string;
  /** Glob on the file the tool touches; without `/` it matches the basename at any depth. */
  path?: string;
  /** Regex on a shell tool's `tool_input.command`. */
  command?: string;
  session?: string;
  step?: string;
  agentType?: string;
  /** Each key equal to the value in `input.metadata`; the value `'*'` means present. */
  metadata?: Record<string, unknown>;
  /** Regex on `"Event:Step:Tool"` (canonical event, empty parts kept). */
  target?: string;
  /** A permission rule, e.g. `Bash(git *)` (docs/model.md, "Matchers"). */
  if?: string;
}

export type MatcherFunction = (input: HookInput) => boolean;
export interface AllOf {
  all: Matcher[];
}
export interface AnyOf {
  any: Matcher[];
}
export interface NotOf {
  not: Matcher;
}
export type Matcher = string | StructuredMatcher | AllOf | AnyOf | NotOf | MatcherFunction;

export const all = (matchers: Matcher[]): AllOf => ({ all: matchers });
export const any = (matchers: Matcher[]): AnyOf => ({ any: matchers });
export const not = (matcher: Matcher): NotOf => ({ not: matcher });

/** A matcher compiled for one event. */
export interface CompiledMatcher {
  test(input: HookInput): boolean;
  /** When set, the matcher accepts exactly these filter values: the engine indexes by them. */
  exactValues?: string[];
  /**
   * When set, the matcher is a function of the filter value alone (a regex on the
   * tool name): the engine tests it once per distinct value and caches the answer.
   */
  keyTest?: (value: string) => boolean;
  /** The test adds nothing once the index has picked the hook (match-all, exact names, or a keyTest). */
  trivial?: boolean;
  /** Work to await before the first test (a parser to load). */
  ready?: Array<() => Promise<void>>;
}

const MATCH_ALL: CompiledMatcher = { test: () => true, trivial: true };
const EXACT_NAMES = /^[A-Za-z0-9_\- ,|]*$/;

function filterValue(input: HookInput, field: string): string {
  const value = field === 'step_name' ? stepNameOf(input) : input[field];
  if (field === 'file_path' && typeof value === 'string') return value.slice(value.lastIndexOf('/') + 1);
  return typeof value === 'string' ? value : '';
}

/** The string matcher rules (docs/model.md, "Matchers"), applied to the event's filter field. */
function compileString(pattern: string, event: string): CompiledMatcher {
  const field = eventInfo(event).filterField;
  const trimmed = pattern.trim();
  if (trimmed === '' || trimmed === '*') return MATCH_ALL;
  const delimited = parseDelimitedRegex(trimmed);
  if (!delimited && EXACT_NAMES.test(trimmed)) {
    const names = trimmed
      .split(/[|,]/)
      .map((s) => s.trim())
      .filter(Boolean);
    if (!field || names.length === 0) return MATCH_ALL;
    const set = new Set(names);
    return { test: (input) => set.has(filterValue(input, field)), exactValues: names, trivial: true };
  }
  // Compiled even where the event ignores it: an invalid regex is an error, never a silent match-all.
  const re = delimited ? compileRegex(delimited.body, delimited.flags) : compileRegex(trimmed);
  if (!field) return MATCH_ALL;
  return { test: (input) => re.test(filterValue(input, field)), keyTest: (value) => re.test(value), trivial: true };
}

function regexFrom(text: string): SafeRegex {
  const delimited = parseDelimitedRegex(text);
  return delimited ? compileRegex(delimited.body, delimited.flags) : compileRegex(text);
}

const STRUCTURED_KEYS = new Set([
  'tool',
  'toolGlob',
  'toolRegex',
  'path',
  'command',
  'session',
  'step',
  'agentType',
  'metadata',
  'target',
  'if',
]);

function compileStructured(m: StructuredMatcher, event: string, eventNames: EventNames): CompiledMatcher {
  for (const key of Object.keys(m)) {
    if (!STRUCTURED_KEYS.has(key)) {
      throw new MatcherError(`unknown matcher field "${key}"; known fields: ${[...STRUCTURED_KEYS].join(', ')}`);
    }
  }
  const tests: Array<(input: HookInput) => boolean> = [];
  const ready: Array<() => Promise<void>> = [];
  let exactValues: string[] | undefined;
  if (m.tool !== undefined) {
    const names = Array.isArray(m.tool) ? m.tool : [m.tool];
    if (names.some((n) => typeof n !== 'string')) throw new MatcherError('matcher field "tool" must be a string or an array of strings');
    const set = new Set(names);
    tests.push((input) => set.has(input.tool_name as string));
    if (eventInfo(event).filterField === 'tool_name') exactValues = names;
  }
  if (m.toolGlob !== undefined) {
    const toolGlob = m.toolGlob;
    const isMatch = lazyGlob(toolGlob, () => picomatch()(toolGlob));
    tests.push((input) => typeof input.tool_name === 'string' && isMatch(input.tool_name));
  }
  if (m.toolRegex !== undefined) {
    const re = regexFrom(m.toolRegex);
    tests.push((input) => typeof input.tool_name === 'string' && re.test(input.tool_name));
  }
  if (m.path !== undefined) tests.push(toolPathGlob(m.path));
  if (m.command !== undefined) {
    const re = regexFrom(m.command);
    tests.push((input) => {
      const command = input.tool_input?.command;
      return typeof command === 'string' && re.test(command);
    });
  }
  if (m.session !== undefined) tests.push((input) => input.session_id === m.session);
  if (m.step !== undefined) tests.push((input) => stepNameOf(input) === m.step);
  if (m.agentType !== undefined) tests.push((input) => input.agent_type === m.agentType);
  if (m.metadata !== undefined) {
    const entries = Object.entries(m.metadata);
    tests.push((input) => {
      const meta = input.metadata;
      if (!meta || typeof meta !== 'object') return false;
      return entries.every(([k, v]) => (v === '*' ? k in meta : meta[k] === v));
    });
  }
  if (m.target !== undefined) {
    const re = regexFrom(m.target);
    // A target may name the event by any name the engine knows it by (its aliases, docs/model.md "Matchers").
    const names = eventNames.namesOf(event);
    tests.push((input) => {
      const rest = `:${stepNameOf(input)}:${typeof input.tool_name === 'string' ? input.tool_name : ''}`;
      for (const name of names) if (re.test(name + rest)) return true;
      return false;
    });
  }
  if (m.if !== undefined) {
    const rule = parsePermissionRule(m.if);
    tests.push(rule.test);
    if (rule.ready) ready.push(rule.ready);
  }
  const compiled: CompiledMatcher = {
    test: tests.length === 1 ? tests[0]! : (input) => tests.every((t) => t(input)),
  };
  if (tests.length === 0) return MATCH_ALL;
  if (exactValues) {
    compiled.exactValues = exactValues;
    if (tests.length === 1) compiled.trivial = true;
  }
  if (ready.length) compiled.ready = ready;
  return compiled;
}

/** Thrown when a function matcher answers anything but true or false: the hook fails (its `onError` applies). */
export class MatcherResultError extends HookwiseError {
  override readonly code = 'MATCHER_RESULT';
}

function strictly(matcher: MatcherFunction): (input: HookInput) => boolean {
  return (input) => {
    const answer: unknown = matcher(input);
    if (answer === true || answer === false) return answer;
    const what =
      answer !== null && typeof answer === 'object' && typeof (answer as { then?: unknown }).then === 'function'
        ? 'a Promise'
        : (JSON.stringify(answer) ?? typeof answer);
    throw new MatcherResultError(`matcher returned ${what}; a matcher must return true or false synchronously`);
  };
}

function combine(parts: CompiledMatcher[], test: CompiledMatcher['test']): CompiledMatcher {
  const ready = parts.flatMap((p) => p.ready ?? []);
  return ready.length ? { test, ready } : { test };
}

/**
 * Compile a matcher for one (canonical) event. Throws MatcherError for anything
 * invalid: a bad regex, an unknown field, a value of the wrong type. `eventNames`:
 * the names the engine knows events by, which a `target` may use.
 */
export function compileMatcher(
  matcher: Matcher | undefined | null,
  event: string,
  eventNames: EventNames = CANONICAL_NAMES,
): CompiledMatcher {
  if (matcher === undefined || matcher === null) return MATCH_ALL;
  if (typeof matcher === 'string') return compileString(matcher, event);
  if (typeof matcher === 'function') return { test: strictly(matcher) };
  if (typeof matcher !== 'object') throw new MatcherError(`matcher must be a string, an object or a function, got ${typeof matcher}`);
  if ('all' in matcher && Array.isArray(matcher.all)) {
    const parts = matcher.all.map((m) => compileMatcher(m, event, eventNames));
    return combine(parts, (input) => parts.every((p) => p.test(input)));
  }
  if ('any' in matcher && Array.isArray(matcher.any)) {
    const parts = matcher.any.map((m) => compileMatcher(m, event, eventNames));
    return combine(parts, (input) => parts.some((p) => p.test(input)));
  }
  if ('not' in matcher) {
    const inner = compileMatcher((matcher as NotOf).not, event, eventNames);
    return combine([inner], (input) => !inner.test(input));
  }
  return compileStructured(matcher as StructuredMatcher, event, eventNames);
}
