import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Checkpoints, CheckpointError } from '../../src/checkpoints/index.js';
import { copyWorkspace, fingerprint, midTaskWorkspace, repoRoot } from './workspace.js';

let root: string;
let template: string;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'hookwise-checkpoints-'));
  template = midTaskWorkspace(path.join(root, 'template'));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

let k = 0;
function fresh(): { ws: string; store: Checkpoints; dir: string } {
  const ws = copyWorkspace(template, path.join(root, `ws-${++k}`));
  const dir = path.join(root, `state-${k}`);
  return { ws, store: new Checkpoints(ws, { dir }), dir };
}

/** One step as a host runs it: checkpoint, the command for real, then its end. */
async function step(store: Checkpoints, ws: string, command: string) {
  const s = await store.begin({ session: 's', tool: 'Bash', what: command });
  execFileSync('bash', ['-c', command], { cwd: ws });
  return store.end(s);
}

const codeOf = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'resolved';
  } catch (error) {
    expect(error).toBeInstanceOf(CheckpointError);
    return (error as CheckpointError).code;
  }
};

describe('undo', () => {
  it('walks back one step at a time, and an undo of an undo redoes it', async () => {
    const { ws, store } = fresh();
    const s0 = fingerprint(ws);
    await step(store, ws, 'echo one >> tracked.txt');
    const s1 = fingerprint(ws);
    await step(store, ws, 'rm -rf src');
    expect(fingerprint(ws)).not.toBe(s1);
    const first = await store.undo();
    expect(first.undid).toEqual([2]);
    expect(fingerprint(ws)).toBe(s1);
    const second = await store.undo();
    expect(second.undid).toEqual([1]);
    expect(fingerprint(ws)).toBe(s0);
    await store.undo({ to: second.step.n });
    expect(fingerprint(ws)).toBe(s1);
    expect(await codeOf(store.undo({ to: 99 }))).toBe('CHECKPOINT_NO_STEP');
  });

  it('refuses when the workspace changed outside the steps since, names what it would overwrite, and --force overwrites', async () => {
    const { ws, store } = fresh();
    const before = fingerprint(ws);
    await step(store, ws, 'rm -f notes.md');
    writeFileSync(path.join(ws, 'tracked.txt'), 'the user typed this after the step\n');
    const refused = store.undo();
    await expect(refused).rejects.toThrow(/changed after step 1.*\n.*changed tracked\.txt[\s\S]*--force/);
    expect(readFileSync(path.join(ws, 'tracked.txt'), 'utf8')).toBe('the user typed this after the step\n');
    await store.undo({ force: true });
    expect(fingerprint(ws)).toBe(before);
  });

  it('says so when the checkpoint is gone', async () => {
    const { ws, store } = fresh();
    await step(store, ws, 'rm -f notes.md');
    await store.repo.prune([]);
    expect(await codeOf(store.undo())).toBe('CHECKPOINT_GONE');
    expect(existsSync(path.join(ws, 'notes.md'))).toBe(false);
  });

  it('records what each step changed, with sizes, and the files git could not have given back', async () => {
    const { ws, store } = fresh();
    const end = await step(store, ws, 'rm -f notes.md run.sh && : > tracked.txt && echo new > added.txt');
    const byPath = Object.fromEntries(end.changes.map((c) => [c.path, c]));
    expect(byPath['notes.md']).toMatchObject({ status: 'deleted', before: { size: 25 } });
    expect(byPath['added.txt']).toMatchObject({ status: 'added', after: { size: 4 } });
    expect(byPath['tracked.txt']).toMatchObject({ status: 'changed', after: { size: 0 } });
    // run.sh is committed as it was: `git checkout` gives it back, so it is not lost.
    expect(end.lost.sort()).toEqual(['notes.md', 'tracked.txt']);
  });
});

describe('names that look like options', () => {
  it('a file named like a find action is a name to the checkpoint, not an action', async () => {
    const { ws, store } = fresh();
    const before = fingerprint(ws);
    // Untracked, as the first path git lists: the checkpoint hands such paths to find.
    await step(store, ws, 'touch ./-delete && mkdir ./-empty');
    // Everything there before is there still, the two new names beside it.
    const after = fingerprint(ws).split('\n');
    expect(after.filter((line) => !before.split('\n').includes(line)).sort()).toEqual(['d -empty 755', 'f -delete 644 0 e3b0c44298fc1c14']);
    expect(before.split('\n').filter((line) => !after.includes(line))).toEqual([]);
    await store.undo();
    expect(fingerprint(ws)).toBe(before);
  });
});

