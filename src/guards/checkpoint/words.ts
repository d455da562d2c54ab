import { summary, type Change } from '../../checkpoints/index.js';

/** What the model and the terminal are told after a step that took work git cannot give back. */
export function lossMessage(n: number, lost: string[], repository: Change[]): string {
  const parts: string[] = [];
  if (lost.length > 0) {
    const shown = lost.slice(0, 8).join(', ');
    const more = lost.length > 8 ? ` and ${lost.length - 8} more` : '';
    parts.push(`deleted or emptied ${lost.length === 1 ? 'a file' : `${lost.length} files`} that git cannot restore (${shown}${more})`);
  }
  if (repository.length > 0) parts.push(`changed the repository's own files in .git outside git (${summary(repository)})`);
  return `hookwise: step ${n} ${parts.join(' and ')}. \`hookwise undo\` puts the workspace back as it was before the step; \`hookwise diff ${n}\` shows what it changed.`;
}

/** The step's change set as the audit trail keeps it: counts, and each path with its sizes and ids (the first 200). */
export function changeRecord(changes: Change[], lost: string[]): Record<string, unknown> {
  return {
    summary: summary(changes),
    files: changes.slice(0, 200).map((c) => ({
      path: c.path,
      status: c.status,
      ...(c.before && { before: { size: c.before.size, id: c.before.id } }),
      ...(c.after && { after: { size: c.after.size, id: c.after.id } }),
    })),
    ...(changes.length > 200 && { more: changes.length - 200 }),
    ...(lost.length > 0 && { lost }),
  };
}
