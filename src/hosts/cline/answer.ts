import type { HookInput } from '../../core/input.js';
import type { Outcome } from '../../core/outcome.js';
import { type Carried, type HostAnswer, jsonLine } from '../host.js';
import { preToolAnswer } from '../pre-tool-use.js';
import { editorInputOf, RUN_COMMANDS, shellQuote } from './tools.js';
import { createScanner } from '../../secrets/scan.js';

/**
 * hookwise's Outcomes as the control JSON Cline CLI 3.0.65 reads from a hook's stdout:
 * `context` (added to the conversation after the tool's result), `overrideInput` (the
 * input the tool runs with instead) and `cancel` (ends the whole run). Cline has no
 * per-call refusal and ignores exit codes, so a refusal that lets the agent go on is
 * written as an input that cannot do what was refused:
 *
 * - `run_commands`: every command is replaced by one that prints the refusal and exits 1,
 *   so the model reads the reason as the call's result. One refused command refuses the
 *   whole call (the rest are named as not run).
 * - `editor`, `apply_patch`, `read_files`: an input their own validation rejects (nothing
 *   is written or read), with the reason as `context`.
 * - any other tool (MCP, subagents, …), whose validation hookwise does not know: `cancel`.
 *
 * docs/agents.md ("Enforcement coverage") records this choice.
 */
const REJECTED_BY_VALIDATION = new Set(['editor', 'apply_patch', 'read_files']);
/** Tools whose every judged input can be written back on its own (the others refuse a rewrite). */
const REWRITTEN_ALONE = new Set([RUN_COMMANDS, 'editor']);

export type ClineControl = { cancel?: true; errorMessage?: string; context?: string; overrideInput?: unknown };

/**
 * `carried`: what the task's earlier, detached events left for this PreToolUse (./carried.ts):
 * its context goes with this answer, and a stop among them ends the run. No outcomes: the
 * event was fired elsewhere (a TaskStart whose SessionStart a PreToolUse fired first).
 */
export function clineAnswer(outcomes: Outcome[], inputs: HookInput[], carried?: Carried): HostAnswer {
  const control: ClineControl = carried?.stop
    ? cancel(carried.stop)
    : outcomes.length === 0
      ? {}
      : outcomes[0]!.event === 'PreToolUse'
        ? preToolControl(outcomes, inputs, carried?.context ?? [])
        : otherControl(outcomes[0]!);
  return Object.keys(control).length > 0 ? { stdout: jsonLine(control), code: 0 } : { code: 0 };
}

function preToolControl(outcomes: Outcome[], inputs: HookInput[], earlier: string[]): ClineControl {
  const contexts = [...earlier, ...outcomes.map((o) => o.additionalContext).filter((c): c is string => !!c)];
  const stopped = outcomes.find((o) => o.stop);
  if (stopped) return cancel(stopped.stopReason ?? stopped.reason ?? 'a hookwise hook ended the run');
  const agentTool = inputs[0]!.agent_tool_name ?? inputs[0]!.tool_name;
  const replaced: Array<string | undefined> = [];
  let override: Record<string, unknown> | undefined;
  for (const [i, o] of outcomes.entries()) {
    const input = inputs[i]!;
    // A command of run_commands, or an editor call, is rewritten on its own: its input stands alone.
    const alone = REWRITTEN_ALONE.has(String(agentTool)) ? { ...input, agent_tool_input: undefined } : input;
    const a = preToolAnswer(o, alone, { askAllowed: false, agent: 'Cline' });
    if (a.kind === 'deny') return refusal(input, inputs, a.reason, contexts);
    if (a.kind !== 'allow' || !a.updatedInput) continue;
    if (agentTool === RUN_COMMANDS) {
      const command = a.updatedInput.command;
      if (typeof command !== 'string') return refusal(input, inputs, 'a hookwise rewrite of this command has no command', contexts);
      replaced[input.command_index as number] = command;
    } else if (agentTool === 'editor') override = editorInputOf(a.updatedInput, input.agent_tool_input as Record<string, unknown>);
    else override = a.updatedInput;
  }
  const out: ClineControl = {};
  if (agentTool === RUN_COMMANDS && replaced.length > 0) {
    out.overrideInput = { commands: inputs.map((input) => replaced[input.command_index as number] ?? input.tool_input?.command) };
  } else if (override) out.overrideInput = override;
  if (contexts.length > 0) out.context = contexts.join('\n');
  return out;
}

function refusal(refused: HookInput, inputs: HookInput[], reason: string, contexts: string[]): ClineControl {
  const tool = String(refused.agent_tool_name ?? refused.tool_name);
  if (tool === RUN_COMMANDS) {
    const others = inputs.length - 1;
    const line = `hookwise refused the command \`${withoutSecrets(String(refused.tool_input?.command))}\`: ${reason}${
      others > 0 ? ` (the ${others} other command${others > 1 ? 's' : ''} of this call did not run either)` : ''
    }`;
    return { overrideInput: { commands: [reportCommand(line)] }, ...(contexts.length > 0 && { context: contexts.join('\n') }) };
  }
  const line = `hookwise refused this ${tool} call: ${reason}`;
  if (REJECTED_BY_VALIDATION.has(tool)) return { overrideInput: { hookwise_refused: line }, context: [line, ...contexts].join('\n') };
  return cancel(`${line} (Cline cannot refuse one ${tool} call, so the run ends)`);
}

/**
 * The refused command as the refusal quotes it, its secrets masked: the refusal is the
 * call's output, so a secret quoted there would reach the model (and the secret guard's
 * PostToolUse hook, finding it, would end the run: Cline cannot replace an output).
 */
const SECRETS = createScanner();
const withoutSecrets = (command: string): string => SECRETS.redact(command);

/** A command that only prints the refusal (to the model, as the call's result) and fails. */
export const reportCommand = (line: string): string => `printf '%s\\n' ${shellQuote(line)} >&2; exit 1`;

/**
 * Every other event. Cline CLI 3.0.65 waits only for PreToolUse and PostToolUse (the
 * rest run detached, their output unread), and after a tool only `context` and `cancel`
 * count. A PostToolUse block is feedback for the model, as in Claude Code; an output
 * hookwise would replace (a secret) cannot be, so the run ends before the model reads it.
 */
function otherControl(o: Outcome): ClineControl {
  const contexts = [o.additionalContext, o.blocked ? o.reason : null].filter((c): c is string => !!c);
  if (o.stop) return cancel(o.stopReason ?? o.reason ?? 'a hookwise hook ended the run');
  if (o.event === 'PostToolUse' && o.updatedOutput !== null && o.updatedOutput !== undefined)
    return cancel(
      `hookwise would replace this tool's output (${o.reason ?? 'a hookwise hook'}), which Cline's hooks cannot do: the run ends before the model reads it`,
    );
  if (o.blocked && o.event !== 'PostToolUse') return cancel(o.reason ?? 'refused by a hookwise hook');
  return contexts.length > 0 ? { context: contexts.join('\n') } : {};
}

const cancel = (reason: string): ClineControl => ({ cancel: true, errorMessage: reason });
