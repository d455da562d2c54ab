import type { ToolTable } from '../tools.js';

/**
 * Gemini CLI 0.61.0's built-in tools as hookwise's. Its file tools already use Claude
 * Code's field names (`file_path`, `content`, `old_string`, `new_string`); its folders
 * are `dir_path`, read by the guards as `path`. `read_many_files` (glob lists) and the
 * web, memory and planning tools keep their own names.
 */
const DIR = { dir_path: 'path' };

export const GEMINI_TOOLS: ToolTable = {
  run_shell_command: { tool: 'Bash' },
  write_file: { tool: 'Write' },
  replace: { tool: 'Edit' },
  read_file: { tool: 'Read' },
  list_directory: { tool: 'Glob', fields: DIR },
  glob: { tool: 'Glob', fields: DIR },
  grep_search: { tool: 'Grep', fields: DIR },
  web_fetch: { tool: 'WebFetch' },
  google_web_search: { tool: 'WebSearch' },
};
