import type { HookInput } from '../../core/input.js';
import { stepNameOf } from '../../core/input.js';
import { allow, modify, type ResultExtras } from '../../core/results.js';
import { refuse } from './block-for.js';
import type { Protocol } from './types.js';
import { InvalidHookOutputError } from './claude-code.js';

/** WorkflowFramework names for the canonical events it has; others keep the canonical name. */
const SEED_000_NAMES: Record<string, string> = {
  SessionStart: 'WorkflowStarting',
  SessionEnd: 'WorkflowCompleted',
  PreModelCall: 'PreAgentPrompt',
  PreToolUse: 'PreToolCall',
  PostToolUse: 'PostToolCall',
  PostToolUseFailure: 'PostToolCallFailure',
  StepEnd: 'StepCompleted',
  SubagentStart: 'SubWorkflowStarting',
  SubagentStop: 'SubWorkflowCompleted',
};

export function workflowEventName(event: string): string {
  return SEED_000_NAMES[event] ?? event;
}

/** HookDecision of WorkflowFramework, as a number or as the enum's name. */
function decisionOf(value: unknown): 'allow' | 'deny' | 'modify' | undefined {
  if (value === undefined || value === null || value === 0) return 'allow';
  if (value === 1) return 'deny';
  if (value === 2) return 'modify';
  if (typeof value === 'string') {
    const word = value.toLowerCase();
    if (word === 'allow' || word === 'deny' || word === 'modify') return word;
  }
  return undefined;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function modifiedArgsOf(value: unknown): Record<string, unknown> {
  const args = typeof value === 'string' ? parseObject(value) : value;
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new InvalidHookOutputError(
      `workflow hook answered Decision 2 (Modify) without ModifiedArgs as a JSON object: ${JSON.stringify(value) ?? 'undefined'}`,
    );
  }
  return args as Record<string, unknown>;
}

/**
 * WorkflowFramework's CommandHook protocol. stdin `{event, stepName, toolName, toolArgs}`
 * with toolArgs a JSON string; stdout `{Decision: 0|1|2, Reason, ModifiedArgs}`.
 * A non-zero exit is a deny; empty or unparseable stdout lets the operation go on.
 */
export const workflowProtocol: Protocol = {
  name: 'workflow',

  stdin(input: HookInput, event: string) {
    return JSON.stringify({
      event: workflowEventName(event),
      stepName: stepNameOf(input) || null,
      toolName: typeof input.tool_name === 'string' ? input.tool_name : null,
      toolArgs: input.tool_input === undefined ? null : JSON.stringify(input.tool_input),
    });
  },

  read({ exitCode, stdout }, event) {
    if (exitCode !== 0) return refuse(event, `Command exited with code ${exitCode}`);
    const answer = parseObject(stdout.trim());
    if (answer === undefined) return undefined;
    const decision = decisionOf(answer.Decision);
    if (decision === undefined) {
      throw new InvalidHookOutputError(
        `workflow hook answered an unknown Decision ${JSON.stringify(answer.Decision)}; expected 0 (Allow), 1 (Deny) or 2 (Modify)`,
      );
    }
    const reason = typeof answer.Reason === 'string' && answer.Reason !== '' ? answer.Reason : undefined;
    const extras: ResultExtras = {};
    if (typeof answer.OutputMessage === 'string' && answer.OutputMessage !== '') extras.systemMessage = answer.OutputMessage;
    if (decision === 'deny') return refuse(event, reason ?? 'denied by workflow hook', extras);
    if (decision === 'modify') return modify(modifiedArgsOf(answer.ModifiedArgs), { ...extras, reason });
    return allow(reason, extras);
  },
};
