import type { Decision, ResultKind, Verdict } from './verdict.js';

export type HookStatus = 'ok' | 'error' | 'timeout' | 'skipped' | 'async';

/** One selected hook in an Outcome, in execution order. */
export interface HookRecord {
  name: string;
  status: HookStatus;
  result: ResultKind | null;
  /** Milliseconds the hook ran; absent when the engine does not time hooks (docs/model.md, "Durations"). */
  durationMs?: number;
  error: string | null;
  /** Extra facts a handler reported (`truncated`, `exitCode`, ...). */
  [annotation: string]: unknown;
}

/** Everything one fire decided. Plain JSON. */
export interface Outcome {
  event: string;
  decision: Decision | null;
  blocked: boolean;
  reason: string | null;
  stop: boolean;
  stopReason: string | null;
  updatedInput: Record<string, unknown> | null;
  updatedOutput: unknown;
  additionalContext: string | null;
  systemMessage: string | null;
  suppressOutput: boolean;
  retry: { delayMs: number } | null;
  /** The answer to an Elicitation/ElicitationResult (first one wins, in execution order). */
  elicitation?: { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> } | null;
  /** The answer to WorktreeCreate: the created worktree's path (first one wins). */
  worktreePath?: string | null;
  hooks: HookRecord[];
}

/** allow < ask < defer < deny. A switch, not a table: a table read by a different key each time is a megamorphic load. */
function rankOf(decision: Decision): number {
  switch (decision) {
    case 'allow':
      return 1;
    case 'ask':
      return 2;
    case 'defer':
      return 3;
    default:
      return 4;
  }
}

/** The outcome of a fire that selected no hook (or, with `hooks`, the start of one that did). */
export function emptyOutcome(event: string, hooks: HookRecord[] = []): Outcome {
  return {
    event,
    decision: null,
    blocked: false,
    reason: null,
    stop: false,
    stopReason: null,
    updatedInput: null,
    updatedOutput: null,
    additionalContext: null,
    systemMessage: null,
    suppressOutput: false,
    retry: null,
    elicitation: null,
    worktreePath: null,
    hooks,
  };
}

/**
 * Events where `stop` means "let this go on, then end the turn" (docs/model.md, "Merging",
 * `stop`): the tool runs (PreToolUse) or has run (Post*), the agent is not kept going
 * (Stop). Everywhere else a stop also blocks what the event announces.
 */
const STOP_AFTER = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'Stop', 'SubagentStop']);

/**
 * Folds verdicts, in execution order, into one Outcome (docs/model.md, "Merging").
 * `permission` events turn any block into decision `deny`; `toolEvent` makes
 * `updatedInput` last-wins instead of a merge of patches.
 */
export class OutcomeBuilder {
  // Declared, then set in the constructor: one builder per fire, and emitted class fields cost an initializer call each time.
  declare readonly outcome: Outcome;
  declare private readonly permission: boolean;
  declare private readonly toolEvent: boolean;
  declare private decisionReason: string | null;
  declare private context: string[] | null;
  declare private messages: string[] | null;
  declare private halting: boolean;

  /** `hooks`: the fire's records; the Outcome's `hooks` is that array, not a copy. */
  constructor(event: string, permission: boolean, toolEvent: boolean, hooks?: HookRecord[]) {
    this.outcome = emptyOutcome(event, hooks);
    this.permission = permission;
    this.toolEvent = toolEvent;
    this.decisionReason = null;
    this.context = null;
    this.messages = null;
    this.halting = false;
  }

  add(v: Verdict): void {
    const o = this.outcome;
    if (v.decision !== undefined && (o.decision === null || rankOf(v.decision) > rankOf(o.decision))) {
      o.decision = v.decision;
      this.decisionReason = v.reason ?? null;
    }
    if (v.block && !o.blocked) {
      o.blocked = true;
      o.reason = v.reason ?? null;
    }
    if (v.stop) {
      if (!o.stop) o.stopReason = v.stopReason ?? v.reason ?? null;
      o.stop = true;
      if (v.halt) this.halting = true;
      if (!o.blocked && (!STOP_AFTER.has(o.event) || (v.halt && o.event === 'PreToolUse'))) {
        o.blocked = true;
        o.reason = o.stopReason;
      }
    }
    if (v.updatedInput !== undefined) {
      o.updatedInput = this.toolEvent || o.updatedInput === null ? v.updatedInput : { ...o.updatedInput, ...v.updatedInput };
    }
    if (v.updatedOutput !== undefined) o.updatedOutput = v.updatedOutput;
    if (v.additionalContext !== undefined) (this.context ??= []).push(v.additionalContext);
    if (v.systemMessage !== undefined) (this.messages ??= []).push(v.systemMessage);
    if (v.suppressOutput) o.suppressOutput = true;
    if (v.retryDelayMs !== undefined && o.retry === null) o.retry = { delayMs: v.retryDelayMs };
    if (v.elicitation !== undefined && !o.elicitation) o.elicitation = v.elicitation;
    if (v.worktreePath !== undefined && !o.worktreePath) o.worktreePath = v.worktreePath;
  }

  /** A failing hook under a fail-closed policy. */
  addFailure(hookName: string, why: string): void {
    this.add({ result: 'block', block: true, reason: `hook ${hookName} failed: ${why}` });
  }

  /** Text an async hook left for this session's next outcome comes first. */
  prepend(context: string[], messages: string[]): void {
    if (context.length) this.context = [...context, ...(this.context ?? [])];
    if (messages.length) this.messages = [...messages, ...(this.messages ?? [])];
  }

  finish(): Outcome {
    const o = this.outcome;
    if (o.blocked && this.permission) o.decision = 'deny';
    // A stop that does not halt, on PreToolUse, ends the turn after the tool runs; with a
    // refusal the tool does not run, so the turn goes on with it (docs/model.md, "Merging";
    // checked by test/differential). hookwise's own stop() refuses the tool and halts.
    if (o.stop && o.blocked && o.event === 'PreToolUse' && !this.halting) {
      o.stop = false;
      o.stopReason = null;
    }
    if (!o.blocked) o.reason = this.decisionReason;
    if (this.context) o.additionalContext = this.context.join('\n');
    if (this.messages) o.systemMessage = this.messages.join('\n');
    return o;
  }
}
