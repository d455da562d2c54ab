import { HookwiseError } from './errors.js';
/**
 * What one hook's return value means once read: the Verdict the merge works on. Its
 * own file, below every reader of return values (./results.ts and the ResultReaders
 * an engine is given), so none imports another back.
 */

export type Decision = 'allow' | 'deny' | 'ask' | 'defer';

export type ResultKind = 'allow' | 'deny' | 'ask' | 'defer' | 'modify' | 'block' | 'stop' | 'retry' | 'skip' | 'context' | 'none';

/** One hook's return value, normalised. Everything the merge needs and nothing else. */
export interface Verdict {
  result: ResultKind;
  decision?: Decision;
  /** deny, block, or an equivalent answer in another shape. */
  block?: boolean;
  stop?: boolean;
  /**
   * hookwise's own `stop()`: halt the agent without letting through what the event
   * announces (a PreToolUse stop refuses the tool). A stop without it lets the
   * announced thing run, then ends the turn (docs/model.md, "Merging").
   */
  halt?: boolean;
  reason?: string;
  stopReason?: string;
  updatedInput?: Record<string, unknown>;
  updatedOutput?: unknown;
  additionalContext?: string;
  systemMessage?: string;
  suppressOutput?: boolean;
  retryDelayMs?: number;
  /** The chain ends after this hook (deny, block, stop, retry, skip). */
  ends?: boolean;
  /** The answer to an Elicitation/ElicitationResult: accept (with content), decline or cancel. */
  elicitation?: { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };
  /** The answer to WorktreeCreate: the created worktree's path. */
  worktreePath?: string;
}

/** Thrown when a handler returns something that is neither a result nor a shape the engine reads. */
export class InvalidResultError extends HookwiseError {
  override readonly code = 'INVALID_RESULT';
}
