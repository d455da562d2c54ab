import type { HookInput } from '../../core/input.js';
import { asMcpTool } from '../tools.js';

/**
 * droid 0.215.0 names an MCP server's tool `<server>___<tool>` in its hooks (three
 * underscores; seen with the agent suite's sentinel server: `sentinel___touch`), and none
 * of its own tools holds `___`. The policy sees `mcp__<server>__<tool>`, as Claude Code
 * names it; the name splits at its first `___`.
 */
const SEPARATOR = '___';

export function droidMcpTool(input: HookInput): HookInput {
  const name = input.tool_name;
  const at = typeof name === 'string' ? name.indexOf(SEPARATOR) : -1;
  if (typeof name !== 'string' || at <= 0) return input;
  return asMcpTool(input, name.slice(0, at), name.slice(at + SEPARATOR.length));
}
