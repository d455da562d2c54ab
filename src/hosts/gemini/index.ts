import type { HookInput } from '../../core/input.js';
import { AGENT_DEADLINE_MS, type Host } from '../host.js';
import { asMcpTool, normaliseTool } from '../tools.js';
import { geminiAnswer, geminiFailure } from './answer.js';
import { GEMINI_EVENTS } from './events.js';
import { GEMINI_TOOLS } from './tools.js';
import { HostInputError } from '../errors.js';

/**
 * Gemini CLI 0.61.0 (`hookwise gemini`, written to the project's `.gemini/settings.json`
 * by `hookwise init gemini`). Its hooks speak their own protocol: its event names
 * (./events.ts), its tool names (./tools.ts), and answers as ./answer.ts writes them.
 * A hook that exits 1 or times out lets the tool run, so hookwise answers JSON on exit 0,
 * before AGENT_DEADLINE_MS (GEMINI_TIMEOUT_MS is the timeout init writes; Gemini reads it in ms).
 */
export const GEMINI_TIMEOUT_MS = 60_000;

export const geminiHost: Host = {
  name: 'gemini',
  label: 'Gemini CLI 0.61.0',
  deadlineMs: AGENT_DEADLINE_MS,
  init: async () => (await import('./init.js')).geminiInit,
  inputs(raw) {
    const named = raw.hook_event_name;
    const event = typeof named === 'string' ? GEMINI_EVENTS[named] : undefined;
    if (named === 'BeforeToolSelection')
      throw new HostInputError(
        'Gemini\'s BeforeToolSelection has no hookwise event; remove hookwise from "hooks.BeforeToolSelection" in .gemini/settings.json',
      );
    const input: HookInput = { ...raw, hook_event_name: event ?? (named as string), agent_event_name: named };
    // Claude Code names the last reply of a turn `last_assistant_message`; Gemini calls it `prompt_response`.
    if (event === 'Stop' && input.last_assistant_message === undefined && typeof raw.prompt_response === 'string')
      input.last_assistant_message = raw.prompt_response;
    // An MCP tool comes as `mcp_<server>_<tool>` (ambiguous when a name holds `_`), with its server and tool named apart.
    const mcp = raw.mcp_context as { server_name?: unknown; tool_name?: unknown } | undefined;
    if (mcp && typeof mcp === 'object') return [asMcpTool(input, mcp.server_name, mcp.tool_name)];
    return [normaliseTool(input, GEMINI_TOOLS)];
  },
  answer: geminiAnswer,
  failure: geminiFailure,
};

export { geminiHost as host };
