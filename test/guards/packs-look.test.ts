import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadShellJudge } from '../../src/guards/index.js';

/**
 * The git pack looks at `git status` before it judges `git reset --hard`. In a repository
 * the agent made, git's config is the agent's: a clean filter would run wherever the
 * look runs. It runs read-only, without network, in bubblewrap.
 */
let root: string;
let ws: string;
let sentinel: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookwise-look-')));
  ws = path.join(root, 'proj');
  sentinel = path.join(root, 'filter-ran.txt');
  fs.mkdirSync(ws);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...args], { cwd: ws, stdio: 'pipe' });
  git('init', '-q', '.');
  fs.writeFileSync(path.join(ws, 'a.txt'), 'one\n');
  git('add', 'a.txt');
  git('commit', '-qm', 'one');
  fs.writeFileSync(path.join(ws, '.gitattributes'), '* filter=evil\n');
  fs.appendFileSync(path.join(ws, '.git', 'config'), `[filter "evil"]\n\tclean = "sh -c 'echo pwn > ${sentinel}; cat'"\n`);
  fs.writeFileSync(path.join(ws, 'a.txt'), 'two\n');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("the git pack's look at the disk", () => {
  it('a filter the repository names runs when git status runs plainly', () => {
    execFileSync('git', ['--no-optional-locks', 'status', '--porcelain'], { cwd: ws, stdio: 'pipe' });
    expect(fs.existsSync(sentinel)).toBe(true);
  });

  it('judging git reset --hard still sees the uncommitted change, and the filter changes nothing outside', async () => {
    const judge = await loadShellJudge({ workspace: ws });
    const d = judge.judge('git reset --hard', ws);
    expect(d.decision).toBe('deny');
    expect(d.reason).toMatch(/\[git\/reset-hard\].*a\.txt/);
    expect(fs.existsSync(sentinel)).toBe(false);
  });
});
