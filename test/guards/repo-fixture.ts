import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A real git repository in a temp folder, with a commit of `files`. */
export interface Repo {
  dir: string;
  git(...args: string[]): string;
  write(file: string, text: string): void;
  exists(file: string): boolean;
  read(file: string): string;
  cleanup(): void;
}

export function makeRepo(
  files: Record<string, string> = { 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 2;\n', 'README.md': '# r\n' },
): Repo {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookwise-packs-')));
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
    });
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  git('init', '-q', '-b', 'main');
  for (const [f, t] of Object.entries(files)) write(f, t);
  write('.gitignore', 'node_modules/\ndist/\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'init');
  return {
    dir,
    git,
    write,
    exists: (file) => fs.existsSync(path.join(dir, file)),
    read: (file) => fs.readFileSync(path.join(dir, file), 'utf8'),
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** Run a command line for real with bash in the repository. */
export function runBash(dir: string, command: string): void {
  execFileSync('bash', ['-c', command], {
    cwd: dir,
    stdio: 'ignore',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
  });
}
