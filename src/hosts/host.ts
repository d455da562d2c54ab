import type { HookInput } from '../core/input.js';
import type { Outcome } from '../core/outcome.js';
import type { HostInit } from './init-targets.js';

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

/** An agent's name: its row in the table of agents (bin/agents.cjs, ./registry.ts) and its folder here. */
export type HostName = string;

/** What the folder of every agent (./<agent>/index.ts) exports as `host`. */
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
  /**
   * Optional: the answer from the Outcome of every input up to the first that refuses, for
   * agents whose one call holds several things each answered on its own (Cline's
   * `run_commands`: every command judged, and rewritten, by itself). Without it the first
   * decisive Outcome answers through answer().
   */
  answerAll?(outcomes: Outcome[], inputs: HookInput[], carried?: Carried): HostAnswer;
  /**
   * Optional, with answerAll: fires the call in place of answerHost's loop (./answer.ts
   * `fireUntilRefused`), for agents that need more than the event itself: Cline runs
   * TaskStart detached, so the context of SessionStart is carried to the task's first
   * PreToolUse (./cline/carried.ts). `inputs` of the result are those its outcomes answer.
   */
  fireAll?(event: string, inputs: HookInput[], fire: FireOne, call: CallContext): Promise<Fired>;
  /** hookwise's own failure, answered so that the agent fails closed on `event` (undefined when unread). */
  failure(event: string | undefined, reason: string, failOpen: boolean): HostAnswer;
  /**
   * Answer within this many ms or fail closed: for agents whose own hook timeout lets
   * the tool run, hookwise answers the deny first. Undefined: the agent's timeout fails closed.
   */
  readonly deadlineMs: number | undefined;
  /** How `hookwise init <agent>` wires the agent (../init-targets.ts): loaded by init alone, never on a call. */
  init(): Promise<HostInit>;
}

/** Fires one event for one input through the engine (signal and project already applied). */
export type FireOne = (event: string, input: HookInput) => Promise<Outcome>;

/** What a host's own firing knows of the call: the project, and the signal that abandons it. */
export interface CallContext {
  projectDir?: string;
  signal?: AbortSignal;
}

/** What events fired for an earlier agent event add to this call's answer: their context, or why the run ends. */
export interface Carried {
  context: string[];
  stop?: string;
}

export interface Fired {
  outcomes: Outcome[];
  carried?: Carried;
}

/**
 * How long hookwise takes at most to answer an agent whose own hook timeout lets the
 * tool run (every agent but Claude Code): a third of the shortest timeout init writes
 * (60 s), so the failure answer is in well before the agent gives up.
 */
export const AGENT_DEADLINE_MS = 20_000;

/** The events whose failure must end the run: failing closed there must never keep the agent going. */
export const END_OF_TURN = new Set(['Stop', 'SubagentStop', 'TeammateIdle', 'TaskCompleted']);

/** JSON on one line, as every agent reads a hook's stdout. */
export const jsonLine = (value: Record<string, unknown>): string => `${JSON.stringify(value)}\n`;
