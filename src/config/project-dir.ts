import os from 'node:os';
import path from 'node:path';

/** The user's home, respecting HOME (tests and sandboxes set it). */
export function homeDir(): string {
  return path.resolve(process.env.HOME || os.homedir());
}

/**
 * CLAUDE_PROJECT_DIR for hooks from `file`: the folder holding the `.claude` folder
 * the file sits in, else the cwd. `~/.claude` belongs to the user, not a project,
 * so hooks from the user's settings get the cwd, as in Claude Code.
 */
export function projectDirFor(file: string, cwd: string): string {
  let dir = path.dirname(path.resolve(file));
  for (;;) {
    if (path.basename(dir) === '.claude') {
      const project = path.dirname(dir);
      return path.resolve(project) === path.resolve(homeDir()) ? cwd : project;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return cwd;
    dir = parent;
  }
}
