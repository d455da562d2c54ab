import fs from 'node:fs';
import path from 'node:path';

/**
 * Submodules' git folders (`.git/modules/<name>`, nested for submodules of submodules):
 * git runs their hooks and config (core.fsmonitor on `git status`) as it runs the main one's.
 */
export function submoduleGitDirs(gitPath: string): string[] {
  const found: string[] = [];
  const queue = [path.join(gitPath, 'modules')];
  while (queue.length > 0 && found.length < 1000) {
    const dir = queue.shift()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      const sub = path.join(dir, entry.name);
      // A git folder has a HEAD or a config; anything else is a folder of a submodule's nested name (a/b).
      const exists = (name: string) => fs.lstatSync(path.join(sub, name), { throwIfNoEntry: false }) !== undefined;
      if (exists('config') || exists('HEAD')) {
        found.push(sub);
        queue.push(path.join(sub, 'modules'));
      } else queue.push(sub);
    }
  }
  return found;
}
