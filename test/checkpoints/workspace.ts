import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, readlinkSync, lstatSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, stdio: 'pipe' }).toString();

/**
 * A workspace as an agent finds it mid-task: a repository with two commits, a tracked
 * file changed since the last one, a change staged, a stash entry, an untracked file,
 * an executable script, a link, an empty folder; hookwise installed and ignored.
 */
export function midTaskWorkspace(dir: string): string {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main', '.');
  writeFileSync(path.join(dir, '.gitignore'), 'node_modules\nbuild/\n');
  writeFileSync(path.join(dir, 'tracked.txt'), 'first line\nsecond line\n');
  mkdirSync(path.join(dir, 'src'));
  writeFileSync(path.join(dir, 'src', 'app.ts'), 'export const app = 1;\n');
  writeFileSync(path.join(dir, 'run.sh'), '#!/bin/sh\necho run\n');
  chmodSync(path.join(dir, 'run.sh'), 0o755);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'one');
  writeFileSync(path.join(dir, 'src', 'util.ts'), 'export const util = 2;\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'two');
  writeFileSync(path.join(dir, 'tracked.txt'), 'first line\nsecond line\nstashed\n');
  git(dir, 'stash', '-q');
  writeFileSync(path.join(dir, 'tracked.txt'), 'first line\nsecond line\nunsaved work\n');
  writeFileSync(path.join(dir, 'src', 'app.ts'), 'export const app = 3; // staged\n');
  git(dir, 'add', 'src/app.ts');
  writeFileSync(path.join(dir, 'notes.md'), '# notes nobody committed\n');
  symlinkSync('src/app.ts', path.join(dir, 'app-link'));
  mkdirSync(path.join(dir, 'empty', 'deeper'), { recursive: true });
  mkdirSync(path.join(dir, 'build'));
  writeFileSync(path.join(dir, 'build', 'out.js'), 'ignored build output\n');
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(repoRoot, path.join(dir, 'node_modules', 'hookwise'), 'dir');
  return dir;
}

export function copyWorkspace(from: string, to: string): string {
  cpSync(from, to, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
  return to;
}

/**
 * Everything undo must bring back, as text: every path with its type, mode, size, link
 * target and content hash; hookwise's own `.hookwise/` and the folders the workspace
 * ignores (`node_modules/`, `build/`: not kept, docs/security.md#undo) aside.
 */
export function fingerprint(dir: string): string {
  const lines: string[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(dir, rel)).sort()) {
      const file = path.join(rel, name);
      if (file === '.hookwise' || file === 'node_modules' || file === 'build') continue;
      const full = path.join(dir, file);
      const st = lstatSync(full);
      const mode = (st.mode & 0o7777).toString(8);
      if (st.isSymbolicLink()) lines.push(`l ${file} -> ${readlinkSync(full)}`);
      else if (st.isDirectory()) {
        lines.push(`d ${file} ${mode}`);
        walk(file);
      } else if (!st.isFile())
        lines.push(`s ${file} ${mode}`); // a fifo or a socket: opening one would wait
      else lines.push(`f ${file} ${mode} ${st.size} ${createHash('sha256').update(readFileSync(full)).digest('hex').slice(0, 16)}`);
    }
  };
  walk('');
  return lines.join('\n');
}
