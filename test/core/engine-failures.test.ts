import { describe, expect, it } from 'vitest';
import { allow, context, deny, HookEngine, systemMessage } from '../../src/index.js';

const bash = { tool_name: 'Bash', tool_input: { command: 'ls' }, session_id: 's1' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('failure policy (docs/model.md, "Failures")', () => {
  it('a throwing hook on a blockable event fails closed by default, with the documented reason', async () => {
    const engine = new HookEngine();
    engine.register({
      name: 'boom',
      events: 'PreToolUse',
      handler: () => {
        throw new Error('kaput');
      },
    });
    engine.register({ name: 'after', events: 'PreToolUse', handler: () => allow() });
    const outcome = await engine.fire('PreToolUse', bash);
    expect(outcome).toMatchObject({ blocked: true, decision: 'deny', reason: 'hook boom failed: kaput' });
    expect(outcome.hooks.map((h) => [h.name, h.status, h.error])).toEqual([
      ['boom', 'error', 'kaput'],
      ['after', 'skipped', null],
    ]);
  });

  it('a rejecting hook on a non-blockable event fails open by default', async () => {
    const engine = new HookEngine();
    engine.register({
      name: 'boom',
      events: 'PostToolUse',
      handler: async () => {
        throw new Error('async kaput');
      },
    });
    engine.register({ name: 'after', events: 'PostToolUse', handler: () => context('still here') });
    const outcome = await engine.fire('PostToolUse', bash);
    expect(outcome.blocked).toBe(false);
    expect(outcome.additionalContext).toBe('still here');
    expect(outcome.hooks[0]).toMatchObject({ status: 'error', error: 'async kaput', result: null });
  });

  it('onError overrides the default both ways', async () => {
    const engine = new HookEngine();
    engine.register({
      name: 'open',
      events: 'PreToolUse',
      onError: 'continue',
      handler: () => {
        throw new Error('x');
      },
    });
    engine.register({
      name: 'closed',
      events: 'Notification',
      onError: 'block',
      handler: () => {
        throw new Error('y');
      },
    });
    expect((await engine.fire('PreToolUse', bash)).blocked).toBe(false);
    const n = await engine.fire('Notification', {});
    expect(n).toMatchObject({ blocked: true, reason: 'hook closed failed: y', decision: null });
  });

  it('an invalid return value is a failure, not silently ignored', async () => {
    const engine = new HookEngine();
    engine.register({ name: 'weird', events: 'PreToolUse', handler: () => 'allow' as never });
    const outcome = await engine.fire('PreToolUse', bash);
    expect(outcome.blocked).toBe(true);
    expect(outcome.reason).toMatch(/^hook weird failed: handler returned string/);
  });

  it('maxRetries re-invokes a failing handler before onError applies', async () => {
    let calls = 0;
    const engine = new HookEngine();
    engine.register({
      name: 'flaky',
      events: 'PreToolUse',
      maxRetries: 2,
      handler: async () => {
        calls++;
        if (calls < 3) throw new Error(`try ${calls}`);
        return allow('third time');
      },
    });
    const outcome = await engine.fire('PreToolUse', bash);
    expect(calls).toBe(3);
    expect(outcome).toMatchObject({ blocked: false, decision: 'allow', reason: 'third time' });

    let sync = 0;
    engine.replace({
      name: 'flaky',
      events: 'PreToolUse',
      maxRetries: 1,
      handler: () => {
        sync++;
        throw new Error('always');
      },
    });
    const failed = await engine.fire('PreToolUse', bash);
    expect(sync).toBe(2);
    expect(failed.reason).toBe('hook flaky failed: always');
  });

  it('a hung handler times out: its signal fires, status timeout, chain fails closed', async () => {
    const engine = new HookEngine();
    let aborted: unknown;
    engine.register({
      name: 'hang',
      events: 'PreToolUse',
      timeoutMs: 20,
      handler: (_input, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            aborted = ctx.signal.reason;
            resolve(undefined);
          });
        }),
    });
    const outcome = await engine.fire('PreToolUse', bash);
    expect(aborted).toBeInstanceOf(Error);
    expect(outcome.hooks[0]).toMatchObject({ status: 'timeout', error: 'timed out after 20 ms' });
    expect(outcome).toMatchObject({ blocked: true, reason: 'hook hang failed: timed out after 20 ms' });
  });

  it('a handler that ignores its signal does not hold the chain, and its late rejection is not unhandled', async () => {
    const engine = new HookEngine();
    engine.register({
      name: 'stubborn',
      events: 'PostToolUse',
      timeoutMs: 10,
      handler: async () => {
        await sleep(40);
        throw new Error('too late to matter');
      },
    });
    engine.register({ name: 'next', events: 'PostToolUse', handler: () => context('ran') });
    const outcome = await engine.fire('PostToolUse', bash);
    expect(outcome.hooks[0]!.status).toBe('timeout');
    expect(outcome.additionalContext).toBe('ran');
    await sleep(60); // the stubborn handler rejects now; the test fails if that rejection is unhandled
  });

  it('a slow handler inside its timeout is just slow', async () => {
    const engine = new HookEngine({ timing: true });
    engine.register({ name: 'slow', events: 'PreToolUse', timeoutMs: 1000, handler: async () => (await sleep(30), deny('late no')) });
    const outcome = await engine.fire('PreToolUse', bash);
    expect(outcome).toMatchObject({ blocked: true, reason: 'late no' });
    expect(outcome.hooks[0]!.durationMs).toBeGreaterThanOrEqual(25);
  });

  it('aborting the fire aborts the running hook and skips the rest', async () => {
    const engine = new HookEngine();
    const controller = new AbortController();
    let sawAbort = false;
    engine.register({
      name: 'waits',
      events: 'PostToolUse',
      handler: (_i, ctx) => new Promise((r) => ctx.signal.addEventListener('abort', () => ((sawAbort = true), r(undefined)))),
    });
    engine.register({ name: 'never', events: 'PostToolUse', onError: 'block', handler: () => context('no') });
    const pending = engine.fire('PostToolUse', bash, { signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    const outcome = await pending;
    expect(sawAbort).toBe(true);
    expect(outcome.hooks[0]).toMatchObject({ status: 'error', error: 'aborted' });
    await expect(engine.fire('PostToolUse', bash, { signal: controller.signal })).rejects.toBeDefined();
  });
});

