import type { Outcome } from '../core/outcome.js';
import type { ToolExecution } from './coverage.js';

export interface ToolCallInfo {
  name: string;
  input: Record<string, unknown>;
  id: string;
}

/** Checks a rewritten input against the tool's schema: the parsed value, or why not. */
export type Checked = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };
export type InputValidator = (input: Record<string, unknown>) => Checked | Promise<Checked>;

/**
 * What to do with one tool call, read from the whole PreToolUse outcome. `by`: the
 * outcome whose hook refused or stopped (PreToolUse's or PermissionRequest's); absent
 * when nobody could approve, a rewrite was invalid, or a person said no.
 */
export type Plan =
  /** `approvalId`: the durable approval that let it run. */
  | { action: 'run'; input: Record<string, unknown>; pre: Outcome; approvedBy: ToolExecution['approvedBy']; approvalId?: string }
  | { action: 'deny'; message: string; pre: Outcome; by?: Outcome }
  | { action: 'ask'; input: Record<string, unknown>; pre: Outcome; reason: string | null }
  | { action: 'stop'; message: string; pre: Outcome; by: Outcome };

export interface AfterTool {
  /** What the model sees: the tool's own output, or a hook's replacement. */
  output: unknown;
  replaced: boolean;
  /** Text hooks added (PreToolUse and PostToolUse additionalContext, a PostToolUse block's reason, an approver's note). */
  extra: readonly string[];
  /** Set when a hook stopped the agent: after the call (PostToolUse) or before it without refusing it (`continue: false`). */
  stop: string | null;
  /** The outcome that stopped the agent, with `stop`. */
  stoppedBy: Outcome | null;
}
