import type { HookInput } from '../core/input.js';

/**
 * Each agent's shell and file tools as hookwise's (`Bash`, `Write`, `Edit`, `Read`,
 * `Glob`, `Grep`), so that one policy means the same in every agent: a `Bash` matcher
 * sees droid's `Execute`, the path guard sees Copilot's `path` as `file_path`.
 * The agent's own name stays in `tool_input`'s sibling `agent_tool_name`, so a hook
 * that needs it can tell them apart and the audit trail shows what the agent called.
 */
export interface ToolMapping {
  /** hookwise's tool name. */
  tool: string;
  /** Input field renames: agent field → hookwise field (the agent's field is kept too). */
  fields?: Record<string, string>;
}

export type ToolTable = Readonly<Record<string, ToolMapping>>;

export function normaliseTool(input: HookInput, table: ToolTable): HookInput {
  const name = input.tool_name;
  if (typeof name !== 'string') return input;
  const mapping = table[name];
  if (!mapping) return input;
  const toolInput = input.tool_input;
  let mapped = toolInput;
  if (mapping.fields && isObject(toolInput)) {
    mapped = { ...toolInput };
    for (const [from, to] of Object.entries(mapping.fields)) {
      if (toolInput[from] !== undefined && toolInput[to] === undefined) mapped[to] = toolInput[from];
    }
  }
  return { ...input, tool_name: mapping.tool, agent_tool_name: name, ...(mapped !== undefined && { tool_input: mapped }) };
}

/**
 * A rewrite of a normalised input, in the agent's own fields again: the agent runs
 * what it knows (droid's `Execute` reads `command`, Copilot's file tool reads `path`).
 */
export function denormaliseInput(updated: Record<string, unknown>, original: HookInput, table: ToolTable): Record<string, unknown> {
  const name = original.agent_tool_name;
  const mapping = typeof name === 'string' ? table[name] : undefined;
  if (!mapping?.fields) return updated;
  const out: Record<string, unknown> = { ...updated };
  for (const [from, to] of Object.entries(mapping.fields)) {
    // hookwise's field wins (a hook rewrote that one); the agent gets its own name back, not one it may reject.
    if (updated[to] !== undefined) out[from] = updated[to];
    delete out[to];
  }
  return out;
}

/**
 * An MCP server's tool under Claude Code's name for it (`mcp__<server>__<tool>`), the
 * name a policy's matcher uses whatever the agent calls it (Gemini's `mcp_<server>_<tool>`).
 * The agent's own name stays as `agent_tool_name`.
 */
export function asMcpTool(input: HookInput, server: unknown, tool: unknown): HookInput {
  if (typeof server !== 'string' || typeof tool !== 'string' || server === '' || tool === '') return input;
  return { ...input, tool_name: `mcp__${server}__${tool}`, agent_tool_name: input.tool_name };
}

/**
 * An agent's `<server><separator><tool>` as `mcp__<server>__<tool>`. The server is the
 * longest of `servers` (those the agent's config names) the name starts with, since a
 * server's name may hold the separator too; else the name splits at its first separator.
 * A name without the separator is not an MCP tool and stays as it is.
 */
export function mcpToolNamed(input: HookInput, separator: string, servers: readonly string[] = []): HookInput {
  const name = input.tool_name;
  if (typeof name !== 'string' || name.indexOf(separator) <= 0) return input;
  const server =
    servers.filter((s) => name.startsWith(`${s}${separator}`)).sort((a, b) => b.length - a.length)[0] ??
    name.slice(0, name.indexOf(separator));
  return asMcpTool(input, server, name.slice(server.length + separator.length));
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
