import type { Tool } from '../tool.js';
import { editTool, listTool, readTool, writeTool } from './files.js';
import { shellTool, type ShellToolOptions } from './shell.js';
import { taskTool, type TaskToolOptions } from './task.js';

export { confine, OutsideWorkspaceError } from './confine.js';
export { editTool, listTool, readTool, writeTool } from './files.js';
export { exitCodeMeaning, runShell, shellTool, type BashResponse, type ShellResult, type ShellToolOptions } from './shell.js';
export { taskTool, type SubagentDefinition, type TaskToolOptions } from './task.js';

export interface BuiltinToolsOptions {
  shell?: ShellToolOptions;
  /** The subagent tool; `false` leaves it out. */
  task?: TaskToolOptions | false;
}

/**
 * The built-in tools, named as in Claude Code so its matchers apply: Read, Write,
 * Edit, LS, Bash (file tools confined to `workspace`), and Task (subagents).
 */
export function builtinTools(workspace: string, options: BuiltinToolsOptions = {}): Tool[] {
  const tools: Tool[] = [
    readTool(workspace),
    writeTool(workspace),
    editTool(workspace),
    listTool(workspace),
    shellTool(workspace, options.shell),
  ] as Tool[];
  if (options.task !== false) tools.push(taskTool(options.task ?? {}));
  return tools;
}
