import type { HookEngine } from '../core/engine.js';
import type { HookInput } from '../core/input.js';
import type { Outcome } from '../core/outcome.js';
import type { Host, HostAnswer } from './host.js';

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
): Promise<HostAnswer> {
  let outcome: Outcome | undefined;
  let decided: HookInput = inputs[0]!;
  // The project, not the folder the agent's shell is in now: a `cd src` must not shrink the guards' workspace.
  const options = { ...(signal && { signal }), ...(projectDir && { projectDir }) };
  if (host.answerAll) {
    const outcomes: Outcome[] = [];
    for (const input of inputs) {
      outcomes.push(await engine.fire(event, input, options));
      if (refuses(outcomes.at(-1)!)) break;
    }
    return host.answerAll(outcomes, inputs.slice(0, outcomes.length));
  }
  for (const input of inputs) {
    outcome = await engine.fire(event, input, options);
    decided = input;
    if (decisive(outcome)) break;
  }
  return host.answer(outcome!, decided);
}

const refuses = (o: Outcome): boolean => o.blocked || o.stop || (o.decision !== null && o.decision !== 'allow');
const decisive = (o: Outcome): boolean => o.blocked || o.stop || o.updatedInput !== null || (o.decision !== null && o.decision !== 'allow');
