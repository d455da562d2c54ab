import type { HookInput } from '../core/input.js';
import type { Outcome } from '../core/outcome.js';

/**
 * A host: a coding agent that runs hookwise as its hook command. Each one is a small
 * folder at the edge (./<agent>/): how its event JSON becomes hookwise's input, how an
 * Outcome becomes the answer it honours, and what it gets when hookwise itself fails.
 * The spawned process, the resident and every agent share one path through them
 * (./answer.ts). docs/agents.md.
 */
export interface HostAnswer {
  /** What goes to stdout; nothing when absent. */
  stdout?: string;
  /** One line (or nothing) for stderr. */
  stderr?: string;
  code: number;
}

export type HostName = 'claude-code' | 'codex' | 'copilot' | 'droid' | 'opencode';

export interface Host {
  readonly name: HostName;
  /** The agent's name and the version its answers were verified against, for messages and docs. */
  readonly label: string;
  /**
   * hookwise's inputs for one agent call: the event named as hookwise names it and the
   * tool mapped to hookwise's (./tools.ts). Usually one; a Codex `apply_patch` that
   * touches several files is judged once per file. Throws when the input cannot be
   * read (the failure answer follows).
   */
  inputs(raw: Record<string, unknown>): HookInput[];
  /** The Outcome as the agent honours it; `input` is the first of inputs(). */
  answer(outcome: Outcome, input: HookInput): HostAnswer;
  /** hookwise's own failure, answered so that the agent fails closed on `event` (undefined when unread). */
  failure(event: string | undefined, reason: string, failOpen: boolean): HostAnswer;
  /**
   * Answer within this many ms or fail closed: for agents whose own hook timeout lets
   * the tool run, hookwise answers the deny first. Undefined: the agent's timeout fails closed.
   */
  readonly deadlineMs: number | undefined;
}

/** The events whose failure must end the run: failing closed there must never keep the agent going. */
export const END_OF_TURN = new Set(['Stop', 'SubagentStop', 'TeammateIdle', 'TaskCompleted']);

/** JSON on one line, as every agent reads a hook's stdout. */
export const jsonLine = (value: Record<string, unknown>): string => `${JSON.stringify(value)}\n`;
