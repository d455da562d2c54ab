import { validateClaudeCodeOutput, verdictFromClaudeCode, type ClaudeCodeJsonOutput } from './claude-code.js';
import { InvalidResultError, type Decision, type ResultKind, type Verdict } from './verdict.js';

export { InvalidResultError, type Decision, type ResultKind, type Verdict } from './verdict.js';

/**
 * What a handler can return, the helpers that build it, and the one function
 * that turns any return value (helper result, Claude Code JSON output, nothing)
 * into a Verdict the merge understands.
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

export type { ClaudeCodeJsonOutput } from './claude-code.js';

export const allow = (reason?: string, extras?: ResultExtras): HookResult => ({ kind: 'allow', reason, ...extras });
export const deny = (reason: string, extras?: ResultExtras): HookResult => ({ kind: 'deny', reason, ...extras });
export const ask = (reason?: string, extras?: ResultExtras): HookResult => ({ kind: 'ask', reason, ...extras });
export const defer = (reason?: string, extras?: ResultExtras): HookResult => ({ kind: 'defer', reason, ...extras });
export const block = (reason: string, extras?: ResultExtras): HookResult => ({ kind: 'block', reason, ...extras });
/** Halt the whole agent (Claude Code's `continue: false`). */
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
/** Add text to the context the model sees (Claude Code's `additionalContext`). */
export const context = (text: string, extras?: ResultExtras): HookResult => ({
  kind: 'context',
  additionalContext: text,
  ...extras,
});
/** Show a message to the user (Claude Code's `systemMessage`). */
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
 * Normalise a handler's return value. `undefined`/`null` means no opinion. Anything
 * else must be a result (`kind` one of the result kinds, nothing else) or Claude Code
 * JSON output that Claude Code's schema accepts, with no field it does not know:
 * `{decision: "maybe"}`, `"Deny"`, a `permissionDecision` outside hookSpecificOutput
 * are hook failures (InvalidResultError), never "no opinion". Claude Code settings
 * hooks are read leniently by their protocol before they get here (docs/claude-code.md).
 */
export function toVerdict(value: unknown): Verdict {
  if (value === undefined || value === null) return NO_OPINION;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidResultError(
      `handler returned ${Array.isArray(value) ? 'an array' : typeof value}; expected a result (allow(), deny(...), ...), a Claude Code JSON output object, or nothing`,
    );
  }
  if ('kind' in value) return fromHookResult(value as HookResult);
  const seed = fromUseHooksOutcome(value as Record<string, unknown>);
  if (seed) return fromHookResult(seed);
  return fromClaudeCodeOutput(value as ClaudeCodeJsonOutput);
}

const USEHOOKS_DECISIONS = new Set(['allow', 'deny', 'stop', 'continue']);

/**
 * A HookOutcome as UseHooks writes it (docs/coming-from/usehooks.md):
 * `{ decision: allow | deny | stop | continue, updatedToolArgs?, updatedState?, reason? }`.
 * Told apart from Claude Code's JSON by its own keys or decision words, which
 * Claude Code's output never uses; anything else stays Claude Code's.
 */
function fromUseHooksOutcome(o: Record<string, unknown>): HookResult | undefined {
  const seedKeys = 'updatedToolArgs' in o || 'updatedState' in o;
  if (!seedKeys && !(typeof o.decision === 'string' && USEHOOKS_DECISIONS.has(o.decision))) return undefined;
  const reason = typeof o.reason === 'string' ? o.reason : undefined;
  if (o.decision === 'deny') return deny(reason ?? 'denied by a hook');
  if (o.decision === 'stop') return stop(reason ?? 'stopped by a hook');
  const args = o.updatedToolArgs;
  const state = o.updatedState;
  if (args !== undefined && args !== null) {
    if (typeof args !== 'object' || Array.isArray(args))
      throw new InvalidResultError('updatedToolArgs must be an object of tool arguments');
    return modify(args as Record<string, unknown>, reason === undefined ? undefined : { reason });
  }
  if (state !== undefined && state !== null) {
    if (typeof state !== 'object' || Array.isArray(state))
      throw new InvalidResultError('updatedState must be an object (messages, metadata)');
    return modify(state as Record<string, unknown>, reason === undefined ? undefined : { reason });
  }
  return o.decision === 'allow' ? allow(reason) : { kind: 'none' };
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

function fromHookResult(r: HookResult): Verdict {
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

/** Claude Code's JSON output (strictly validated), read as Claude Code reads it. */
export function fromClaudeCodeOutput(o: ClaudeCodeJsonOutput, event?: string): Verdict {
  return verdictFromClaudeCode(validateClaudeCodeOutput(o, { strict: true, event }), event);
}
