/**
 * The input a hook receives: Claude Code's wire format, snake_case field names.
 * Only the fields hookwise reads are typed; anything else passes through.
 */
export interface HookInput {
  hook_event_name?: string;
  session_id?: string;
  cwd?: string;
  timestamp?: string;
  transcript_path?: string;
  agent_id?: string;
  agent_type?: string;
  step?: { index?: number; name?: string };
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  tool_use_id?: string;
  tool_response?: unknown;
  error?: unknown;
  prompt?: string;
  source?: string;
  trigger?: string;
  notification_type?: string;
  metadata?: Record<string, unknown>;
  [field: string]: unknown;
}

/** The file a tool call is about: `file_path`, else `path`, else `notebook_path`. */
export function filePathOf(input: HookInput): string | undefined {
  const args = input.tool_input;
  if (!args || typeof args !== 'object') return undefined;
  for (const key of ['file_path', 'path', 'notebook_path']) {
    const value = args[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/** The step's name, whichever way the host wrote it. */
export function stepNameOf(input: HookInput): string {
  if (typeof input.step_name === 'string') return input.step_name;
  return typeof input.step?.name === 'string' ? input.step.name : '';
}
