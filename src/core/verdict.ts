import { HookwiseError } from './errors.js';
/**
 * What one hook's return value means once read: the Verdict the merge works on. Its
 * own file, below both readers of return values (./results.ts and ./claude-code.ts),
 * so neither imports the other back.
 */

export type Decision = 'allow' | 'deny' | 'ask' | 'defer';

export type ResultKind = 'allow' | 'deny' | 'ask' | 'defer' | 'modify' | 'block' | 'stop' | 'retry' | 'skip' | 'context' | 'none';

/** One hook's return value, normalised. Everything the merge needs and nothing else. */
export interface Verdict {
  result: ResultKind;
  decision?: Decision;
  /** deny, block, or an equivalent Claude Code output. */
  block?: boolean;
  stop?: boolean;
  /**
   * hookwise's own `stop()`: halt the agent without letting through what the event
   * announces (a PreToolUse stop refuses the tool). Claude Code's `continue: false`
   * lacks it: there the tool runs, then the turn ends.
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
  /** Claude Code's Elicitation/ElicitationResult answer. */
  elicitation?: { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };
  /** Claude Code's WorktreeCreate answer: the created worktree's path. */
  worktreePath?: string;
}

/** Thrown when a handler returns something that is neither a result nor Claude Code output. */
export class InvalidResultError extends HookwiseError {
  override readonly code = 'INVALID_RESULT';
}