describe('retention', () => {
  it('keeps the last `keep.steps` steps, writes the log again without the rest, and numbers on', async () => {
    const { ws, dir } = fresh();
    const store = new Checkpoints(ws, { dir, keep: { steps: 3 } });
    // An hour on: the workspace is at rest, so most of these steps take the stat stamp's path.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 3_600_000 });
    try {
      for (let i = 1; i <= 50; i++) await step(store, ws, i === 49 ? 'echo forty-nine >> tracked.txt' : 'true');
    } finally {
      vi.useRealTimers();
    }
    expect(store.steps().map((s) => s.n)).toEqual([48, 49, 50]);
    const lines = readFileSync(path.join(dir, 'steps.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1 + 3 * 2);
    expect((await store.begin({ session: 's', tool: 'Bash', what: 'next' })).n).toBe(51);
    expect(await codeOf(store.undo({ to: 10 }))).toBe('CHECKPOINT_NO_STEP');
    await store.undo({ to: 49, force: true });
    expect(readFileSync(path.join(ws, 'tracked.txt'), 'utf8')).not.toContain('forty-nine');
  });
});

describe('crashes and concurrency', () => {
  it('a writer killed mid-snapshot leaves a store the next snapshot and undo use', async () => {
    const { ws, store, dir } = fresh();
    for (let i = 0; i < 300; i++) writeFileSync(path.join(ws, 'src', `gen-${i}.ts`), `export const v${i} = ${'x'.repeat(2000)};\n`);
    await step(store, ws, 'true');
    const good = fingerprint(ws);
    for (let i = 0; i < 300; i++) appendFileSync(path.join(ws, 'src', `gen-${i}.ts`), '// more\n');
    // Another process snapshots the changed workspace and is killed while git writes.
    const script = `import('${path.join(repoRoot, 'dist/checkpoints/index.js')}').then(async (m) => { const c = new m.Checkpoints(${JSON.stringify(ws)}, { dir: ${JSON.stringify(dir)} }); process.stdout.write('go\\n'); for (;;) await c.begin({ session: 'k', tool: 'Bash', what: 'x' }); })`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    await new Promise((r) => setTimeout(r, 150));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    // A torn line, as a kill mid-append would leave.
    appendFileSync(path.join(dir, 'steps.jsonl'), '{"kind":"step","step":{"n":');
    execFileSync('bash', ['-c', 'rm -rf src'], { cwd: ws });
    await store.undo({ force: true, to: 1 });
    expect(fingerprint(ws)).toBe(good);
  });

  it('parallel steps in one process and another are numbered once each and all undoable', async () => {
    const { ws, store, dir } = fresh();
    const other = `import('${path.join(repoRoot, 'dist/checkpoints/index.js')}').then(async (m) => { const c = new m.Checkpoints(${JSON.stringify(ws)}, { dir: ${JSON.stringify(dir)} }); await Promise.all([1,2,3,4].map((i) => c.begin({ session: 'other', tool: 'Bash', what: 'o' + i }))); })`;
    const child = spawn(process.execPath, ['-e', other], { stdio: 'inherit' });
    const mine = await Promise.all([1, 2, 3, 4].map((i) => store.begin({ session: 'mine', tool: 'Bash', what: `m${i}` })));
    expect(await new Promise((r) => child.once('exit', r))).toBe(0);
    const numbers = store.steps().map((s) => s.n);
    expect(numbers).toHaveLength(8);
    expect(new Set(numbers).size).toBe(8);
    expect(mine.map((s) => s.n).every((n) => numbers.includes(n))).toBe(true);
  });
});

describe('a full disk', () => {
  const mounted = path.join(os.tmpdir(), `hookwise-full-${process.pid}`);
  let canMount = false;
  beforeAll(() => {
    mkdirSync(mounted, { recursive: true });
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mounted], { stdio: 'pipe' });
      canMount = true;
    } catch {
      canMount = false;
    }
  });
  afterAll(() => {
    if (canMount) execFileSync('umount', [mounted]);
    rmSync(mounted, { recursive: true, force: true });
  });

  it('refuses the step with the reason, and leaves the store as it was', async () => {
    // The suite runs as root on Linux (.ci/run), where a small tmpfs is the real thing.
    expect(canMount).toBe(true);
    const { ws } = fresh();
    for (let i = 0; i < 20; i++) writeFileSync(path.join(ws, `big-${i}.bin`), Buffer.alloc(64 * 1024, i));
    const store = new Checkpoints(ws, { dir: path.join(mounted, 'cp') });
    expect(await codeOf(store.begin({ session: 's', tool: 'Bash', what: 'x' }))).toBe('CHECKPOINT_DISK_FULL');
    expect(store.steps()).toEqual([]);
    // Once there is room again, the next step starts from a whole checkpoint.
    execFileSync('mount', ['-o', 'remount,size=8m', mounted]);
    const s = await store.begin({ session: 's', tool: 'Bash', what: 'y' });
    expect(s.n).toBe(1);
    rmSync(path.join(ws, 'notes.md'));
    await store.end(s);
    await store.undo();
    expect(readFileSync(path.join(ws, 'notes.md'), 'utf8')).toContain('notes');
  });
});
