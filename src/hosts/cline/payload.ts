import type { HookInput } from '../../core/input.js';
import { HostInputError } from '../errors.js';

/**
 * Cline's hook payload as hookwise's input. Cline CLI 3.0.65 sends every hook file the
 * same JSON shape, named by `hookName` in its SDK's words (`tool_call`, `agent_end`, …;
 * the VS Code extension's payloads name the file instead, `PreToolUse`), with
 * `taskId`, `workspaceRoots` and the event's own object (`tool_call {id, name, input}`,
 * `tool_result {…, output}`, `turn {outputText}`, `userPromptSubmit {prompt}`).
 */
const EVENTS: Readonly<Record<string, { event: string; extra?: Record<string, unknown> }>> = {
  agent_start: { event: 'SessionStart', extra: { source: 'startup' } },
  agent_resume: { event: 'SessionStart', extra: { source: 'resume' } },
  prompt_submit: { event: 'UserPromptSubmit' },
  tool_call: { event: 'PreToolUse' },
  tool_result: { event: 'PostToolUse' },
  agent_end: { event: 'Stop' },
  agent_error: { event: 'StopFailure' },
  agent_abort: { event: 'SessionEnd', extra: { reason: 'cancelled' } },
  session_shutdown: { event: 'SessionEnd' },
  // The hook files' own names, as the VS Code extension sends them.
  TaskStart: { event: 'SessionStart', extra: { source: 'startup' } },
  TaskResume: { event: 'SessionStart', extra: { source: 'resume' } },
  UserPromptSubmit: { event: 'UserPromptSubmit' },
  PreToolUse: { event: 'PreToolUse' },
  PostToolUse: { event: 'PostToolUse' },
  TaskComplete: { event: 'Stop' },
  TaskError: { event: 'StopFailure' },
  TaskCancel: { event: 'SessionEnd', extra: { reason: 'cancelled' } },
  SessionShutdown: { event: 'SessionEnd' },
  PreCompact: { event: 'PreCompact' },
};

/** The hookwise input of one Cline payload, before its tool is normalised (./tools.ts). */
export function clinePayloadInput(raw: Record<string, unknown>): HookInput {
  const name = raw.hookName ?? raw.hook_event_name;
  if (typeof name !== 'string' || name === '')
    throw new HostInputError('stdin: hookName is missing; expected the JSON Cline sends a hook file');
  const mapped = EVENTS[name];
  if (!mapped) throw new HostInputError(`stdin: Cline hookName "${name}" is not one hookwise answers (${Object.keys(EVENTS).join(', ')})`);
  const roots = Array.isArray(raw.workspaceRoots) ? raw.workspaceRoots : [];
  const cwd = typeof roots[0] === 'string' ? roots[0] : typeof raw.cwd === 'string' ? raw.cwd : undefined;
  const input: HookInput = {
    hook_event_name: mapped.event,
    ...(typeof raw.taskId === 'string' && { session_id: raw.taskId }),
    ...(cwd !== undefined && { cwd }),
    ...(typeof raw.timestamp === 'string' && { timestamp: raw.timestamp }),
    ...(typeof raw.agent_id === 'string' && { agent_id: raw.agent_id }),
    ...mapped.extra,
    agent_event_name: name,
  };
  const call = toolCallOf(raw);
  if (call) {
    input.tool_name = call.name;
    input.tool_input = call.input;
    if (call.id !== undefined) input.tool_use_id = call.id;
    if (call.output !== undefined) input.tool_response = call.output;
    if (call.error !== undefined) input.error = call.error;
  }
  const prompt = (raw.userPromptSubmit as { prompt?: unknown } | undefined)?.prompt;
  if (typeof prompt === 'string') input.prompt = prompt;
  const turn = raw.turn as { outputText?: unknown } | undefined;
  if (typeof turn?.outputText === 'string') input.last_assistant_message = turn.outputText;
  if (raw.error !== undefined && input.error === undefined) input.error = raw.error;
  if (typeof raw.reason === 'string' && input.reason === undefined) input.reason = raw.reason;
  return input;
}

interface ToolCall {
  name: string;
  input: Record<string, unknown>;
  id?: string;
  output?: unknown;
  error?: unknown;
}

function toolCallOf(raw: Record<string, unknown>): ToolCall | undefined {
  const call = (raw.tool_call ?? raw.tool_result) as Record<string, unknown> | undefined;
  if (call && typeof call.name === 'string') {
    return {
      name: call.name,
      input: objectOf(call.input),
      ...(typeof call.id === 'string' && { id: call.id }),
      ...(raw.tool_result !== undefined && { output: call.output }),
      ...(call.error !== undefined && { error: call.error }),
    };
  }
  // The extension's shape: parameters whose values are strings (JSON for arrays and objects).
  const legacy = (raw.preToolUse ?? raw.postToolUse) as Record<string, unknown> | undefined;
  if (legacy && typeof legacy.toolName === 'string') {
    return {
      name: legacy.toolName,
      input: parsedParameters(legacy.parameters),
      ...(raw.postToolUse !== undefined && { output: legacy.result }),
    };
  }
  return undefined;
}

function parsedParameters(value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(objectOf(value))) {
    if (typeof v === 'string' && /^\s*[[{]/.test(v)) {
      try {
        out[key] = JSON.parse(v);
        continue;
      } catch {}
    }
    out[key] = v;
  }
  return out;
}

/** A tool input that is not an object (Cline's tools also take a bare string or array) is kept under `input`. */
function objectOf(value: unknown): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  return value === undefined ? {} : { input: value };
}
