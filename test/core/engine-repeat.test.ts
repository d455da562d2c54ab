/**
 * fire() remembers what the last fire looked up (the event name, the tool's hooks,
 * the session) and takes shortcuts for the commonest answers. None of that may go
 * stale: registering, replacing, unregistering and ending a session show at the
 * very next fire.
 */
import { describe, expect, it } from 'vitest';
import { allow, ask, HookEngine, modify, type HookContext } from '../../src/index.js';
import { engineFor } from '../../src/config/load.js';

const bash = { tool_name: 'Bash', tool_input: { command: 'ls' } };
const read = { tool_name: 'Read', tool_input: { file_path: '/etc/hosts' } };
const ran = (outcome: { hooks: Array<{ name: string }> }) => outcome.hooks.map((h) => h.name);

describe('what fire() remembers follows the registry', () => {
  it("a '*' hook registered after a custom event was fired with no hooks runs on its next fire", async () => {
    const engine = new HookEngine();
    expect(ran(await engine.fire('DeployStarted', {}))).toEqual([]);
    engine.register({ name: 'every', events: '*', handler: () => undefined });
    expect(ran(await engine.fire('DeployStarted', {}))).toEqual(['every']);
  });

  it('hooks added, replaced and removed between two fires of the same event and tool', async () => {
    const engine = new HookEngine();
    engine.register({ name: 'a', events: 'PreToolUse', matcher: 'Bash', handler: () => undefined });
    expect(ran(await engine.fire('PreToolUse', bash))).toEqual(['a']);
    engine.register({ name: 'b', events: 'PreToolUse', matcher: 'Bash', handler: () => undefined });
    expect(ran(await engine.fire('PreToolUse', bash))).toEqual(['a', 'b']);
    engine.replace({ name: 'a', events: 'PreToolUse', matcher: 'Bash', handler: () => undefined });
    expect(ran(await engine.fire('PreToolUse', bash))).toEqual(['b', 'a']);
    engine.unregister('a');
    engine.unregister('b');
    expect(ran(await engine.fire('PreToolUse', bash))).toEqual([]);
    engine.register({ name: 'c', events: 'PreToolUse', matcher: 'Bash', handler: () => undefined });
    expect(ran(await engine.fire('PreToolUse', bash))).toEqual(['c']);
  });

  it('each tool gets its own hooks, whichever tool was fired before', async () => {
    const engine = new HookEngine();
    engine.register({ name: 'on-bash', events: 'PreToolUse', matcher: 'Bash', handler: () => undefined });
    engine.register({ name: 'on-read', events: 'PreToolUse', matcher: 'Read', handler: () => undefined });
    expect(ran(await engine.fire('PreToolUse', bash))).toEqual(['on-bash']);
    expect(ran(await engine.fire('PreToolUse', read))).toEqual(['on-read']);
    expect(ran(await engine.fire('PreToolUse', bash))).toEqual(['on-bash']);
    expect(ran(await engine.fire('PreToolCall', read))).toEqual(['on-read']);
  });

  it('a session ended is forgotten: the next fire of the same id starts with empty state', async () => {
    const engine = new HookEngine();
    const seen: unknown[] = [];
    engine.register({
      name: 'count',
      events: 'PreToolUse',
      handler: (_input, ctx: HookContext) => {
        seen.push(ctx.state.get('n'));
        ctx.state.set('n', ((ctx.state.get('n') as number | undefined) ?? 0) + 1);
      },
    });
    await engine.fire('PreToolUse', bash);
    await engine.fire('PreToolUse', bash);
    await engine.fire('SessionEnd', {});
    await engine.fire('PreToolUse', bash);
    expect(seen).toEqual([undefined, 1, undefined]);
  });
});

