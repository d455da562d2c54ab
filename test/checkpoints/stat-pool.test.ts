import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELDS, StatPool } from '../../src/checkpoints/stat-pool.js';
import { statPool, statRow, statsOf } from '../../src/checkpoints/stat-stamp.js';

/**
 * The stamp's second thread (src/checkpoints/stat-pool.ts) gives the rows one thread
 * gives, and what it finds changed or gone counts as the stamp's own finding would.
 */
let ws: string;
let paths: string[];

beforeAll(async () => {
  ws = mkdtempSync(path.join(os.tmpdir(), 'hookwise-stat-pool-'));
  for (let i = 0; i < 300; i++) {
    mkdirSync(path.join(ws, `d${i % 7}`), { recursive: true });
    writeFileSync(path.join(ws, `d${i % 7}`, `f${i}.txt`), `file ${i}\n`);
  }
  execFileSync('git', ['init', '-q', ws]);
  paths = ['.', ...walk('.')];
  // The first large check starts the thread and states every path itself; the checks below split.
  expect(statsOf(ws, paths, 'warm', 1)).toBeDefined();
  expect(await statPool.whenOnline()).toBe(true);
});
afterAll(() => rmSync(ws, { recursive: true, force: true }));

function walk(rel: string): string[] {
  return readdirSync(path.join(ws, rel), { withFileTypes: true }).flatMap((e) => {
    const child = rel === '.' ? e.name : `${rel}/${e.name}`;
    return e.isDirectory() ? [child, ...walk(child)] : [child];
  });
}

const oneThread = () => statsOf(ws, paths);
const split = (key: string) => statsOf(ws, paths, key, 1);

describe('two threads state as one does', () => {
  it('the same rows, `.git` vouching by its names in either half', () => {
    const expected = oneThread()!;
    expect(expected.length).toBe(paths.length * FIELDS);
    // The thread runs, so statsOf's split below is the thread's (it falls back only on 'unavailable').
    expect(statPool.stat('probe', `${ws}/`, paths, () => true)).not.toBe('unavailable');
    // The same list under the same key twice: the second round reuses the list the worker holds.
    expect([...split('a')!]).toEqual([...expected]);
    expect([...split('a')!]).toEqual([...expected]);
    // `.git`'s row is not its folder's stat (which every `git status` moves) but a hash of its names.
    const git = paths.indexOf('.git');
    expect(git).toBeGreaterThan(0);
    writeFileSync(path.join(ws, '.git', 'index.lock'), '');
    unlinkSync(path.join(ws, '.git', 'index.lock'));
    expect([...split('a')!]).toEqual([...expected]);
  });

  it("a file edited in the worker's half changes its row; one gone there is no proof", () => {
    const before = [...split('b')!];
    // paths[1..] are the worker's first half: a file there.
    const edited = paths.slice(1, Math.floor(paths.length / 2)).find((p) => p.endsWith('.txt'))!;
    writeFileSync(path.join(ws, edited), 'edited, and longer than before\n');
    const after = [...split('b')!];
    const row = paths.indexOf(edited) * FIELDS;
    expect(after[row + 1]).not.toBe(before[row + 1]);
    expect(after).toEqual([...oneThread()!]);
    unlinkSync(path.join(ws, edited));
    expect(split('b')).toBeUndefined();
    writeFileSync(path.join(ws, edited), 'back\n');
  });

  it('a pool whose rows this thread fails (a path gone in its own half) answers undefined', async () => {
    const pool = new StatPool();
    const prefix = `${ws}/`;
    // Until its thread runs, a pool leaves every row to the caller.
    expect(pool.stat('c', prefix, paths, () => false)).toBe('unavailable');
    expect(await pool.whenOnline()).toBe(true);
    const result = pool.stat('c', prefix, paths, () => false);
    expect(result).toBeUndefined();
    // And the same pool answers again once the rows are whole.
    const rows = pool.stat('c', prefix, paths, (out, from) => {
      for (let i = from; i < paths.length; i++) if (!statRow(out, i, prefix, paths[i]!)) return false;
      return true;
    });
    expect(rows).not.toBe('unavailable');
    const git = paths.indexOf('.git');
    const whole = [...(rows as Float64Array)];
    const expected = [...oneThread()!];
    // The pool leaves `.git`'s row plain when it falls in the worker's half; statsOf mends it.
    for (let f = 0; f < FIELDS; f++) if (git < Math.floor(paths.length / 2)) whole[git * FIELDS + f] = expected[git * FIELDS + f]!;
    expect(whole).toEqual(expected);
  });

  it('serves a caller that never lets the event loop turn (the bench, a busy resident): the thread says itself that it runs', () => {
    const pool = new StatPool();
    const prefix = `${ws}/`;
    const rowsFrom = (out: Float64Array, from: number) => {
      for (let i = from; i < paths.length; i++) if (!statRow(out, i, prefix, paths[i]!)) return false;
      return true;
    };
    expect(pool.stat('d', prefix, paths, rowsFrom)).toBe('unavailable');
    // No await: the 'online' event cannot arrive. Checks go on until the thread has started (it does on its own).
    const until = Date.now() + 60_000;
    let answer = pool.stat('d', prefix, paths, rowsFrom);
    while (answer === 'unavailable' && Date.now() < until) answer = pool.stat('d', prefix, paths, rowsFrom);
    expect(answer).toBeInstanceOf(Float64Array);
  });
});