describe('async hooks (docs/model.md, "Failures")', () => {
  it('never change the outcome; what they return arrives with the next outcome of the same session; drain awaits them', async () => {
    const engine = new HookEngine();
    let finished = false;
    engine.register({
      name: 'bg',
      events: 'PostToolUse',
      async: true,
      handler: async () => {
        await sleep(20);
        finished = true;
        return deny('ignored', { additionalContext: 'from the background', systemMessage: 'bg says hi' });
      },
    });
    const first = await engine.fire('PostToolUse', bash);
    expect(first.hooks[0]).toMatchObject({ name: 'bg', status: 'async', result: null });
    expect(first.blocked).toBe(false);
    expect(finished).toBe(false);
    await engine.drain();
    expect(finished).toBe(true);
    const other = await engine.fire('Stop', { session_id: 'someone-else' });
    expect(other.additionalContext).toBeNull();
    engine.unregister('bg');
    engine.register({ name: 'sync', events: 'Stop', handler: () => context('now') });
    const next = await engine.fire('Stop', { session_id: 's1' });
    expect(next.additionalContext).toBe('from the background\nnow');
    expect(next.systemMessage).toBe('bg says hi');
    const after = await engine.fire('Stop', { session_id: 's1' });
    expect(after.additionalContext).toBe('now');
  });

  it('are delivered even when the next fire selects no hook', async () => {
    const engine = new HookEngine();
    engine.register({ name: 'bg', events: 'PostToolUse', async: true, handler: () => systemMessage('done') });
    await engine.fire('PostToolUse', bash);
    await engine.drain();
    expect((await engine.fire('Notification', { session_id: 's1' })).systemMessage).toBe('done');
  });

  it('ending a session drains its async hooks and forgets its state', async () => {
    const engine = new HookEngine();
    let done = false;
    engine.register({ name: 'bg', events: 'PostToolUse', async: true, handler: async () => void (await sleep(20), (done = true)) });
    engine.register({
      name: 'count',
      events: 'Stop',
      handler: (_i, ctx) => void ctx.state.set('n', (ctx.state.get<number>('n') ?? 0) + 1),
    });
    engine.register({ name: 'read', events: 'Notification', handler: (_i, ctx) => context(String(ctx.state.get('n') ?? 'none')) });
    await engine.fire('Stop', { session_id: 's1' });
    await engine.fire('PostToolUse', bash);
    expect((await engine.fire('Notification', { session_id: 's1' })).additionalContext).toBe('1');
    await engine.fire('SessionEnd', { session_id: 's1' });
    expect(done).toBe(true);
    expect((await engine.fire('Notification', { session_id: 's1' })).additionalContext).toBe('none');
  });

  it('a failing async hook is logged, not thrown', async () => {
    const warnings: string[] = [];
    const engine = new HookEngine({ logger: { debug() {}, info() {}, warn: (m) => void warnings.push(m), error() {} } });
    engine.register({
      name: 'bg',
      events: 'PostToolUse',
      async: true,
      handler: async () => {
        throw new Error('bg broke');
      },
    });
    await engine.fire('PostToolUse', bash);
    await engine.drain();
    expect(warnings).toEqual(['hookwise: async hook bg failed: bg broke']);
  });
});

