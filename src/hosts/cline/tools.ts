import type { HookInput } from '../../core/input.js';
import { codexInputs } from '../codex/tools.js';
import { mcpToolNamed } from '../tools.js';
import { HostInputError } from '../errors.js';

/**
 * Cline CLI 3.0.65's tools as hookwise's. One Cline call may hold several things to
 * judge, and each is judged on its own: `run_commands` runs every command of its array
 * (concurrently), so each is one `Bash {command}`; `read_files` one `Read` per file;
 * `apply_patch` one `Write`/`Edit` per file of the patch (read as Codex's). `editor` is
 * `Write` when it creates a file, else `Edit`. Every input keeps the agent's own tool
 * and input (`agent_tool_name`, `agent_tool_input`), and a command its place in the
 * array (`command_index`), so that an answer can be written back in Cline's terms.
 */
export const RUN_COMMANDS = 'run_commands';

export function clineToolInputs(input: HookInput): HookInput[] {
  const args = input.tool_input ?? {};
  const as = (tool: string, toolInput: Record<string, unknown>, extra: Record<string, unknown> = {}): HookInput => ({
    ...input,
    tool_name: tool,
    tool_input: toolInput,
    agent_tool_name: input.tool_name,
    agent_tool_input: args,
    ...extra,
  });
  switch (input.tool_name) {
    case RUN_COMMANDS:
      return commandsOf(args).map((command, i) => as('Bash', { command }, { command_index: i }));
    case 'editor':
      return [as(editorTool(args), editorFields(args))];
    case 'apply_patch': {
      const patch = typeof args.input === 'string' ? args.input : undefined;
      if (patch === undefined) throw new HostInputError('apply_patch: tool_input.input is not the patch text');
      return codexInputs({ ...input, tool_name: 'apply_patch', tool_input: { command: patch } }).map((one) => ({
        ...one,
        agent_tool_name: 'apply_patch',
        agent_tool_input: args,
      }));
    }
    case 'read_files':
      return pathsOf(args).map((file) => as('Read', { file_path: file }));
    case 'search_codebase':
      return listOf(args.queries ?? args.input).map((q) => as('Grep', { pattern: String(q) }));
    case 'fetch_web_content':
      return listOf(args.requests ?? args.input).map((r) => as('WebFetch', isObject(r) ? { ...r } : { url: String(r) }));
    default:
      // An MCP tool comes as `<server>__<tool>` (none of Cline's own tools holds `__`).
      return [mcpToolNamed(input, '__')];
  }
}

/**
 * The commands of a `run_commands` input in every shape Cline accepts: `{commands: [...]}`,
 * `{commands: "…"}`, `{command}`, `{cmd}`, a bare array or string; each a shell string or
 * `{command, args}` run without a shell (judged as the quoted command line it amounts to).
 */
export function commandsOf(args: Record<string, unknown>): string[] {
  // `{command}` alone is a shell string; with `args` (here or in the array) it is run without a shell.
  const single = typeof args.command === 'string' ? ('args' in args ? args : args.command) : undefined;
  const raw = args.commands ?? args.input ?? single ?? args.cmd;
  const list = Array.isArray(raw) ? raw : [raw];
  if (raw === undefined || list.length === 0) throw new HostInputError('run_commands: the input holds no command');
  return list.map((c, i) => {
    if (typeof c === 'string') return c;
    if (isObject(c) && typeof c.command === 'string') {
      const argv = Array.isArray(c.args) ? c.args.map(String) : [];
      return [c.command, ...argv].map(shellQuote).join(' ');
    }
    throw new HostInputError(`run_commands: command ${i} is ${Array.isArray(c) ? 'an array' : typeof c}, not a string or {command, args}`);
  });
}

function editorTool(args: Record<string, unknown>): string {
  if (args.insert_line !== undefined && args.insert_line !== null) return 'Edit';
  return args.old_text === undefined || args.old_text === null ? 'Write' : 'Edit';
}

function editorFields(args: Record<string, unknown>): Record<string, unknown> {
  const file_path = args.path;
  if (editorTool(args) === 'Write') return { ...args, file_path, content: args.new_text };
  return { ...args, file_path, old_string: args.old_text ?? '', new_string: args.new_text };
}

/** A rewrite of an `editor` call in the editor's own fields. */
export function editorInputOf(updated: Record<string, unknown>, original: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...original };
  if (updated.file_path !== undefined) out.path = updated.file_path;
  if (updated.content !== undefined) out.new_text = updated.content;
  if (updated.new_string !== undefined) out.new_text = updated.new_string;
  if (updated.old_string !== undefined && original.old_text !== undefined && original.old_text !== null) out.old_text = updated.old_string;
  return out;
}

function pathsOf(args: Record<string, unknown>): string[] {
  const raw = args.files ?? args.file_paths ?? args.paths ?? args.input ?? args.path ?? args.file_path ?? args.filePath;
  const list = Array.isArray(raw) ? raw : [raw];
  const paths = list.map((f) => (isObject(f) ? (f.path ?? f.file_path ?? f.filePath) : f));
  if (raw === undefined || paths.length === 0 || paths.some((p) => typeof p !== 'string'))
    throw new HostInputError('read_files: a file to read has no path');
  return paths as string[];
}

function listOf(raw: unknown): unknown[] {
  if (raw === undefined) return [];
  return Array.isArray(raw) ? raw : [raw];
}

/** POSIX single quotes: the word exactly as written, nothing expanded. */
export const shellQuote = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
