import path from 'node:path';
import { homeDir } from './discover.js';

export { homeDir };

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
