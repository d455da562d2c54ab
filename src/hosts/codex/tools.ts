import type { HookInput } from '../../core/input.js';
import { PatchError, parseApplyPatch, type PatchChange } from '../apply-patch.js';

/**
 * Codex CLI's tools as hookwise's. Its shell tool already arrives as `Bash {command}`;
 * file edits arrive as patch text, either as the `apply_patch` tool's `command` or as a
 * `Bash` command `apply_patch <<'EOF' …` that Codex applies itself without a shell. Either
 * way the patch is read and judged once per file it touches, as `Write` (a new file, the
 * target of a move, a deletion) or `Edit` (a change in place).
 */
const PATCH_COMMAND = /^\s*(?:apply_patch|applypatch)\b/;

export function codexInputs(input: HookInput): HookInput[] {
  const command = input.tool_input?.command;
  const isPatch =
    input.tool_name === 'apply_patch' || (input.tool_name === 'Bash' && typeof command === 'string' && PATCH_COMMAND.test(command));
  if (!isPatch) return [input];
  if (typeof command !== 'string') throw new PatchError(`apply_patch: tool_input.command is ${typeof command}, not the patch text`);
  return parseApplyPatch(command).flatMap((change) => inputsFor(change, input));
}

function inputsFor(change: PatchChange, input: HookInput): HookInput[] {
  const as = (tool: string, toolInput: Record<string, unknown>): HookInput => ({
    ...input,
    tool_name: tool,
    tool_input: toolInput,
    agent_tool_name: input.tool_name === 'apply_patch' ? 'apply_patch' : 'Bash(apply_patch)',
    agent_tool_input: input.tool_input,
  });
  switch (change.kind) {
    case 'add':
      return [as('Write', { file_path: change.path, content: change.content })];
    case 'delete':
      return [as('Write', { file_path: change.path, content: '' })];
    default: {
      const edit = as('Edit', { file_path: change.path, old_string: change.removed, new_string: change.added });
      return change.moveTo === undefined ? [edit] : [edit, as('Write', { file_path: change.moveTo, content: change.added })];
    }
  }
}
