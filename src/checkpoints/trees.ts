/** A workspace at one moment: its files' tree and its `.git` folder's tree (null when there was none). */
export interface Trees {
  files: string;
  git: string | null;
  /**
   * What git's trees leave out, as a blob: empty folders (`.git/refs/heads` among them,
   * and a repository is not one without it) and modes other than 644 and 755, of the
   * workspace's files and folders and of `.git`'s (git makes its objects read-only).
   * Absent when there is nothing.
   */
  meta?: string;
}

/** Whether two moments of a workspace are the same: every tree, and what trees leave out. */
export function sameTrees(a: Trees, b: Trees): boolean {
  return a.files === b.files && a.git === b.git && a.meta === b.meta;
}
