import type { HookInput } from '../../core/input.js';
import { modify, type HookResult, type ResultExtras } from '../../core/results.js';
import { refuse } from './block-for.js';
import type { Protocol } from './types.js';

/** PreToolUse -> pre_tool_use; names already in snake_case stay as they are. */
export function snakeCaseEvent(event: string): string {
  return event
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

function parseObject(text: string): Record<string, unknown> | undefined {
  if (text === '') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const nonEmptyString = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * claude-agent-rs' command protocol. stdin `{event, session_id,
 * tool_name, tool_input}`; stdout a HookOutput in snake_case. `continue_execution:
 * false` blocks the operation (it does not stop the agent). A non-zero exit blocks;
 * empty or unparseable stdout lets the operation go on.
 */
export const claudeAgentRsProtocol: Protocol = {
  name: 'claude-agent-rs',

  stdin(input: HookInput, event: string) {
    return JSON.stringify({
      event: snakeCaseEvent(event),
      session_id: input.session_id ?? null,
      tool_name: input.tool_name ?? null,
      tool_input: input.tool_input ?? null,
    });
  },

  read({ exitCode, stdout, stderr }, event): HookResult | undefined {
    if (exitCode !== 0) return refuse(event, stderr.trim() || `Command exited with code ${exitCode}`);
    return readAgentRsOutput(stdout, event);
  },
};

/** A HookOutput printed on stdout, mapped to a result. */
export function readAgentRsOutput(stdout: string, event: string): HookResult | undefined {
  const output = parseObject(stdout.trim());
  if (output === undefined) return undefined;
  const extras: ResultExtras = {};
  const systemMessage = nonEmptyString(output.system_message);
  const additionalContext = nonEmptyString(output.additional_context);
  if (systemMessage !== undefined) extras.systemMessage = systemMessage;
  if (additionalContext !== undefined) extras.additionalContext = additionalContext;
  if (output.suppress_logging === true) extras.suppressOutput = true;
  if (output.continue_execution === false) return refuse(event, nonEmptyString(output.stop_reason) ?? 'blocked by hook', extras);
  const updated = output.updated_input;
  if (typeof updated === 'object' && updated !== null && !Array.isArray(updated)) return modify(updated as Record<string, unknown>, extras);
  if (additionalContext !== undefined) return { kind: 'context', ...extras };
  if (Object.keys(extras).length > 0) return { kind: 'none', ...extras };
  return undefined;
}
