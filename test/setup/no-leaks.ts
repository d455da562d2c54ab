import { afterAll } from 'vitest';

/**
 * A test file that leaves a timer, a child process or a server running fails:
 * leaks show up as handles still alive when the file's tests are done.
 */
const LEAKY = new Set(['Timeout', 'ChildProcess', 'TCPServerWrap', 'PipeWrap', 'ProcessWrap']);
const before = new Map<string, number>();
for (const r of process.getActiveResourcesInfo()) before.set(r, (before.get(r) ?? 0) + 1);

afterAll(async () => {
  // Give handles closed in the last test a tick to go away.
  await new Promise((r) => setImmediate(r));
  const now = new Map<string, number>();
  for (const r of process.getActiveResourcesInfo()) now.set(r, (now.get(r) ?? 0) + 1);
  const leaked = [...now].filter(([r, n]) => LEAKY.has(r) && n > (before.get(r) ?? 0));
  if (leaked.length > 0) {
    throw new Error(`leaked handles after this file's tests: ${leaked.map(([r, n]) => `${r} x${n - (before.get(r) ?? 0)}`).join(', ')}`);
  }
});
