import type { HookInput } from '../../core/input.js';
import { answerOf, claudeShapedAnswer, eventName, jsonFailure, replacedOutputEndsTheRun } from '../claude-shaped.js';
import { AGENT_DEADLINE_MS, type Host } from '../host.js';
import { claudePreToolOutput, preToolAnswer } from '../pre-tool-use.js';
import { mcpToolNamed, normaliseTool, type ToolTable } from '../tools.js';
import { codexInputs } from '../codex/tools.js';

/**
 * Factory droid 0.215.0 (`hookwise droid`, written to `~/.factory/hooks.json` by
 * `hookwise init droid`). Claude-shaped input with its own tool names (`Execute` for
 * the shell, `Create` for new files, `ApplyPatch` with patch text, `<server>___<tool>` for
 * an MCP tool, three underscores, which none of its own tools holds). Exit 1 runs the tool
 * (its stderr prepended to the output), a timeout runs it too, and exit 2 on Stop keeps
 * the agent going: every answer is JSON on exit 0, before AGENT_DEADLINE_MS. droid reads
 * a tool's original output whatever a PostToolUse hook answers, but for `continue: false`,
 * which ends the run before the model reads it.
 */
export const DROID_TIMEOUT_S = 60;

export const DROID_TOOLS: ToolTable = {
  Execute: { tool: 'Bash' },
  Create: { tool: 'Write' },
  Edit: { tool: 'Edit' },
  MultiEdit: { tool: 'MultiEdit' },
  Read: { tool: 'Read' },
  LS: { tool: 'Glob', fields: { directory_path: 'path' } },
  Glob: { tool: 'Glob' },
  Grep: { tool: 'Grep' },
};

export const droidHost: Host = {
  name: 'droid',
  label: 'droid 0.215.0',
  deadlineMs: AGENT_DEADLINE_MS,
  init: async () => (await import('./init.js')).droidInit,
  inputs(raw) {
    const input: HookInput = { ...raw, hook_event_name: eventName(raw) as string };
    if (input.tool_name === 'ApplyPatch') {
      const patch = input.tool_input?.patch ?? input.tool_input?.input ?? input.tool_input?.command;
      return codexInputs({ ...input, tool_name: 'apply_patch', tool_input: { ...input.tool_input, command: patch } });
    }
    const name = input.tool_name;
    return [typeof name === 'string' && DROID_TOOLS[name] ? normaliseTool(input, DROID_TOOLS) : mcpToolNamed(input, '___')];
  },
  answer(outcome, input) {
    if (outcome.event !== 'PreToolUse')
      return answerOf(replacedOutputEndsTheRun(outcome, input, claudeShapedAnswer(outcome, input, DROID_TOOLS), 'droid'));
    return answerOf(claudePreToolOutput(preToolAnswer(outcome, input, { askAllowed: true, agent: 'droid', table: DROID_TOOLS })));
  },
  failure: jsonFailure,
};

export { droidHost as host };
