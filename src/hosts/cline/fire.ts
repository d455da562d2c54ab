import type { HookInput } from '../../core/input.js';
import type { Outcome } from '../../core/outcome.js';
import { fireUntilRefused, refuses } from '../answer.js';
import type { CallContext, FireOne, Fired } from '../host.js';
import { approvalsOn, askDurably, asks } from './approvals.js';
import { carriedTo, fireTaskStart, firePromptSubmit, TaskState } from './carried.js';

/**
 * How hookwise fires one Cline hook call (the host's fireAll): SessionStart and
 * UserPromptSubmit, which Cline runs detached, are recorded for the task's next
 * PreToolUse (./carried.ts); a PreToolUse first picks up what they left, then judges
 * each thing the call holds, an `ask` going to the durable approvals when they are on
 * (./approvals.ts). A payload without a task id (no state to keep) is fired as it is.
 */
export async function clineFire(event: string, inputs: HookInput[], fire: FireOne, call: CallContext): Promise<Fired> {
  const first = inputs[0]!;
  const taskId = typeof first.session_id === 'string' && first.session_id !== '' ? first.session_id : undefined;
  if (taskId === undefined) return { outcomes: await judged(event, inputs, fire, call) };
  if (event === 'SessionStart' && first.source === 'startup') return { outcomes: await fireTaskStart(first, fire, stateOf(taskId)) };
  if (event === 'UserPromptSubmit') return { outcomes: await firePromptSubmit(first, fire, stateOf(taskId)) };
  if (event !== 'PreToolUse') return { outcomes: await fireUntilRefused(event, inputs, fire) };
  const carried = await carriedTo(first, fire, stateOf(taskId), call);
  if (carried.stop) return { outcomes: [], carried };
  return { outcomes: await judged(event, inputs, fire, call), carried };
}

/** Each input up to the first refused; on PreToolUse an ask is answered by the durable approvals when they are on. */
async function judged(event: string, inputs: HookInput[], fire: FireOne, call: CallContext): Promise<Outcome[]> {
  if (event !== 'PreToolUse' || !approvalsOn()) return fireUntilRefused(event, inputs, fire);
  const outcomes: Outcome[] = [];
  for (const input of inputs) {
    let o = await fire(event, input);
    if (asks(o)) o = await askDurably(o, input, call.projectDir ?? process.cwd());
    outcomes.push(o);
    if (refuses(o)) break;
  }
  return outcomes;
}

const stateOf = (taskId: string): TaskState => TaskState.of(`task:${taskId}`);
