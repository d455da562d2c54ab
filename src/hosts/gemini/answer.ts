import type { HookInput } from '../../core/input.js';
import type { Outcome } from '../../core/outcome.js';
import { type PreToolAnswer, preToolAnswer } from '../pre-tool-use.js';
import { END_OF_TURN, type HostAnswer, jsonLine } from '../host.js';
import { deliverable } from './shell.js';
import { GEMINI_TOOLS } from './tools.js';

/**
 * An Outcome as Gemini CLI 0.61.0 reads a hook's JSON (exit 0 always): a refusal is the
 * top-level `decision: "deny"` with its `reason` (the model sees `Tool execution
 * blocked: <reason>`), a rewrite is `hookSpecificOutput.tool_input` (merged over the
 * model's arguments), context is `hookSpecificOutput.additionalContext`, a stop is
 * `continue: false`. `ask` is refused: Gemini's headless mode waits for ever on it.
 */
export function geminiAnswer(outcome: Outcome, input: HookInput): HostAnswer {
  const out: Record<string, unknown> = {};
  const specific: Record<string, unknown> = { hookEventName: input.agent_event_name ?? outcome.event };
  // A block at the end of a turn that a failed hook made arrives as a stop already (../answer.ts).
  if (outcome.stop) {
    out.continue = false;
    out.stopReason = outcome.stopReason ?? outcome.reason ?? 'stopped by a hookwise hook';
  }
  if (outcome.event === 'PreToolUse') {
    const a = shellDelivered(preToolAnswer(outcome, input, { askAllowed: false, agent: 'Gemini CLI', table: GEMINI_TOOLS }), input);
    if (a.kind === 'deny') Object.assign(out, { decision: 'deny', reason: a.reason });
    else if (a.kind === 'allow') {
      out.decision = 'allow';
      if (a.updatedInput) specific.tool_input = a.updatedInput;
    }
  } else if (outcome.event === 'PostToolUse' && outcome.updatedOutput !== null && outcome.updatedOutput !== undefined) {
    // Gemini has no field for a replaced output: a denied AfterTool sends its reason instead of the result.
    Object.assign(out, { decision: 'deny', reason: textOf(outcome.updatedOutput) });
  } else if (outcome.blocked || outcome.decision === 'deny') {
    // UserPromptSubmit: the prompt is dropped; Stop: the reason is the agent's next prompt, as in Claude Code.
    Object.assign(out, { decision: 'deny', reason: outcome.reason ?? 'blocked by a hookwise hook' });
  }
  if (outcome.additionalContext) specific.additionalContext = outcome.additionalContext;
  if (outcome.systemMessage) out.systemMessage = outcome.systemMessage;
  if (outcome.suppressOutput) out.suppressOutput = true;
  if (Object.keys(specific).length > 1) out.hookSpecificOutput = specific;
  return Object.keys(out).length > 0 ? { stdout: jsonLine(out), code: 0 } : { code: 0 };
}

/** A rewritten shell command in the form Gemini runs (./shell.ts), or a refusal when there is none. */
function shellDelivered(a: PreToolAnswer, input: HookInput): PreToolAnswer {
  const command = a.kind === 'allow' ? a.updatedInput?.command : undefined;
  if (a.kind !== 'allow' || input.agent_tool_name !== 'run_shell_command' || typeof command !== 'string') return a;
  const d = deliverable(command, input.tool_input?.command);
  if ('refusal' in d) return { kind: 'deny', reason: d.refusal };
  return { ...a, updatedInput: { ...a.updatedInput, command: d.command } };
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * hookwise's own failure, as Gemini fails closed on it. Exit 1 and a timeout both let
 * Gemini go on (a warning), so every answer is JSON on exit 0: `decision: "deny"`
 * refuses the tool, drops the prompt, aborts the model call or withholds a tool's
 * output; at the end of a turn (AfterAgent) `continue: false` ends the run, since a deny
 * there sends the agent round again. An event not yet read gets both: whatever it was,
 * nothing runs and the run ends.
 */
export function geminiFailure(event: string | undefined, reason: string, failOpen: boolean): HostAnswer {
  const line = `hookwise failed closed: ${reason}`;
  if (failOpen) return { stderr: `hookwise: ${reason}`, code: 0 };
  const stop = { continue: false, stopReason: line };
  const deny = { decision: 'deny', reason: line };
  const answer = event === undefined ? { ...stop, ...deny } : END_OF_TURN.has(event) ? stop : deny;
  return { stdout: jsonLine(answer), stderr: line, code: 0 };
}
