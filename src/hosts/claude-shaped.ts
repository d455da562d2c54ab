import { canonicalEvent, isKnownEvent } from '../compat/event-aliases.js';
import { EXIT_2_BLOCKS, toClaudeCodeOutput } from '../compat/claude-code.js';
import type { HookInput } from '../core/input.js';
import type { Outcome } from '../core/outcome.js';
import { denormaliseInput, type ToolTable } from './tools.js';
import { END_OF_TURN, type HostAnswer, jsonLine } from './host.js';

/**
 * What the agents that read Claude Code's hook protocol share: the Outcome written as
 * Claude Code's JSON (src/compat/claude-code.ts), with each agent's differences applied
 * by its own folder on top.
 */
export function claudeShapedAnswer(outcome: Outcome, input: HookInput, table?: ToolTable): Record<string, unknown> | undefined {
  const out = toClaudeCodeOutput(outcome, input.tool_name);
  const specific = out?.hookSpecificOutput as Record<string, unknown> | undefined;
  if (table && specific?.updatedInput)
    specific.updatedInput = denormaliseInput(specific.updatedInput as Record<string, unknown>, input, table);
  return out;
}

export const answerOf = (out: Record<string, unknown> | undefined): HostAnswer => (out ? { stdout: jsonLine(out), code: 0 } : { code: 0 });

/**
 * hookwise's own failure, for an agent that honours JSON answers: a PreToolUse deny, a
 * blocked prompt, and on end-of-turn events `continue: false` (the run ends; a block
 * there would keep the agent going, for ever if the failure persists). Exit 0 throughout:
 * some agents run the tool on exit 1 (droid) or fail open on it (Codex).
 */
export function jsonFailure(event: string | undefined, reason: string, failOpen: boolean): HostAnswer {
  const line = `hookwise failed closed: ${reason}`;
  // An alias names its event; an unknown name stays as it is.
  const name = event === undefined ? undefined : canonicalEvent(event);
  if (failOpen) return { stderr: `hookwise: ${reason}`, code: 0 };
  if (name === undefined || name === 'PreToolUse')
    return {
      stdout: jsonLine({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: line } }),
      stderr: line,
      code: 0,
    };
  if (name === 'PermissionRequest')
    return {
      stdout: jsonLine({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: line } } }),
      stderr: line,
      code: 0,
    };
  if (END_OF_TURN.has(name)) return { stdout: jsonLine({ continue: false, stopReason: line }), stderr: line, code: 0 };
  if (EXIT_2_BLOCKS.has(name)) return { stdout: jsonLine({ decision: 'block', reason: line }), stderr: line, code: 0 };
  return { stderr: `hookwise: ${reason}`, code: 0 };
}

/** The event an agent named, read as hookwise's (PascalCase); other spellings pass as they are. */
export function eventName(raw: Record<string, unknown>): unknown {
  const name = raw.hook_event_name ?? raw.hookEventName;
  if (typeof name !== 'string' || name === '') return name;
  if (isKnownEvent(name)) return name;
  const pascal = name[0]!.toUpperCase() + name.slice(1);
  return isKnownEvent(pascal) ? pascal : name;
}

/** The output a PostToolUse Outcome puts in the tool's place, if any. */
export const replacementOf = (outcome: Outcome): unknown =>
  outcome.event === 'PostToolUse' && outcome.updatedOutput !== null ? outcome.updatedOutput : undefined;

/** The answer that ends the run before the model reads a tool's output hookwise cannot replace. */
export const withheldOutput = (tool: unknown, why: string): Record<string, unknown> => ({
  continue: false,
  stopReason: `hookwise withheld the output of ${String(tool ?? 'a tool')}: ${why}, so the run ends`,
});

/** What the model reads in place of a tool's output: the replacement as text. */
const outputText = (output: unknown): string => (typeof output === 'string' ? output : JSON.stringify(output));

/**
 * A replaced tool output (`replaceOutput`, the secret guard's redaction) for agents that
 * read no `updatedToolOutput` (Codex fails the hook on it, Copilot ignores it: the
 * original reaches the model either way) but put a PostToolUse block's reason in the
 * output's place (both verified against the CLIs): the replacement becomes that reason.
 */
export function replacedOutputAsBlock(outcome: Outcome, out: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const replacement = replacementOf(outcome);
  if (replacement === undefined) return out;
  const { hookSpecificOutput, ...rest } = out ?? {};
  const specific = { ...(hookSpecificOutput as Record<string, unknown> | undefined) };
  delete specific.updatedToolOutput;
  delete specific.updatedMCPToolOutput;
  const reasons = [outputText(replacement), outcome.blocked ? outcome.reason : null].filter((r) => typeof r === 'string');
  return {
    ...rest,
    decision: 'block',
    reason: reasons.join('\n'),
    ...(Object.keys(specific).length > 1 && { hookSpecificOutput: specific }),
  };
}

/**
 * A replaced tool output for an agent that can neither replace an output nor put a
 * reason in its place (droid reads the original whatever the answer): the run ends
 * before the model reads it, as failing closed means after a tool.
 */
export function replacedOutputEndsTheRun(
  outcome: Outcome,
  input: HookInput,
  out: Record<string, unknown> | undefined,
  agent: string,
): Record<string, unknown> | undefined {
  if (replacementOf(outcome) === undefined) return out;
  return withheldOutput(input.agent_tool_name ?? input.tool_name, `the policy replaces it, and ${agent} cannot be given a replacement`);
}
