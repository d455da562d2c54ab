import type { HookInput } from '../../core/input.js';
import { codexInputs } from '../codex/tools.js';
import { normaliseTool, type ToolTable } from '../tools.js';
import { openCodeMcpTool } from './mcp.js';

/**
 * OpenCode 1.18.33's tools as hookwise's, with their camelCase fields renamed to
 * hookwise's (the tool list is what OpenCode sends the model: `bash`, `write`, `edit`,
 * `read`, `glob`, `grep`, `webfetch`, `task`, `todowrite`, `skill`). Models of the GPT
 * family get `apply_patch {patchText}` instead of write/edit: that patch is judged once
 * per file it touches, as Codex's is. An MCP tool (`<server>_<tool>`) is
 * `mcp__<server>__<tool>` (./mcp.ts).
 */
const FILE = { filePath: 'file_path' };
export const OPENCODE_TOOLS: ToolTable = {
  bash: { tool: 'Bash' },
  write: { tool: 'Write', fields: FILE },
  edit: { tool: 'Edit', fields: { ...FILE, oldString: 'old_string', newString: 'new_string', replaceAll: 'replace_all' } },
  read: { tool: 'Read', fields: FILE },
  glob: { tool: 'Glob' },
  grep: { tool: 'Grep', fields: { include: 'glob' } },
  webfetch: { tool: 'WebFetch' },
  task: { tool: 'Task' },
  todowrite: { tool: 'TodoWrite' },
};

/** One tool call as hookwise's inputs: one, or one per file of an `apply_patch`. */
export function openCodeToolInputs(input: HookInput): HookInput[] {
  if (input.tool_name === 'apply_patch') {
    const patch = input.tool_input?.patchText;
    return codexInputs({ ...input, tool_input: { ...input.tool_input, command: patch } });
  }
  const name = input.tool_name;
  return [typeof name === 'string' && OPENCODE_TOOLS[name] ? normaliseTool(input, OPENCODE_TOOLS) : openCodeMcpTool(input)];
}
