import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool } from '../tool.js';
import { confine, shown } from './confine.js';
import { ToolFailedError } from '../errors.js';

const MAX_READ_BYTES = 256 * 1024;

/** Read: a text file of the workspace, optionally a range of lines (1-based `offset`). */
export function readTool(workspace: string) {
  return defineTool({
    name: 'Read',
    description:
      'Read a text file in the workspace. file_path is relative to the workspace (or absolute inside it). offset (1-based line) and limit select lines.',
    input: z.object({
      file_path: z.string().min(1),
      offset: z.number().int().min(1).optional(),
      limit: z.number().int().min(1).optional(),
    }),
    run: async ({ file_path, offset, limit }) => {
      const file = confine(workspace, file_path);
      const info = await stat(file);
      if (info.isDirectory()) throw new ToolFailedError(`${file_path} is a directory; use LS`);
      const buffer = await readFile(file);
      let text = buffer.subarray(0, MAX_READ_BYTES).toString('utf8');
      if (offset !== undefined || limit !== undefined) {
        const start = (offset ?? 1) - 1;
        text = text
          .split('\n')
          .slice(start, limit === undefined ? undefined : start + limit)
          .join('\n');
      }
      return buffer.length > MAX_READ_BYTES
        ? `${text}\n[truncated: file is ${buffer.length} bytes, showing the first ${MAX_READ_BYTES}]`
        : text;
    },
  });
}

/** Write: create or overwrite a file (parent folders are created). */
export function writeTool(workspace: string) {
  return defineTool({
    name: 'Write',
    description: 'Create or overwrite a file in the workspace with the given content.',
    input: z.object({ file_path: z.string().min(1), content: z.string() }),
    run: async ({ file_path, content }) => {
      const file = confine(workspace, file_path);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, content);
      return `Wrote ${Buffer.byteLength(content)} bytes to ${shown(workspace, file)}`;
    },
  });
}

/** Edit: replace `old_string` by `new_string`; it must occur exactly once unless `replace_all`. */
export function editTool(workspace: string) {
  return defineTool({
    name: 'Edit',
    description: 'Replace old_string with new_string in a workspace file. old_string must occur exactly once, unless replace_all is true.',
    input: z.object({
      file_path: z.string().min(1),
      old_string: z.string().min(1),
      new_string: z.string(),
      replace_all: z.boolean().optional(),
    }),
    run: async ({ file_path, old_string, new_string, replace_all }) => {
      const file = confine(workspace, file_path);
      const text = await readFile(file, 'utf8');
      const count = text.split(old_string).length - 1;
      if (count === 0) throw new ToolFailedError(`old_string not found in ${file_path}`);
      if (count > 1 && !replace_all)
        throw new ToolFailedError(`old_string occurs ${count} times in ${file_path}; add context to make it unique, or set replace_all`);
      const updated = replace_all ? text.split(old_string).join(new_string) : text.replace(old_string, () => new_string);
      await writeFile(file, updated);
      return `Edited ${shown(workspace, file)}: ${replace_all ? count : 1} replacement(s)`;
    },
  });
}

/** LS: the entries of a workspace folder, folders marked with a trailing `/`. */
export function listTool(workspace: string) {
  return defineTool({
    name: 'LS',
    description: 'List a folder of the workspace (default: its root). Folders end with "/".',
    input: z.object({ path: z.string().optional() }),
    run: async ({ path: dir }) => {
      const folder = confine(workspace, dir ?? '.');
      const entries = await readdir(folder, { withFileTypes: true });
      const names = entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort();
      return names.length ? names.join('\n') : '(empty)';
    },
  });
}
