import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ATTACKS } from './attacks.js';
import {
  ENV_SECRET,
  fillCommand,
  guardEngine,
  hostLine,
  leaked,
  makeRange,
  runBash,
  snapshot,
  victimAlive,
  type Range,
  type RunResult,
} from './harness.js';

let r: Range;
beforeEach(async () => {
  r = await makeRange();
});
afterEach(async () => {
  await r.cleanup();
});

const fill = (command: string) => fillCommand(r, command);

/** Whether running a line reached anything outside: a changed sentinel, a leak, a request, a killed process. */
function reached(before: string, result: RunResult): string[] {
  const found = leaked(r, result);
  if (snapshot(r) !== before) found.push('a file outside the workspace or a protected file changed');
  if (!victimAlive(r)) found.push('the process outside was killed');
  return found;
}

describe('each attack works without the sandbox (so the suite cannot pass vacuously)', () => {
  it.each(ATTACKS.map((a) => [a.cls, a.command, a] as const))('%s: %s', async (_cls, _command, attack) => {
    const before = snapshot(r);
    const result = await runBash(r, fill(attack.command));
    expect(reached(before, result), `${result.stdout}\n${result.stderr}`).not.toEqual([]);
  });
});

describe('with the shell guard, each attack is refused, or runs in the sandbox and reaches nothing outside', () => {
  it.each(ATTACKS.map((a) => [a.cls, a.command, a] as const))('%s: %s', async (_cls, _command, attack) => {
    const engine = guardEngine(r);
    const before = snapshot(r);
    const { line, reason } = await hostLine(engine, r, fill(attack.command));
    if (line === undefined) {
      expect(reason).toBeTruthy();
      return;
    }
    const result = await runBash(r, line);
    expect(reached(before, result), `${result.stdout}\n${result.stderr}`).toEqual([]);
  });
});

describe('the sandbox itself', () => {
  it("starts from a scrubbed environment: the sandbox's first process holds no secret", async () => {
    const { line } = await hostLine(guardEngine(r), r, `p=/proc/1; tr '\\0' '\\n' < "$p/environ"; env`);
    const result = await runBash(r, line!);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('HOME=');
    expect(result.stdout).not.toContain(ENV_SECRET);
  });
});
