import type { Change } from './changes.js';
import { gitBytes } from './git.js';
import { indexEntries } from './git-index.js';
import type { Trees } from './shadow-repo.js';

/** A file emptied to at most this many bytes of white space counts as emptied. */
const EMPTIED_BYTES = 64 * 1024;

/**
 * The files a step took away that git could not have given back: deleted or emptied,
 * and not as the repository's staging area holds them (untracked, or changed since
 * `git add`). When the step took the staging area or any of the repository's objects
 * too, every file it deleted is lost.
 */
export async function lostFiles(gitDir: string, before: Trees, changes: Change[]): Promise<string[]> {
  // Bytes the step left elsewhere in the workspace (a file moved or copied) are not lost.
  const kept = new Set(changes.filter((c) => c.after !== undefined && !c.path.startsWith('.git/')).map((c) => c.after!.id));
  const gone = await Promise.all(
    changes
      .filter((c) => !c.path.startsWith('.git/') && !kept.has(c.before?.id ?? ''))
      .map(async (c) => ((await takesWork(gitDir, c)) ? c : undefined)),
  );
  const candidates = gone.filter((c): c is Change => c !== undefined);
  if (candidates.length === 0) return [];
  const staged = before.git === null ? new Map<string, string>() : await stagedIds(gitDir, before.git);
  // Without its staging area or its objects, the repository gives nothing back.
  const repoGone = changes.some((c) => c.status === 'deleted' && /^\.git\/(index$|objects\/)/.test(c.path));
  return candidates.filter((c) => repoGone || staged.get(c.path) !== c.before!.id).map((c) => c.path);
}

/** Deleted, or emptied (nothing but white space left where there was more). */
async function takesWork(gitDir: string, c: Change): Promise<boolean> {
  if (c.before === undefined || c.before.mode === '160000') return false;
  if (c.status === 'deleted') return true;
  if (c.status !== 'changed' || c.after === undefined || c.after.size >= c.before.size) return false;
  if (c.after.size === 0) return true;
  if (c.after.size > EMPTIED_BYTES || c.after.mode !== c.before.mode) return false;
  const text = await gitBytes(['cat-file', 'blob', c.after.id], { gitDir });
  return text.toString('latin1').trim() === '';
}

async function stagedIds(gitDir: string, dotGitTree: string): Promise<Map<string, string>> {
  try {
    return indexEntries(await gitBytes(['cat-file', 'blob', `${dotGitTree}:index`], { gitDir }));
  } catch {
    // No staging area before the step: nothing was staged.
    return new Map();
  }
}
