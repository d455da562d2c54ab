import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { filesExcludes, ShadowRepo } from '../../src/checkpoints/shadow-repo.js';
import { sameTrees as same, type Trees } from '../../src/checkpoints/trees.js';
import { StatStamp } from '../../src/checkpoints/stat-stamp.js';
import { copyWorkspace, midTaskWorkspace } from './workspace.js';

let root: string;
let template: string;
const xdg = process.env.XDG_CONFIG_HOME;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'hookwise-stamp-'));
  template = midTaskWorkspace(path.join(root, 'template'));
  // A folder holding only ignored files, and the user's global excludes file.
  mkdirSync(path.join(template, 'logs'));
  writeFileSync(path.join(template, 'logs', 'a.log'), 'ignored\n');
  writeFileSync(path.join(template, 'logs', '.gitignore'), '.gitignore\nb.txt\n');
  writeFileSync(path.join(template, 'logs', 'b.txt'), 'ignored by a .gitignore that ignores itself\n');
  appendFileSync(path.join(template, '.gitignore'), '*.log\nsecret.txt\n');
  writeFileSync(path.join(template, 'secret.txt'), 'ignored by the workspace\n');
  writeFileSync(path.join(template, 'local.tmp'), 'ignored by the user\n');
  process.env.XDG_CONFIG_HOME = path.join(root, 'xdg');
  mkdirSync(path.join(root, 'xdg', 'git'), { recursive: true });
});

afterAll(() => {
  if (xdg === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = xdg;
  rmSync(root, { recursive: true, force: true });
});

afterEach(() => vi.useRealTimers());

const sh = (cwd: string, command: string) => execFileSync('bash', ['-c', command], { cwd, stdio: 'pipe' });

let k = 0;
/**
 * A workspace hookwise has snapshotted twice at rest, so the stamp vouches for it. The
 * files were written a moment ago; the clock is moved an hour on, as if the agent's next
 * step came then (a stamp only vouches for files that settled before the snapshot).
 */
async function atRest(): Promise<{ ws: string; dir: string; trees: Trees; stamp: StatStamp }> {
  const ws = copyWorkspace(template, path.join(root, `ws-${++k}`));
  const dir = path.join(root, `state-${k}`);
  writeFileSync(path.join(root, 'xdg', 'git', 'ignore'), '*.tmp\n');
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 3_600_000 });
  const repo = new ShadowRepo(ws, dir);
  const trees = await repo.snapshot();
  expect(await repo.snapshot()).toEqual(trees);
  const stamp = new StatStamp(ws, path.join(dir, 'stamp'));
  expect(stamp.unchanged(filesExcludes(ws))).toEqual(trees);
  return { ws, dir, trees, stamp };
}

/** What git finds now, asked afresh (another repository, no stamp). */
async function truth(ws: string): Promise<Trees> {
  return new ShadowRepo(ws, path.join(root, `truth-${++k}`)).snapshot();
}

