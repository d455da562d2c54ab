import { afterAll, beforeAll } from 'vitest';

/**
 * A test file that leaves a timer, a child process or a server running fails:
 * leaks show up as handles still alive when the file's tests are done. The
 * baseline is taken inside a hook so that vitest's own hook timer counts on
 * both sides.
 */
const LEAKY = new Set(['Timeout', 'ChildProcess', 'TCPServerWrap', 'PipeWrap', 'ProcessWrap']);

function census(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of process.getActiveResourcesInfo()) counts.set(r, (counts.get(r) ?? 0) + 1);
  return counts;
}

let before = new Map<string, number>();
beforeAll(() => {
  before = census();
});

afterAll(async () => {
  // Handles closed in the last test need a turn of the loop to go away.
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  const now = census();
  const leaked = [...now].filter(([r, n]) => LEAKY.has(r) && n > (before.get(r) ?? 0));
  if (leaked.length > 0) {
    throw new Error(`leaked handles after this file's tests: ${leaked.map(([r, n]) => `${r} x${n - (before.get(r) ?? 0)}`).join(', ')}`);
  }
});
