import type { FireOptions, HookEngine } from '../core/engine.js';
import type { HookInput } from '../core/input.js';
import type { Outcome } from '../core/outcome.js';
import { END_OF_TURN, type FireOne, type Host, type HostAnswer } from './host.js';

/**
 * The one path from an agent's call to its answer, shared by the spawned process, the
 * resident and every agent: fire the event for each of the host's inputs (one, or one
 * per file of a patch) and write the Outcome as the host honours it. The first input
 * whose Outcome refuses, asks, stops or rewrites decides; otherwise the last one's.
 */
export async function answerHost(
  host: Host,
  engine: HookEngine,
  event: string,
  inputs: HookInput[],
  signal?: AbortSignal,
  projectDir?: string,
  /** Fire options beyond these (serve: the tenant's counters). */
  fireOptions?: FireOptions,
): Promise<HostAnswer> {
  let outcome: Outcome | undefined;
  let decided: HookInput = inputs[0]!;
  // The project, not the folder the agent's shell is in now: a `cd src` must not shrink the guards' workspace.
  const options = { ...fireOptions, ...(signal && { signal }), ...(projectDir && { projectDir }) };
  if (host.answerAll) {
    const fire: FireOne = async (e, input) => endsTheRunOnFailure(await engine.fire(e, input, options));
    const fired = host.fireAll
      ? await host.fireAll(event, inputs, fire, options)
      : { outcomes: await fireUntilRefused(event, inputs, fire) };
    return host.answerAll(fired.outcomes, inputs.slice(0, fired.outcomes.length), fired.carried);
  }
  for (const input of inputs) {
    outcome = endsTheRunOnFailure(await engine.fire(event, input, options));
    decided = input;
    if (decisive(outcome)) break;
  }
  return host.answer(outcome!, decided);
}

/** The event for each input up to the first whose Outcome refuses (answerAll answers each). */
export async function fireUntilRefused(event: string, inputs: HookInput[], fire: FireOne): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const input of inputs) {
    outcomes.push(await fire(event, input));
    if (refuses(outcomes.at(-1)!)) break;
  }
  return outcomes;
}

export const refuses = (o: Outcome): boolean => o.blocked || o.stop || (o.decision !== null && o.decision !== 'allow');
const decisive = (o: Outcome): boolean => o.blocked || o.stop || o.updatedInput !== null || (o.decision !== null && o.decision !== 'allow');

/**
 * A block at the end of a turn that a failed hook made (it threw, or ran out of time)
 * reads in every agent as "keep going", and again on every failure (Gemini: 24 model
 * requests in 150 s until killed). Failing closed there ends the run: the block becomes
 * a stop. A block a hook chose (keep going, with its reason) stays one. docs/agents.md.
 */
export function endsTheRunOnFailure(o: Outcome): Outcome {
  if (!o.blocked || o.stop || !END_OF_TURN.has(o.event)) return o;
  const failed = o.hooks.find((h) => (h.status === 'error' || h.status === 'timeout') && o.reason?.startsWith(`hook ${h.name} failed`));
  if (!failed) return o;
  return { ...o, stop: true, stopReason: `hookwise failed closed: ${o.reason}` };
}
