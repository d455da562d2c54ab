import { InvalidResultError, type Verdict } from './verdict.js';

export { InvalidResultError, type Decision, type ResultKind, type Verdict } from './verdict.js';

/**
 * What a handler can return, the helpers that build it, and the one function
 * that turns any return value (a result, nothing, or a shape a ResultReader the
 * engine was given reads) into a Verdict the merge understands.
 */

/** Fields any result may carry beside its kind. */
export interface ResultExtras {
  reason?: string;
  additionalContext?: string;
  systemMessage?: string;
  suppressOutput?: boolean;
  updatedOutput?: unknown;
}

export type HookResult =
  | ({ kind: 'allow' | 'ask' | 'defer' } & ResultExtras)
  | ({ kind: 'deny' | 'block' | 'stop'; reason: string } & ResultExtras)
  | ({ kind: 'modify'; updatedInput?: Record<string, unknown> } & ResultExtras)
  | ({ kind: 'retry'; delayMs: number } & ResultExtras)
  | ({ kind: 'skip' } & ResultExtras)
  | ({ kind: 'context' } & ResultExtras)
  | ({ kind: 'none' } & ResultExtras);

export const allow = (reason?: string, extras?: ResultExtras): HookResult => ({ kind: 'allow', reason, ...extras });
export const deny = (reason: string, extras?: ResultExtras): HookResult => ({ kind: 'deny', reason, ...extras });
export const ask = (reason?: string, extras?: ResultExtras): HookResult => ({ kind: 'ask', reason, ...extras });
export const defer = (reason?: string, extras?: ResultExtras): HookResult => ({ kind: 'defer', reason, ...extras });
export const block = (reason: string, extras?: ResultExtras): HookResult => ({ kind: 'block', reason, ...extras });
/** Halt the whole agent: nothing more runs (docs/model.md, "Results"). */
export const stop = (reason: string, extras?: ResultExtras): HookResult => ({ kind: 'stop', reason, ...extras });
export const retry = (delayMs = 1000, extras?: ResultExtras): HookResult => ({ kind: 'retry', delayMs, ...extras });
/** Run no further hooks for this event; keep what earlier hooks decided. */
export const skip = (extras?: ResultExtras): HookResult => ({ kind: 'skip', ...extras });
/**
 * On a tool event, replace `tool_input` with `updatedInput`; on any other event,
 * shallow-merge it into the event input (`modify({ prompt })` rewrites a prompt).
 */
export const modify = (updatedInput: Record<string, unknown>, extras?: ResultExtras): HookResult => ({
  kind: 'modify',
  updatedInput,
  ...extras,
});
/** Add text to the context the model sees. */
export const context = (text: string, extras?: ResultExtras): HookResult => ({
  kind: 'context',
  additionalContext: text,
  ...extras,
});
/** Show a message to the user. */
export const systemMessage = (text: string, extras?: ResultExtras): HookResult => ({
  kind: 'none',
  systemMessage: text,
  ...extras,
});
/** After a tool ran, replace the output the model sees. */
export const replaceOutput = (updatedOutput: unknown, extras?: ResultExtras): HookResult => ({
  kind: 'modify',
  updatedOutput,
  ...extras,
});

const RESULT_KINDS = new Set<string>(['allow', 'deny', 'ask', 'defer', 'modify', 'block', 'stop', 'retry', 'skip', 'context', 'none']);
/** What `undefined` and `null` mean; shared, so the engine can tell it apart by identity. */
export const NO_OPINION: Verdict = Object.freeze({ result: 'none' }) as Verdict;

export function isHookResult(value: unknown): value is HookResult {
  return typeof value === 'object' && value !== null && RESULT_KINDS.has((value as { kind?: string }).kind as string);
}

/**
 * Reads return values in a shape other than hookwise's results (another hook
 * system's output), given to an engine by the layer that knows that shape
 * (EngineOptions.resultReaders; docs/model.md, "Other systems' names and shapes").
 */
