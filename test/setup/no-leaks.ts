import { afterAll, beforeAll } from 'vitest';
import { slack } from '../support/slack.js';

/**
 * A test file that leaves a timer, a child process or a server running fails.
 *
 * Timers are told apart by identity: every timer made through the global setTimeout and
 * setInterval from here on (the test file, src/, the libraries they load) is noted, and
 * one still pending and holding the process open when the file's tests are done is a
 * leak. vitest's own timers (its calls to the main process, each with a timeout) are made
 * through the functions it saved before this file ran, so they are not counted: counting
 * every live Timeout, one of those in flight as a file began or ended made a file pass
 * with a leak or fail with none (four files on main at load 25).
 *
 * Processes, servers and pipes are counted: more alive at the end than at the start is a
 * leak. The baseline is taken inside a hook so that vitest's own handles count on both sides.
 */
const COUNTED = new Set(['ChildProcess', 'TCPServerWrap', 'PipeWrap', 'ProcessWrap']);

type Timer = ReturnType<typeof setTimeout> & { _destroyed?: boolean };
const made = new Set<Timer>();
const original = { setTimeout: globalThis.setTimeout, setInterval: globalThis.setInterval };
globalThis.setTimeout = Object.assign((...args: Parameters<typeof setTimeout>) => {
  const timer = original.setTimeout(...args) as Timer;
  made.add(timer);
  return timer;
}, original.setTimeout) as typeof setTimeout;
globalThis.setInterval = Object.assign((...args: Parameters<typeof setInterval>) => {
  const timer = original.setInterval(...args) as Timer;
  made.add(timer);
  return timer;
}, original.setInterval) as typeof setInterval;

function census(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of process.getActiveResourcesInfo()) counts.set(r, (counts.get(r) ?? 0) + 1);
  return counts;
}

let before = new Map<string, number>();
beforeAll(() => {
  before = census();
});

function leaks(): string[] {
  for (const timer of made) if (timer._destroyed) made.delete(timer);
  const timers = [...made].filter((t) => t.hasRef()).length;
  const counted = [...census()].filter(([r, n]) => COUNTED.has(r) && n > (before.get(r) ?? 0));
  return [...(timers > 0 ? [`Timeout x${timers}`] : []), ...counted.map(([r, n]) => `${r} x${n - (before.get(r) ?? 0)}`)];
}

afterAll(async () => {
  // Handles closed in the last test need a turn of the loop to go away, and on a loaded
  // machine a child's exit may not be read yet: what is gone within a second (stretched
  // with the load) was not left running. A leak stays.
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  const until = Date.now() + slack(1000);
  let leaked = leaks();
  while (leaked.length > 0 && Date.now() < until) {
    await new Promise((r) => original.setTimeout(r, 20));
    leaked = leaks();
  }
  if (leaked.length > 0) throw new Error(`leaked handles after this file's tests: ${leaked.join(', ')}`);
});
