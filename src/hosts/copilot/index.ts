import type { HookInput } from '../../core/input.js';
import { answerOf, claudeShapedAnswer, eventName, jsonFailure, replacedOutputAsBlock } from '../claude-shaped.js';
import { AGENT_DEADLINE_MS, type Host } from '../host.js';
import { claudePreToolOutput, preToolAnswer } from '../pre-tool-use.js';
import { normaliseTool, type ToolTable } from '../tools.js';
import { copilotMcpTool } from './mcp.js';

/**
 * GitHub Copilot CLI 1.0.102 (`hookwise copilot`, written to `.github/hooks/hookwise.json`
 * by `hookwise init copilot`). With a hooks file in Claude Code's format it sends
 * Claude-shaped input, but its file tools keep their own fields (`Write {path,
 * file_text}`, `Edit {path, old_str, new_str}`), the tool's result comes as
 * `tool_result`, context counts only as a top-level `additionalContext`, a replaced
 * output only as a block's reason, and a hook that times out lets the tool run
 * (hookwise answers before AGENT_DEADLINE_MS).
 */
export const COPILOT_TIMEOUT_S = 60;

const FILE = { path: 'file_path' };
export const COPILOT_TOOLS: ToolTable = {
  bash: { tool: 'Bash' },
  Write: { tool: 'Write', fields: { ...FILE, file_text: 'content' } },
  create: { tool: 'Write', fields: { ...FILE, file_text: 'content' } },
  Edit: { tool: 'Edit', fields: { ...FILE, old_str: 'old_string', new_str: 'new_string' } },
  edit: { tool: 'Edit', fields: { ...FILE, old_str: 'old_string', new_str: 'new_string' } },
  Read: { tool: 'Read', fields: FILE },
  view: { tool: 'Read', fields: FILE },
  glob: { tool: 'Glob' },
  grep: { tool: 'Grep' },
};

export const copilotHost: Host = {
  name: 'copilot',
  label: 'Copilot CLI 1.0.102',
  deadlineMs: AGENT_DEADLINE_MS,
  init: async () => (await import('./init.js')).copilotInit,
  inputs(raw) {
    const input: HookInput = { ...raw, hook_event_name: eventName(raw) as string };
    if (input.tool_response === undefined && raw.tool_result !== undefined) input.tool_response = raw.tool_result;
    const name = input.tool_name;
    return [typeof name === 'string' && COPILOT_TOOLS[name] ? normaliseTool(input, COPILOT_TOOLS) : copilotMcpTool(input)];
  },
  answer(outcome, input) {
    const out =
      outcome.event === 'PreToolUse'
        ? claudePreToolOutput(preToolAnswer(outcome, input, { askAllowed: true, agent: 'Copilot', table: COPILOT_TOOLS }))
        : replacedOutputAsBlock(outcome, claudeShapedAnswer(outcome, input, COPILOT_TOOLS));
    // Copilot reads context from the top level only (Claude Code's place for it is ignored).
    if (outcome.additionalContext) return answerOf({ ...out, additionalContext: outcome.additionalContext });
    return answerOf(out);
  },
  failure: jsonFailure,
};

export { copilotHost as host };
