import { afterEach, expect, it } from 'vitest';
import { SessionEnv, sessionValues } from '../../src/cli/resident/session-env.js';

const saved = { ...process.env };
afterEach(() => {
  for (const name of ['CLAUDE_CODE_SESSION_ID', 'CLAUDE_PID']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

it("holds one session's values while its calls run, and takes the next session's once they are done", () => {
  const env = new SessionEnv();
  expect(env.enter({ CLAUDE_CODE_SESSION_ID: 'a', CLAUDE_PID: '1' })).toBe(true);
  expect(process.env.CLAUDE_CODE_SESSION_ID).toBe('a');
  expect(env.enter({ CLAUDE_CODE_SESSION_ID: 'a', CLAUDE_PID: '1' })).toBe(true);
  // Another session while a's calls run: declined, a's values stay.
  expect(env.enter({ CLAUDE_CODE_SESSION_ID: 'b' })).toBe(false);
  expect(process.env.CLAUDE_CODE_SESSION_ID).toBe('a');
  env.leave();
  env.leave();
  expect(env.enter({ CLAUDE_CODE_SESSION_ID: 'b' })).toBe(true);
  expect([process.env.CLAUDE_CODE_SESSION_ID, process.env.CLAUDE_PID]).toEqual(['b', undefined]);
  env.leave();
});

it('a request carries only the session variables, as strings', () => {
  expect(sessionValues({ CLAUDE_PID: '3' })).toEqual({ CLAUDE_PID: '3' });
  expect(sessionValues({})).toEqual({});
  expect(sessionValues({ PATH: '/evil' })).toBeUndefined();
  expect(sessionValues({ CLAUDE_PID: 3 })).toBeUndefined();
  expect(sessionValues(undefined)).toBeUndefined();
  expect(sessionValues(['CLAUDE_PID'])).toBeUndefined();
});
