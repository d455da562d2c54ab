/**
 * The failure policy and async hooks as docs/model.md states them ("Failures"): the
 * default per event, retries, async hooks, beyond test/core/engine-failures.test.ts.
 * Each test names, in a "Catches:" comment, the code change it fails on.
 */
import { describe, expect, it } from 'vitest';
import { context, deny, HookEngine, systemMessage } from '../../src/index.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const bash = { tool_name: 'Bash', tool_input: { command: 'ls' }, session_id: 's1' };
const throwing = () => {
  throw new Error('kaput');
};

describe('failure defaults per event (docs/model.md, "Failures")', () => {
  // Catches: the default onError computed once per hook (e.g. from its first event) instead of per event.
  it('a hook on a blockable and a non-blockable event fails closed on the first and open on the second', async () => {
    const engine = new HookEngine();
    engine.register({ name: 'boom', events: ['PostToolUse', 'PreToolUse'], handler: throwing });
    expect((await engine.fire('PreToolUse', bash)).blocked).toBe(true);
    const post = await engine.fire('PostToolUse', bash);
    expect(post.blocked).toBe(false);
    expect(post.hooks[0]).toMatchObject({ status: 'error', error: 'kaput' });
  });

  // Catches: fail-closed applied to a timeout only when the handler throws (timeouts must follow onError too).
  it('a timeout under onError continue is recorded and ignored', async () => {
    const engine = new HookEngine();
    engine.register({ name: 'hang', events: 'PreToolUse', timeoutMs: 10, onError: 'continue', handler: () => new Promise(() => {}) });
    engine.register({ name: 'next', events: 'PreToolUse', handler: () => context('went on') });
    const outcome = await engine.fire('PreToolUse', bash);
    expect(outcome).toMatchObject({ blocked: false, additionalContext: 'went on' });
    expect(outcome.hooks[0]).toMatchObject({ status: 'timeout' });
  });

  // Catches: a rejection with a non-Error value losing its reason.
  it('the reason names the hook and says why, whatever was thrown', async () => {
    const engine = new HookEngine();
    engine.register({ name: 'str', events: 'Stop', handler: async () => Promise.reject('plain string') });
    expect((await engine.fire('Stop', {})).reason).toBe('hook str failed: plain string');
  });
});

describe('async hooks (docs/model.md, "Failures")', () => {
  // Catches: the failure policy applied to async hooks (they never change the outcome).
  it('a fail-closed async hook that fails does not block', async () => {
    const warnings: string[] = [];
    const engine = new HookEngine({ logger: { debug() {}, info() {}, warn: (m) => void warnings.push(m), error() {} } });
    engine.register({ name: 'bg', events: 'PreToolUse', async: true, onError: 'block', handler: throwing });
    const outcome = await engine.fire('PreToolUse', bash);
    await engine.drain();
    expect(outcome).toMatchObject({ blocked: false, decision: null });
    expect(outcome.hooks[0]).toMatchObject({ status: 'async' });
    expect(warnings).toEqual(['hookwise: async hook bg failed: kaput']);
  });

  // Catches: parallel mode treating async hooks like the others (merging their result).
  it('in parallel mode an async deny still changes nothing', async () => {
    const engine = new HookEngine({ parallel: true });
    engine.register({ name: 'bg', events: 'PreToolUse', async: true, handler: () => deny('ignored', { additionalContext: 'later' }) });
    engine.register({ name: 'sync', events: 'PreToolUse', handler: () => context('now') });
    const outcome = await engine.fire('PreToolUse', bash);
    expect(outcome).toMatchObject({ blocked: false, decision: null, additionalContext: 'now' });
    await engine.drain();
    expect((await engine.fire('Stop', { session_id: 's1' })).additionalContext).toBe('later');
  });

  // Catches: async hooks run without a timeout (a hung background hook would hold drain() forever).
  it('an async hook has a timeout too: its signal fires and drain() returns', async () => {
    const warnings: string[] = [];
    const engine = new HookEngine({ logger: { debug() {}, info() {}, warn: (m) => void warnings.push(m), error() {} } });
    let aborted = false;
    engine.register({
      name: 'bg-hang',
      events: 'PostToolUse',
      async: true,
      timeoutMs: 20,
      handler: (_i, ctx) => new Promise((r) => ctx.signal.addEventListener('abort', () => ((aborted = true), r(undefined)))),
    });
    await engine.fire('PostToolUse', bash);
    await engine.drain();
    expect(aborted).toBe(true);
    expect(warnings).toEqual(['hookwise: async hook bg-hang failed: timed out after 20 ms']);
  });

  // Catches: drain() awaiting only the hooks in flight when it was called.
  it('drain() also awaits async hooks started while it waits', async () => {
    const engine = new HookEngine();
    let second = false;
    engine.register({
      name: 'first',
      events: 'PostToolUse',
      async: true,
      handler: async () => (await sleep(10), void engine.fire('Notification', { session_id: 's1' })),
    });
    engine.register({ name: 'second', events: 'Notification', async: true, handler: async () => (await sleep(20), void (second = true)) });
    await engine.fire('PostToolUse', bash);
    await engine.drain();
    expect(second).toBe(true);
  });

  // Catches: undelivered async results kept after SessionEnd (docs/model.md: ending a session forgets them).
  it('SessionEnd forgets what an async hook left undelivered', async () => {
    const engine = new HookEngine();
    engine.register({ name: 'bg', events: 'PostToolUse', async: true, handler: async () => (await sleep(5), systemMessage('late news')) });
    await engine.fire('PostToolUse', bash);
    await engine.fire('SessionEnd', { session_id: 's1' });
    expect((await engine.fire('Stop', { session_id: 's1' })).systemMessage).toBeNull();
  });
});
