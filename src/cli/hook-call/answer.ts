import { isKnownEvent, nearMissOf } from '../../compat/event-aliases.js';
import type { HookEngine } from '../../core/engine.js';
import type { HookInput } from '../../core/input.js';
import { UserError } from '../errors.js';
import { answerHost } from '../../hosts/answer.js';
import type { Host, HostAnswer } from '../../hosts/host.js';
import { projectDirOf } from './project.js';

/** The largest answer written; a larger one is a failure (a host reading a capped pipe would get cut, invalid JSON). */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/** Fire the event and write the Outcome as the agent reads it (src/hosts/answer.ts); too large an answer is a failure. */
export async function answerFor(
  host: Host,
  engine: HookEngine,
  event: string,
  inputs: HookInput[],
  signal?: AbortSignal,
): Promise<HostAnswer> {
  const answer = await answerHost(host, engine, event, inputs, signal, projectDirOf(inputs[0] ?? {}));
  if (answer.stdout) {
    const bytes = Buffer.byteLength(answer.stdout);
    if (bytes > MAX_ANSWER_BYTES) throw new Error(`the answer is ${bytes} bytes, over the ${MAX_ANSWER_BYTES} a hook answer may carry`);
  }
  return answer;
}

/** The event the agent named; a missing, empty or unknown name (`pretooluse`) is a failure. */
export function eventOf(name: unknown): string {
  if (typeof name !== 'string' || name === '')
    throw new UserError('stdin: hook_event_name is missing; expected the JSON Claude Code sends a hook');
  if (isKnownEvent(name)) return name;
  const close = nearMissOf(name);
  throw new UserError(`stdin: unknown hook_event_name "${name}"${close ? ` (did you mean "${close}"?)` : ''}`);
}
