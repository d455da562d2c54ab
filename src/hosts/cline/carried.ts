import { randomUUID } from 'node:crypto';
import type { HookInput } from '../../core/input.js';
import type { Outcome } from '../../core/outcome.js';
import type { CallContext, Carried, FireOne } from '../host.js';
import { type Recorded, TaskState } from './task-state.js';

/**
 * Cline CLI 3.0.65 runs TaskStart and UserPromptSubmit detached and never reads their
 * answers, so what a policy adds there would never reach the model. hookwise carries it
 * to the task's next PreToolUse, whose `context` Cline does read, once per task:
 *
 * - SessionStart (`startup`) is fired once per task, by whichever comes first: the
 *   detached TaskStart hook (which records its context), or the task's first PreToolUse
 *   (which fires it itself). A PreToolUse that finds it claimed but not yet recorded waits
 *   up to WAIT_MS for the record, then fires it itself (that TaskStart hook failed).
 * - UserPromptSubmit, whose prompt only the detached hook sees, is fired there and
 *   recorded; the next PreToolUse delivers every record not yet delivered (one that
 *   has not come within WAIT_MS is given up).
 *
 * Delivery is claimed per record (./task-state.ts), so no context reaches the model twice,
 * whatever the number of processes, residents or concurrent calls. docs/agents.md (Cline).
 */
const START = 'session-start';
const PROMPT = 'prompt-';
const FIRED = '.fired';
const DELIVERED = '.delivered';
/** How long a PreToolUse waits for a record a detached hook has begun (well inside Cline's deadline). */
export const WAIT_MS = 5000;

/** The detached TaskStart: SessionStart, fired only if no PreToolUse of the task fired it first. */
export async function fireTaskStart(input: HookInput, fire: FireOne, state: TaskState): Promise<Outcome[]> {
  if (!state.claim(START + FIRED)) return [];
  const outcome = await fire('SessionStart', input);
  state.record(START, recordOf(outcome));
  return [outcome];
}

/** The detached UserPromptSubmit: fired, and its context recorded for the next PreToolUse. */
export async function firePromptSubmit(input: HookInput, fire: FireOne, state: TaskState): Promise<Outcome[]> {
  // Named in the order prompts came: the next PreToolUse delivers them in that order.
  const name = `${PROMPT}${String(Date.now()).padStart(15, '0')}-${randomUUID()}`;
  state.claim(name + FIRED);
  const outcome = await fire('UserPromptSubmit', input);
  state.record(name, recordOf(outcome));
  return [outcome];
}

/** What the task's earlier events left for this PreToolUse to deliver (nothing once delivered). */
export async function carriedTo(input: HookInput, fire: FireOne, state: TaskState, call: CallContext): Promise<Carried> {
  const carried: Carried = { context: [] };
  const add = (name: string, value: Recorded | undefined) => {
    if (!value || !state.claim(name + DELIVERED)) return;
    if (value.context) carried.context.push(value.context);
    if (value.stop) carried.stop ??= value.stop;
  };
  if (!state.has(START + DELIVERED)) {
    const fireHere = async () => {
      const value = recordOf(await fire('SessionStart', startInput(input)));
      state.record(START, value);
      return value;
    };
    if (state.claim(START + FIRED)) add(START, await fireHere());
    else add(START, (await state.awaitRecord(START, WAIT_MS, call.signal)) ?? (await fireHere()));
  }
  for (const fired of state.names(PROMPT).filter((n) => n.endsWith(FIRED))) {
    const name = fired.slice(0, -FIRED.length);
    if (state.has(name + DELIVERED)) continue;
    const value = await state.awaitRecord(name, WAIT_MS, call.signal);
    // A prompt hook that never recorded (it failed) is given up, not waited for on every later call.
    if (!value) state.claim(name + DELIVERED);
    add(name, value);
  }
  return carried;
}

/** SessionStart as Cline's TaskStart would have sent it: the task, its folder, `startup`. */
function startInput(input: HookInput): HookInput {
  return {
    hook_event_name: 'SessionStart',
    source: 'startup',
    ...(input.session_id !== undefined && { session_id: input.session_id }),
    ...(input.cwd !== undefined && { cwd: input.cwd }),
    ...(input.agent_id !== undefined && { agent_id: input.agent_id }),
    agent_event_name: 'agent_start',
  };
}

function recordOf(o: Outcome): Recorded {
  const stop = o.stop ? (o.stopReason ?? o.reason ?? 'a hookwise hook ended the run') : undefined;
  return { context: o.additionalContext ?? null, ...(stop !== undefined && { stop }) };
}

export { TaskState };