describe('the stat stamp: a snapshot with nothing changed starts no git', () => {
  it('takes no stamp of files that changed just before the snapshot', async () => {
    const ws = copyWorkspace(template, path.join(root, `ws-${++k}`));
    const dir = path.join(root, `state-${k}`);
    const repo = new ShadowRepo(ws, dir);
    const trees = await repo.snapshot();
    // The same bytes written again: the trees stay, the file's stat moved a moment ago and vouches for nothing yet.
    writeFileSync(path.join(ws, 'tracked.txt'), readFileSync(path.join(ws, 'tracked.txt')));
    expect(await repo.snapshot()).toEqual(trees);
    expect(new StatStamp(ws, path.join(dir, 'stamp')).unchanged(filesExcludes(ws))).toBeUndefined();
  });

  it('vouches while nothing changes, and a snapshot then returns the same trees', async () => {
    const { ws, dir, trees, stamp } = await atRest();
    // Reading, listing, a change inside an ignored folder, and the lock `git status` makes
    // and removes in .git (an editor runs it in the background) move nothing git keeps.
    sh(ws, 'cat tracked.txt >/dev/null; ls -R >/dev/null; echo more >> build/out.js; echo x > node_modules/new.js');
    sh(ws, 'touch .git/index.lock && rm .git/index.lock');
    expect(stamp.unchanged(filesExcludes(ws))).toEqual(trees);
    const repo = new ShadowRepo(ws, dir);
    expect(await repo.snapshot()).toEqual(trees);
    expect(same(await truth(ws), trees)).toBe(true);
  });

  // Each change moves what git would keep; the stamp must stop vouching for every one.
  const changes: [string, (ws: string) => void][] = [
    ['the same bytes count written in place', (ws) => sh(ws, 'printf "FIRST" | dd of=tracked.txt conv=notrunc status=none')],
    [
      'a write with its mtime put back',
      (ws) => {
        const before = statSync(path.join(ws, 'tracked.txt'));
        sh(ws, 'printf "FIRST" | dd of=tracked.txt conv=notrunc status=none');
        utimesSync(path.join(ws, 'tracked.txt'), before.atime, before.mtime);
      },
    ],
    ['the executable bit', (ws) => chmodSync(path.join(ws, 'src', 'app.ts'), 0o755)],
    ['a new file', (ws) => writeFileSync(path.join(ws, 'new.txt'), 'x')],
    ['a new file in a folder of ignored files only', (ws) => writeFileSync(path.join(ws, 'logs', 'notes.md'), 'x')],
    ['a new file in an empty folder', (ws) => writeFileSync(path.join(ws, 'empty', 'deeper', 'f'), 'x')],
    ['a new empty folder', (ws) => mkdirSync(path.join(ws, 'src', 'more'))],
    ['a folder removed', (ws) => rmSync(path.join(ws, 'src'), { recursive: true })],
    ['a rename', (ws) => renameSync(path.join(ws, 'notes.md'), path.join(ws, 'notez.md'))],
    [
      'a link pointed elsewhere, same length',
      (ws) => {
        unlinkSync(path.join(ws, 'app-link'));
        symlinkSync('src/app.tx', path.join(ws, 'app-link'));
      },
    ],
    ['a .gitignore edited to keep an ignored file', (ws) => sh(ws, "sed -i 's/^secret.txt$/#ecret.txt/' .gitignore")],
    // Rewritten in place: its folder's entries stay as they were; git still reads it.
    ['a .gitignore that ignores itself, edited', (ws) => writeFileSync(path.join(ws, 'logs', '.gitignore'), '.gitignore\n')],
    ['the user global excludes file edited', () => writeFileSync(path.join(root, 'xdg', 'git', 'ignore'), '*.tmq\n')],
    ['.git/info/exclude edited', (ws) => sh(ws, 'echo "notes.md" >> .git/info/exclude')],
    ['a new branch', (ws) => sh(ws, 'git branch side')],
    [
      'a loose object rewritten in place',
      (ws) => sh(ws, 'f=$(find .git/objects -type f | head -1); chmod u+w "$f"; printf X | dd of="$f" conv=notrunc status=none'),
    ],
    [
      'a file hidden from git by a .gitignore inside .git',
      (ws) => sh(ws, 'printf "*\\n" > .git/.gitignore; echo evil > .git/refs/heads/evil'),
    ],
  ];

  it.each(changes)('stops vouching after %s', async (_name, change) => {
    const { ws, dir, trees, stamp } = await atRest();
    change(ws);
    expect(stamp.unchanged(filesExcludes(ws))).toBeUndefined();
    // The change is one git keeps: the store's own snapshot, asking git, finds new trees.
    expect(same(await new ShadowRepo(ws, dir).snapshot(), trees)).toBe(false);
  });

  it('is taken again when git, asked, finds the same trees', async () => {
    const { ws, dir, trees, stamp } = await atRest();
    // A tracked file written with the same bytes: the stamp stops vouching, the trees stay.
    writeFileSync(path.join(ws, 'tracked.txt'), readFileSync(path.join(ws, 'tracked.txt')));
    expect(stamp.unchanged(filesExcludes(ws))).toBeUndefined();
    expect(await new ShadowRepo(ws, dir).snapshot()).toEqual(trees);
    expect(stamp.unchanged(filesExcludes(ws))).toEqual(trees);
  });

  it('goes with an undo, so the next snapshot asks git', async () => {
    const { ws, dir, trees } = await atRest();
    const repo = new ShadowRepo(ws, dir);
    writeFileSync(path.join(ws, 'new.txt'), 'x');
    const now = await repo.snapshot();
    await repo.restore(trees, now);
    expect(existsSync(path.join(dir, 'stamp'))).toBe(false);
    expect(same(await repo.snapshot(), trees)).toBe(true);
  });
});
