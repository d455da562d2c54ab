import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, expect } from 'vitest';

/**
 * With HOOKWISE_TEST_CPU_LOG=<file> (vitest.config.ts loads this file only then), one line
 * per test file: the CPU it cost, its own and its children's (the CLIs, git, bwrap it
 * spawned and reaped), in seconds, from /proc/self/stat, so the run's CPU can be put on
 * the files that spend it. Linux only. Columns: file, total, own, children, the worker's
 * CPU before the file (its start-up, in a fresh process), wall seconds.
 */
const log = process.env.HOOKWISE_TEST_CPU_LOG;

/** utime, stime, cutime, cstime in seconds (fields 14-17 of /proc/self/stat). */
function ticks(): number[] {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return [11, 12, 13, 14].map((i) => Number(fields[i]) / 100);
}

// Taken when this setup file runs, before the test file is imported: its import counts.
const start = ticks();
const began = Date.now();

afterAll(() => {
  if (!log) return;
  const [u, s, cu, cs] = ticks().map((t, i) => t - start[i]!) as [number, number, number, number];
  const file = expect.getState().testPath ?? 'unknown';
  const before = start[0]! + start[1]!;
  const line = [file, u + s + cu + cs, u + s, cu + cs, before, (Date.now() - began) / 1000].map((v) =>
    typeof v === 'number' ? v.toFixed(2) : v,
  );
  appendFileSync(log, `${line.join('\t')}\n`);
});
