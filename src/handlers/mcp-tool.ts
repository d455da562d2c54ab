import { canonicalEvent } from '../compat/event-aliases.js';
import type { HookInput } from '../core/input.js';
import type { HookHandler } from '../core/spec.js';
import { answerOf } from './protocols/claude-code.js';
import { readClaudeCodeStdout } from '../compat/claude-code.js';
import { missingPackage } from '../core/missing-package.js';
import { HandlerOptionError, HookFailedError } from './errors.js';

/** How to start an MCP server over stdio, as `.mcp.json` / settings `mcpServers` write it. */
export interface McpStdioServer {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/**
 * Claude Code's `mcp_tool` hook: call `tool` of the MCP server `server` with `input`
 * (string values may say `${tool_input.file_path}`: a path into the hook input) and
 * read the tool's text like a command's stdout (JSON output, or plain text). A tool
 * error, or a server that cannot be reached, is a failure (non-blocking by default).
 * The server is started for the call and closed after it: no process outlives the hook.
 */
export interface McpToolHandlerOptions {
  server: string;
  tool: string;
  input?: Record<string, unknown>;
  /** The server's stdio command, found in the configuration; undefined: not configured. */
  launch: McpStdioServer | undefined;
}

function lookup(pathText: string, input: HookInput): unknown {
  let value: unknown = input;
  for (const key of pathText.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** `${a.b}` in string values, from the hook input, as Claude Code interpolates them. */
export function interpolateInput(value: unknown, input: HookInput): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{([a-zA-Z_][a-zA-Z0-9_.]*)\}/g, (_whole, p: string) => {
      const found = lookup(p, input);
      if (found === undefined || found === null) return '';
      return typeof found === 'object' ? JSON.stringify(found) : String(found);
    });
  }
  if (Array.isArray(value)) return value.map((v) => interpolateInput(v, input));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolateInput(v, input)]));
  }
  return value;
}

export function mcpToolHandler(options: McpToolHandlerOptions): HookHandler {
  return async (input, ctx) => {
    if (options.launch === undefined)
      throw new HandlerOptionError(`MCP server '${options.server}' is not configured (mcpServers in the settings file or .mcp.json)`);
    const [{ Client }, { StdioClientTransport }] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/stdio.js'),
    ]).catch((error: unknown) => {
      throw missingPackage(error, '@modelcontextprotocol/sdk', `The mcp_tool hook for server '${options.server}'`);
    });
    const launch = options.launch;
    const transport = new StdioClientTransport({
      command: launch.command,
      args: launch.args ?? [],
      env: { ...(process.env as Record<string, string>), ...launch.env },
      cwd: launch.cwd ?? ctx.cwd,
      stderr: 'ignore',
    });
    const client = new Client({ name: 'hookwise', version: '0.1.0' });
    try {
      await client.connect(transport, { signal: ctx.signal });
      const args = (options.input ? interpolateInput(options.input, input) : {}) as Record<string, unknown>;
      const result = await client.callTool({ name: options.tool, arguments: args }, undefined, { signal: ctx.signal });
      const content = Array.isArray(result.content) ? result.content : [];
      const body = content.map((c: { type: string; text?: string }) => (c.type === 'text' ? (c.text ?? '') : `[${c.type}]`)).join('\n');
      const firstLine = body.split('\n')[0]?.slice(0, 300) ?? '';
      if (result.isError)
        throw new HookFailedError(`MCP tool ${options.server}/${options.tool} returned an error${firstLine ? `: ${firstLine}` : ''}`);
      const event = canonicalEvent(typeof input.hook_event_name === 'string' ? input.hook_event_name : '');
      const reading = readClaudeCodeStdout(body);
      // Plain text from an MCP tool is not context: Claude Code reports the hook as completed.
      return reading.type === 'json' ? answerOf(reading, event, input) : undefined;
    } finally {
      await client.close().catch(() => {});
    }
  };
}
