import type { HookInput } from '../../core/input.js';
import { openCodeToolInputs } from './tools.js';
import { HostInputError } from '../errors.js';

/**
 * What hookwise's OpenCode plugin (./plugin.ts) sends `hookwise opencode` on stdin: the
 * plugin hook that fired, under its OpenCode name, with the fields hookwise reads.
 * `session.start` is the plugin's own: OpenCode's `session.created` is a passive event
 * no plugin can answer, so the plugin fires it before a session's first prompt.
 */
export interface OpenCodeCall {
  hook?: string;
  /** The project OpenCode runs in (the plugin's `directory`). */
  directory?: string;
  sessionID?: string;
  tool?: string;
  callID?: string;
  args?: Record<string, unknown>;
  /** tool.execute.after: what the tool returned. */
  output?: unknown;
  title?: unknown;
  metadata?: unknown;
  /** chat.message: the text of the user's prompt. */
  prompt?: string;
  agent?: string;
}

/** OpenCode's hooks, each as the hookwise event it is. */
export const OPENCODE_EVENTS: Readonly<Record<string, string>> = {
  'session.start': 'SessionStart',
  'chat.message': 'UserPromptSubmit',
  'tool.execute.before': 'PreToolUse',
  'tool.execute.after': 'PostToolUse',
  'session.idle': 'Stop',
};

export function openCodeInputs(raw: Record<string, unknown>): HookInput[] {
  const call = raw as OpenCodeCall;
  const event = typeof call.hook === 'string' ? OPENCODE_EVENTS[call.hook] : undefined;
  if (event === undefined)
    throw new HostInputError(
      `stdin: unknown OpenCode hook ${JSON.stringify(call.hook)}; hookwise's plugin sends ${Object.keys(OPENCODE_EVENTS).join(', ')} (run \`hookwise init opencode\` again)`,
    );
  const base: HookInput = {
    hook_event_name: event,
    ...(typeof call.sessionID === 'string' && { session_id: call.sessionID }),
    ...(typeof call.directory === 'string' && { cwd: call.directory }),
    ...(typeof call.agent === 'string' && { agent_type: call.agent }),
  };
  switch (event) {
    case 'SessionStart':
      return [{ ...base, source: 'startup' }];
    case 'UserPromptSubmit':
      return [{ ...base, prompt: typeof call.prompt === 'string' ? call.prompt : '' }];
    case 'Stop':
      return [{ ...base, stop_hook_active: false }];
    default: {
      if (typeof call.tool !== 'string' || call.tool === '') throw new HostInputError(`stdin: ${call.hook} without a tool name`);
      const tool: HookInput = {
        ...base,
        tool_name: call.tool,
        tool_input: isObject(call.args) ? call.args : {},
        ...(typeof call.callID === 'string' && { tool_use_id: call.callID }),
      };
      if (event === 'PostToolUse') tool.tool_response = { output: call.output, title: call.title, metadata: call.metadata };
      return openCodeToolInputs(tool);
    }
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
