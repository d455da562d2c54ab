import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShadowRepo } from '../../src/checkpoints/shadow-repo.js';
import { sameTrees } from '../../src/checkpoints/trees.js';
import { midTaskWorkspace } from './workspace.js';

/**
 * git's index compares ctimes to the second (Debian's git, like most builds, keeps no
 * nanoseconds): a file rewritten in the second it last changed, with its size kept and its
 * older mtime put back, looks untouched to `git add`. The shadow repository hashes such files
 * again (src/checkpoints/shadow-repo.ts, SNAPSHOT_SCRIPT). The control shows git itself
 * misses the same rewrite, so the test cannot pass for want of the case.
 */
let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'hookwise-same-second-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

/** Until the start of the next wall-clock second, so the steps after it share one second. */
async function nextSecond(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
}

/** Same size, other bytes, the mtime put back: only the ctime (to the nanosecond) moves. */
function rewriteKeepingTimes(file: string): void {
  const before = statSync(file);
  const bytes = readFileSync(file);
  writeFileSync(file, Buffer.from(bytes.toString('latin1').toUpperCase(), 'latin1'));
  utimesSync(file, before.atime, before.mtime);
}

const second = (file: string) => Math.floor(statSync(file).ctimeMs / 1000);

describe('a file rewritten in the second git last saw it change', () => {
  it('is in the next snapshot, though git alone misses it', async () => {
    // One workspace and shadow repository, snapshotted once first: each try's snapshot is
    // then a small one, which fits in the second even on a loaded machine.
    const ws = midTaskWorkspace(path.join(root, 'ws'));
    const repo = new ShadowRepo(ws, path.join(root, 'state'));
    await repo.snapshot();
    let landed = false;
    for (let attempt = 0; attempt < 30 && !landed; attempt++) {
      const name = `notes-${attempt}.md`;
      const file = path.join(ws, name);
      await nextSecond();
      writeFileSync(file, 'an agent wrote this\n');
      // An old mtime (as `cp -p`, tar or rsync leave), so git's own racy-file check does not hash it again.
      const hourAgo = new Date(Date.now() - 3_600_000);
      utimesSync(file, hourAgo, hourAgo);
      // The control: the user's own repository, its index written in the same second.
      git(ws, 'add', name);
      const before = await repo.snapshot();
      const changedAt = second(file);
      rewriteKeepingTimes(file);
      // Landed in one second, or the case did not happen this time: try again.
      if (second(file) !== changedAt) continue;
      landed = true;
      expect(git(ws, 'diff', '--name-only', '--', name)).toBe('');
      const after = await repo.snapshot();
      expect(sameTrees(before, after)).toBe(false);
      expect(git(ws, '--git-dir', repo.gitDir, 'cat-file', 'blob', `${after.files}:${name}`)).toBe('AN AGENT WROTE THIS\n');
    }
    expect(landed).toBe(true);
  });
});
