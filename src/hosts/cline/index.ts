import { AGENT_DEADLINE_MS, type Host, type HostAnswer, jsonLine } from '../host.js';
import { clineAnswer } from './answer.js';
import { clineFire } from './fire.js';
import { clinePayloadInput } from './payload.js';
import { clineToolInputs } from './tools.js';

/**
 * Cline CLI 3.0.65 (`hookwise cline`, run by the hook files `hookwise init cline` writes
 * into `.clinerules/hooks/`). Cline reads only the JSON a hook prints: an exit code
 * means nothing (exit 2 runs the tool), and a hook that times out (120 s), crashes or
 * prints what is not JSON lets the tool run. So every answer, hookwise's own failure
 * included, is JSON on exit 0, before AGENT_DEADLINE_MS. How a refusal is written: ./answer.ts.
 */

export const clineHost: Host = {
  name: 'cline',
  label: 'Cline CLI 3.0.65',
  deadlineMs: AGENT_DEADLINE_MS,
  init: async () => (await import('./init.js')).clineInit,
  inputs(raw) {
    const input = clinePayloadInput(raw);
    if (input.tool_name === undefined) return [input];
    // A call hookwise refused ran with its refusal as input: nothing of the agent's to read.
    if (typeof input.tool_input?.hookwise_refused === 'string') return [input];
    if (input.hook_event_name !== 'PreToolUse') {
      // After the tool, an input that cannot be read as hookwise's tools is passed as Cline's own tool.
      try {
        return clineToolInputs(input);
      } catch {
        return [input];
      }
    }
    return clineToolInputs(input);
  },
  answer: (outcome, input) => clineAnswer([outcome], [input]),
  answerAll: clineAnswer,
  fireAll: clineFire,
  failure: clineFailure,
};

/**
 * hookwise's own failure: `cancel`, which ends the run before the tool runs. It is the
 * one answer that refuses every tool (the failure may come before the input is read);
 * on TaskComplete, which Cline does not wait for, the run has ended already.
 */
export function clineFailure(_event: string | undefined, reason: string, failOpen: boolean): HostAnswer {
  if (failOpen) return { stderr: `hookwise: ${reason}`, code: 0 };
  const line = `hookwise failed closed: ${reason}`;
  return { stdout: jsonLine({ cancel: true, errorMessage: line }), stderr: line, code: 0 };
}

export { clineHost as host };