describe('the shortcuts answer what the long way answers', () => {
  it('allow() with and without a reason, one after the other, keep their own reasons', async () => {
    const engine = new HookEngine();
    let reason: string | undefined;
    engine.register({ name: 'h', events: 'PreToolUse', handler: () => allow(reason) });
    expect((await engine.fire('PreToolUse', bash)).reason).toBeNull();
    reason = 'fine';
    expect((await engine.fire('PreToolUse', bash)).reason).toBe('fine');
    reason = undefined;
    const outcome = await engine.fire('PreToolUse', bash);
    expect([outcome.decision, outcome.reason, outcome.hooks[0]!.result]).toEqual(['allow', null, 'allow']);
  });

  it('a bare ask() after a bare allow() still wins the merge', async () => {
    const engine = new HookEngine();
    engine.register({ name: 'yes', events: 'PreToolUse', handler: () => allow() });
    engine.register({ name: 'maybe', events: 'PreToolUse', handler: () => ask() });
    expect((await engine.fire('PreToolUse', bash)).decision).toBe('ask');
  });

  it('a thenable that is not a native promise is awaited like one', async () => {
    const engine = new HookEngine();
    // A thenable by design: what the engine must tell from a result.
    // biome-ignore lint/suspicious/noThenProperty: the point of the test
    const later = { then: (resolve: (v: unknown) => void) => resolve(allow('later')) };
    engine.register({ name: 'thenable', events: 'PreToolUse', handler: () => later as unknown as Promise<ReturnType<typeof allow>> });
    const outcome = await engine.fire('PreToolUse', bash);
    expect([outcome.decision, outcome.reason, outcome.hooks[0]!.status]).toEqual(['allow', 'later', 'ok']);
  });

  it("a synchronous hook's time is its own: the clock read that ends it starts the next", async () => {
    const engine = new HookEngine({ timing: true });
    const spinMs = 5;
    engine.register({ name: 'quick', events: 'PreToolUse', handler: () => undefined });
    engine.register({
      name: 'slow',
      events: 'PreToolUse',
      handler: () => {
        // Busy, not asleep: the hook stays synchronous. Same monotonic clock as the engine's.
        const until = performance.now() + spinMs;
        while (performance.now() < until);
      },
    });
    engine.register({ name: 'after', events: 'PreToolUse', handler: () => allow() });
    const outcome = await engine.fire('PreToolUse', bash);
    expect(ran(outcome)).toEqual(['quick', 'slow', 'after']);
    // Less a nanosecond for the two ways of turning the clock into milliseconds.
    expect(outcome.hooks[1]!.durationMs).toBeGreaterThanOrEqual(spinMs - 1e-6);
    for (const record of outcome.hooks) expect(record.durationMs).toBeGreaterThanOrEqual(0);
  });

  describe('durations are measured while anyone looks (docs/model.md, "Durations")', () => {
    const spinner = (engine: HookEngine) =>
      engine.register({
        name: 'spin',
        events: 'PreToolUse',
        handler: () => {
          const until = performance.now() + 2;
          while (performance.now() < until);
        },
      });
    const timedBy = async (engine: HookEngine) => (await engine.fire('PreToolUse', bash)).hooks[0]!.durationMs;

    it('a bare engine does not read the clock: durationMs is absent', async () => {
      const engine = new HookEngine();
      spinner(engine);
      expect(await timedBy(engine)).toBeUndefined();
    });

    it('untimed, a hook with no opinion gets one frozen record; an opinion or an annotation gets its own', async () => {
      const engine = new HookEngine();
      spinner(engine);
      engine.register({ name: 'noted', events: 'PreToolUse', handler: (_i, ctx) => void ctx.annotate({ seen: true }) });
      engine.register({ name: 'allows', events: 'PreToolUse', handler: () => allow() });
      const [first, second] = [await engine.fire('PreToolUse', bash), await engine.fire('PreToolUse', bash)];
      expect(first.hooks[0]).toEqual({ name: 'spin', status: 'ok', result: 'none', error: null, durationMs: undefined });
      expect(Object.isFrozen(first.hooks[0])).toBe(true);
      expect(second.hooks[0]).toBe(first.hooks[0]);
      expect(first.hooks[1]).toMatchObject({ name: 'noted', result: 'none', seen: true });
      expect(second.hooks[1]).not.toBe(first.hooks[1]);
      expect(first.hooks[2]).toMatchObject({ name: 'allows', result: 'allow' });
      expect(Object.isFrozen(first.hooks[2])).toBe(false);
    });

    it.each(['outcome', 'hookStart', 'hookEnd'] as const)('a %s listener turns timing on, and off again when it goes', async (type) => {
      const engine = new HookEngine();
      spinner(engine);
      const off = engine.on(type, () => {});
      expect(await timedBy(engine)).toBeGreaterThanOrEqual(2 - 1e-6);
      off();
      expect(await timedBy(engine)).toBeUndefined();
    });

    it('timing: true always times, in parallel mode too; timing: false never does, even when listened to', async () => {
      for (const parallel of [false, true]) {
        const engine = new HookEngine({ timing: true, parallel });
        spinner(engine);
        expect(await timedBy(engine)).toBeGreaterThanOrEqual(2 - 1e-6);
      }
      const quiet = new HookEngine({ timing: false });
      spinner(quiet);
      const records: unknown[] = [];
      quiet.on('hookEnd', ({ record }) => records.push(record.durationMs));
      expect(await timedBy(quiet)).toBeUndefined();
      expect(records).toEqual([undefined]);
    });

    it('untimed, a recheck of a hook with no opinion gets a record of its own, marked as the recheck', async () => {
      const engine = new HookEngine();
      engine.register({ name: 'judge', events: 'PreToolUse', recheck: true, handler: () => undefined });
      engine.register({ name: 'rewrite', events: 'PreToolUse', handler: () => modify({ command: 'ls -la' }) });
      const outcome = await engine.fire('PreToolUse', bash);
      expect(outcome.hooks.map((h) => [h.name, h.recheck ?? false])).toEqual([
        ['judge', false],
        ['rewrite', false],
        ['judge', true],
      ]);
      expect(outcome.hooks[0]).not.toBe(outcome.hooks[2]);
    });

    it('an engine built from a config times its hooks', async () => {
      const engine = engineFor({ sources: [], warnings: [], parallel: false, hooks: [] });
      spinner(engine);
      expect(await timedBy(engine)).toBeGreaterThanOrEqual(2 - 1e-6);
    });
  });
});