export interface ResultReader {
  /** The shape it reads, for the error when a value is no result: "a ... object". */
  readonly shape: string;
  /**
   * The value as a Verdict, or undefined when it is not this reader's shape (the next
   * reader is asked). A value in its shape that says something wrong throws
   * InvalidResultError: a hook failure, never "no opinion".
   */
  read(value: Record<string, unknown>): Verdict | undefined;
}

const NO_READERS: readonly ResultReader[] = [];

/**
 * Normalise a handler's return value. `undefined`/`null` means no opinion. Anything
 * else must be a result (`kind` one of the result kinds, nothing else) or an object
 * one of `readers` reads, in order; a value none reads is a hook failure
 * (InvalidResultError), never "no opinion".
 */
export function toVerdict(value: unknown, readers: readonly ResultReader[] = NO_READERS): Verdict {
  if (value === undefined || value === null) return NO_OPINION;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidResultError(`handler returned ${Array.isArray(value) ? 'an array' : typeof value}; expected ${expected(readers)}`);
  }
  if ('kind' in value) return fromHookResult(value as HookResult);
  for (const reader of readers) {
    const read = reader.read(value as Record<string, unknown>);
    if (read !== undefined) return read;
  }
  throw new InvalidResultError(`handler returned an object that is not a result (no \`kind\`); expected ${expected(readers)}`);
}

function expected(readers: readonly ResultReader[]): string {
  return ['a result (allow(), deny(...), ...)', ...readers.map((r) => r.shape), 'nothing'].join(', ').replace(/, nothing$/, ', or nothing');
}

function extrasOf(r: ResultExtras, v: Verdict): Verdict {
  if (r.additionalContext !== undefined) v.additionalContext = r.additionalContext;
  if (r.systemMessage !== undefined) v.systemMessage = r.systemMessage;
  if (r.suppressOutput) v.suppressOutput = true;
  if (r.updatedOutput !== undefined) v.updatedOutput = r.updatedOutput;
  return v;
}

/** allow(), ask() and defer() without a reason or extras: shared, so the most common answers allocate nothing. */
const BARE_ALLOW: Verdict = Object.freeze({ result: 'allow', decision: 'allow' });
const BARE_ASK: Verdict = Object.freeze({ result: 'ask', decision: 'ask' });
const BARE_DEFER: Verdict = Object.freeze({ result: 'defer', decision: 'defer' });

function bareVerdict(r: HookResult): Verdict | undefined {
  if (r.reason !== undefined || r.additionalContext !== undefined || r.systemMessage !== undefined) return undefined;
  if (r.suppressOutput || r.updatedOutput !== undefined) return undefined;
  switch (r.kind) {
    case 'allow':
      return BARE_ALLOW;
    case 'ask':
      return BARE_ASK;
    case 'defer':
      return BARE_DEFER;
    default:
      return undefined;
  }
}

/** A result as the merge reads it (the readers of other shapes build theirs with it). */
export function fromHookResult(r: HookResult): Verdict {
  const bare = bareVerdict(r);
  if (bare !== undefined) return bare;
  const v: Verdict = { result: r.kind };
  if (r.reason !== undefined) v.reason = r.reason;
  switch (r.kind) {
    case 'allow':
    case 'ask':
    case 'defer':
      v.decision = r.kind;
      break;
    case 'deny':
      v.decision = 'deny';
      v.block = true;
      v.ends = true;
      break;
    case 'block':
      v.block = true;
      v.ends = true;
      break;
    case 'stop':
      v.stop = true;
      v.halt = true;
      v.stopReason = r.reason;
      v.ends = true;
      break;
    case 'retry':
      v.retryDelayMs = Number.isFinite(r.delayMs) && r.delayMs >= 0 ? r.delayMs : 1000;
      v.ends = true;
      break;
    case 'skip':
      v.ends = true;
      break;
    case 'modify':
      if (r.updatedInput !== undefined) v.updatedInput = r.updatedInput;
      break;
    case 'context':
    case 'none':
      break;
    default:
      // The switch is the kind check: a Set lookup per result cost more than the cases it would save.
      throw new InvalidResultError(
        `handler returned a result of unknown kind ${JSON.stringify((r as { kind: unknown }).kind)}; expected one of: ${[...RESULT_KINDS].join(', ')}`,
      );
  }
  return extrasOf(r, v);
}
