import { HookwiseError } from '../core/errors.js';
/**
 * Codex's `apply_patch` text, read for the files it touches. Codex hands hooks the raw
 * patch (`*** Begin Patch` … `*** End Patch`, optionally inside a `apply_patch <<'EOF'`
 * here-document): without reading it, a path guard sees no file at all. Grammar:
 * `*** Add File: p` (lines `+…`), `*** Delete File: p`, `*** Update File: p` with an
 * optional `*** Move to: q` and hunks (`@@`, ` ctx`, `-old`, `+new`).
 *
 * What cannot be read whole is an error: the host refuses such a call, never lets it
 * through unjudged.
 */
export type PatchChange =
  | { kind: 'add'; path: string; content: string }
  | { kind: 'delete'; path: string }
  | { kind: 'update'; path: string; moveTo?: string; removed: string; added: string };

export class PatchError extends HookwiseError {
  override readonly code = 'PATCH';
}

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const FILE_HEADER = /^\*\*\* (Add|Delete|Update) File: (.*)$/;
const HEREDOC = /^\s*(?:apply_patch|applypatch)\s+<<-?\s*['"]?(\w+)['"]?\s*$/;
const MOVE = /^\*\*\* Move to: (.*)$/;

/** The patch's changes, in order; throws PatchError naming the line that cannot be read. */
export function parseApplyPatch(text: string): PatchChange[] {
  const lines = bodyOf(text);
  const changes: PatchChange[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const header = FILE_HEADER.exec(line);
    if (!header) {
      if (line.trim() === '') {
        i++;
        continue;
      }
      throw new PatchError(
        `apply_patch: line ${i + 2} "${clip(line)}" is not a file header (*** Add File:, *** Update File:, *** Delete File:)`,
      );
    }
    const file = header[2]!.trim();
    if (file === '') throw new PatchError(`apply_patch: line ${i + 2} names no file`);
    i++;
    const body: string[] = [];
    while (i < lines.length && !FILE_HEADER.test(lines[i]!)) body.push(lines[i++]!);
    changes.push(changeOf(header[1]!, file, body, i));
  }
  if (changes.length === 0) throw new PatchError('apply_patch: the patch touches no file');
  return changes;
}

function changeOf(kind: string, path: string, body: string[], at: number): PatchChange {
  if (kind === 'Delete') return { kind: 'delete', path };
  if (kind === 'Add') {
    for (const l of body)
      if (!l.startsWith('+') && l !== '') throw new PatchError(`apply_patch: Add File ${path}: "${clip(l)}" does not start with +`);
    return { kind: 'add', path, content: body.map((l) => l.slice(1)).join('\n') };
  }
  let moveTo: string | undefined;
  const removed: string[] = [];
  const added: string[] = [];
  for (const l of body) {
    const move = MOVE.exec(l);
    if (move) {
      moveTo = move[1]!.trim();
      if (moveTo === '') throw new PatchError(`apply_patch: Update File ${path}: "*** Move to:" names no file (near line ${at})`);
    } else if (l.startsWith('-')) removed.push(l.slice(1));
    else if (l.startsWith('+')) added.push(l.slice(1));
  }
  return { kind: 'update', path, ...(moveTo !== undefined && { moveTo }), removed: removed.join('\n'), added: added.join('\n') };
}

/** The lines between Begin and End Patch; a here-document wrapper (`apply_patch <<'EOF'`) is peeled. */
function bodyOf(text: string): string[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const begin = lines.findIndex((l) => l.trim() === BEGIN);
  if (begin < 0) throw new PatchError(`apply_patch: no "${BEGIN}" line`);
  const end = lines.findIndex((l, n) => n > begin && l.trim() === END);
  if (end < 0) throw new PatchError(`apply_patch: no "${END}" line after "${BEGIN}"`);
  // Only a here-document wrapper may surround the patch: anything else would be text Codex reads that was not judged.
  const before = lines.slice(0, begin).filter((l) => l.trim() !== '');
  const heredoc = before.length === 1 ? HEREDOC.exec(before[0]!) : null;
  if (before.length > 0 && !heredoc) throw new PatchError(`apply_patch: "${clip(before[0]!)}" before "${BEGIN}"`);
  const after = lines.slice(end + 1).filter((l) => l.trim() !== '');
  if (after.length > 1 || (after.length === 1 && after[0]!.trim() !== heredoc?.[1]))
    throw new PatchError(`apply_patch: "${clip(after[0]!)}" after "${END}"`);
  return lines.slice(begin + 1, end);
}

const clip = (s: string) => (s.length > 80 ? `${s.slice(0, 80)}…` : s);
