import { isKnownEvent, nearMissOf } from '../compat/event-aliases.js';
import type { FireOptions, HookEngine } from '../core/engine.js';
import type { HookInput } from '../core/input.js';
import { answerHost } from './answer.js';
import type { Host, HostAnswer } from './host.js';
import { oneLine, type Within, within } from './limits.js';
import { AnswerTooLargeError, HostInputError } from './errors.js';

/**
 * The one hook-call pipeline (ARCHITECTURE.md, "One event through each host"): a host,
 * the agent's raw input and the project in, the agent's answer out. The spawned
 * `hookwise <agent>` process, the resident, the mod's resident and serve's Claude Code
 * route all answer through it; what differs between them is only where the engine comes
 * from (`engineFor`: loaded for this call, kept loaded, a tenant's) and how a failure
 * leaves the process.
 *
 *   1. the host reads the agent's JSON into hookwise inputs (`inputs()`);
 *   2. the event is read (missing or unknown: a failure);
 *   3. the project: the caller's, else the input's (CLAUDE_PROJECT_DIR, then `cwd`);
 *   4. its engine (`engineFor`): none (no config: nothing to run), stale (this process
 *      no longer serves the project's config: nothing ran, ask another), or the engine;
 *   5. the event fired for each input, the Outcome written as the agent honours it
 *      (./answer.ts), the record made durable before the answer;
 *   6. all of it within the host's deadline, when the agent's own timeout lets the tool
 *      run; any failure is the host's failure answer for the event read so far.
 */
export interface HookCall {
  host: Host;
  /** The agent's JSON, or how to read it (a reading that throws is the call's failure). */
  raw: Record<string, unknown> | (() => Record<string, unknown>);
  failOpen: boolean;
  engineFor(projectDir: string, event: string, inputs: HookInput[]): Promise<CallEngine>;
  /** The project, when the caller knows it (serve's header and roots); else the input's. */
  projectDir?: string;
  signal?: AbortSignal;
  /** Answer within this many ms or fail closed; default: the host's deadline. */
  deadlineMs?: number;
  /** How a deadline is kept (the spawned process ends at once on one: ../cli/envelope.ts). */
  within?: Within;
  /** Checked once the event is known, so that its failure answer fits the event (a bad flag). */
  check?(event: string): void;
  /** Failures thrown to the caller rather than answered: it answers them its own way (the process envelope, HTTP). */
  throwFailures?: boolean;
}

/** Where one call's engine comes from. */
export type CallEngine =
  | {
      engine: HookEngine;
      /** Fire options beyond the signal and the project (serve: the tenant's counters). */
      fireOptions?: FireOptions;
      /** Makes what the fire recorded durable; the answer waits for it (an answer that cannot be recorded is a failure). */
      recorded?: () => unknown;
    }
  /** No config in the project: nothing runs, the line says so. */
  | { none: string }
  /** This process no longer serves the project's config: nothing ran. */
  | 'stale';

export type CallAnswer = HostAnswer | { stale: true };

/** The largest answer written; a larger one is a failure (a host reading a capped pipe would get cut, invalid JSON). */
export const MAX_ANSWER_BYTES = 1024 * 1024;

export async function answerCall(call: HookCall): Promise<CallAnswer> {
  const { host } = call;
  let event: string | undefined;
  try {
    const inputs = host.inputs(typeof call.raw === 'function' ? call.raw() : call.raw);
    const read = eventOf(inputs[0]!.hook_event_name);
    event = read;
    call.check?.(read);
    const projectDir = call.projectDir ?? projectDirOf(inputs[0]!);
    const work = answerWith(call, read, inputs, projectDir);
    const deadline = call.deadlineMs ?? host.deadlineMs;
    // Agents whose own hook timeout lets the tool run get the failure answer from hookwise first.
    return deadline ? await (call.within ?? within)(deadline, `answering ${host.label}`, work) : await work;
  } catch (error) {
    if (call.throwFailures) throw error;
    return host.failure(event, oneLine(error instanceof Error ? error.message : String(error)), call.failOpen);
  }
}

async function answerWith(call: HookCall, event: string, inputs: HookInput[], projectDir: string): Promise<CallAnswer> {
  const source = await call.engineFor(projectDir, event, inputs);
  if (source === 'stale') return { stale: true };
  if ('none' in source) return { stderr: source.none, code: 0 };
  const answer = await answerHost(call.host, source.engine, event, inputs, call.signal, projectDir, source.fireOptions);
  if (answer.stdout) {
    const bytes = Buffer.byteLength(answer.stdout);
    if (bytes > MAX_ANSWER_BYTES)
      throw new AnswerTooLargeError(`the answer is ${bytes} bytes, over the ${MAX_ANSWER_BYTES} a hook answer may carry`);
  }
  await source.recorded?.();
  return answer;
}

/** The event the agent named; a missing, empty or unknown name (`pretooluse`) is a failure. */
export function eventOf(name: unknown): string {
  if (typeof name !== 'string' || name === '')
    throw new HostInputError('stdin: hook_event_name is missing; expected the JSON Claude Code sends a hook');
  if (isKnownEvent(name)) return name;
  const close = nearMissOf(name);
  throw new HostInputError(`stdin: unknown hook_event_name "${name}"${close ? ` (did you mean "${close}"?)` : ''}`);
}

/** The project: Claude Code's CLAUDE_PROJECT_DIR, else the input's cwd, else ours. */
export function projectDirOf(input: HookInput): string {
  return process.env.CLAUDE_PROJECT_DIR || (typeof input.cwd === 'string' ? input.cwd : process.cwd());
}