describe('once and session state (docs/model.md, "Hook fields": once; "Results": ctx.state)', () => {
  it('once runs at most once per session, counting a run whatever it returned', async () => {
    const engine = new HookEngine();
    let runs = 0;
    engine.register({
      name: 'init',
      events: 'PreToolUse',
      once: true,
      onError: 'continue',
      handler: () => {
        runs++;
        throw new Error('failed but ran');
      },
    });
    await engine.fire('PreToolUse', bash);
    await engine.fire('PreToolUse', bash);
    await engine.fire('PreToolUse', { ...bash, session_id: 's2' });
    expect(runs).toBe(2);
    const third = await engine.fire('PreToolUse', bash);
    expect(third.hooks).toEqual([]);
  });

  it('1,000 concurrent fires on different sessions keep their state apart', async () => {
    const engine = new HookEngine();
    engine.register({
      name: 'counter',
      events: 'PreToolUse',
      handler: async (input, ctx) => {
        const n = (ctx.state.get<number>('n') ?? 0) + 1;
        await sleep(Math.random() * 5);
        ctx.state.set('n', n);
        return context(`${input.session_id}:${n}:${ctx.sessionId}`);
      },
    });
    const fires = [];
    for (let i = 0; i < 1000; i++) fires.push(engine.fire('PreToolUse', { ...bash, session_id: `s${i}` }));
    const first = await Promise.all(fires);
    first.forEach((o, i) => expect(o.additionalContext).toBe(`s${i}:1:s${i}`));
    const second = await Promise.all(first.map((_, i) => engine.fire('PreToolUse', { ...bash, session_id: `s${i}` })));
    second.forEach((o, i) => expect(o.additionalContext).toBe(`s${i}:2:s${i}`));
  });

  it('ctx carries sessionId and cwd from the options, else from the input', async () => {
    const engine = new HookEngine();
    const seen: string[] = [];
    engine.register({ name: 'h', events: 'Stop', handler: (_i, ctx) => void seen.push(`${ctx.sessionId}@${ctx.cwd}@${ctx.hookName}`) });
    await engine.fire('Stop', { session_id: 'in', cwd: '/from/input' });
    await engine.fire('Stop', { session_id: 'in', cwd: '/from/input' }, { sessionId: 'opt', cwd: '/from/options' });
    expect(seen).toEqual(['in@/from/input@h', 'opt@/from/options@h']);
  });
});
