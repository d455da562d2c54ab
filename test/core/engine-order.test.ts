import { describe, expect, it } from 'vitest';
import { allow, block, context, deny, type HandlerReturn, HookEngine, type Hook, modify, retry, skip, stop } from '../../src/index.js';

/** A hook that records its name in `log` and returns `result`. */
function hook(log: string[], name: string, result: HandlerReturn = undefined, extra: Partial<Hook<'PreToolUse'>> = {}): Hook<'PreToolUse'> {
  return { name, events: 'PreToolUse', handler: () => (log.push(name), result), ...extra };
}

const bash = { tool_name: 'Bash', tool_input: { command: 'ls' }, session_id: 's1' };

describe('ordering (docs/model.md, "Order")', () => {
  it('runs higher priority first and keeps registration order on ties', async () => {
    const log: string[] = [];
    const engine = new HookEngine();
    engine.register(hook(log, 'low', undefined, { priority: -5 }));
    engine.register(hook(log, 'a'));
    engine.register(hook(log, 'high', undefined, { priority: 10 }));
    engine.register(hook(log, 'b'));
    const outcome = await engine.fire('PreToolUse', bash);
    expect(log).toEqual(['high', 'a', 'b', 'low']);
    expect(outcome.hooks.map((h) => h.name)).toEqual(['high', 'a', 'b', 'low']);
  });

  it('seed 002: security (priority 10 in 002, i.e. runs first) before audit-log', async () => {
    // Seed 002 ran lower numbers first; hookwise runs higher first, so a port flips the sign.
    const log: string[] = [];
    const engine = new HookEngine();
    engine.register(hook(log, 'audit-log', undefined, { priority: -1000 }));
    engine.register(hook(log, 'security-check', undefined, { priority: -10 }));
    await engine.fire('pre_tool_use', bash);
    expect(log).toEqual(['security-check', 'audit-log']);
  });

  it('registering a name again is an error naming both sources; the first hook stays', async () => {
    const log: string[] = [];
    const engine = new HookEngine();
    engine.register({ ...hook(log, 'x'), source: 'a.ts' });
    expect(() => engine.register({ ...hook(log, 'x'), source: 'b.ts' })).toThrow(
      'hook "x" (b.ts): name: a hook named "x" is already registered (a.ts); give each hook its own name, or call replace() to swap it',
    );
    await engine.fire('PreToolUse', bash);
    expect(log).toEqual(['x']);
  });

  it('replace() swaps the hook of that name and moves it to the end of registration order', async () => {
    const log: string[] = [];
    const engine = new HookEngine();
    engine.register(hook(log, 'x'));
    engine.register(hook(log, 'y'));
    engine.replace({ ...hook(log, 'x'), handler: () => void log.push('x2') });
    await engine.fire('PreToolUse', bash);
    expect(log).toEqual(['y', 'x2']);
    expect(engine.hooks('PreToolUse').map((h) => h.name)).toEqual(['y', 'x']);
  });

  it('unregister removes a hook; hooks() lists all in registration order', async () => {
    const log: string[] = [];
    const engine = new HookEngine();
    engine.register(hook(log, 'x')).register({ ...hook(log, 'y'), events: ['PreToolUse', 'Stop'] });
    expect(engine.unregister('x')).toBe(true);
    expect(engine.unregister('nope')).toBe(false);
    await engine.fire('PreToolUse', bash);
    expect(log).toEqual(['y']);
    expect(engine.hooks().map((h) => h.name)).toEqual(['y']);
    expect(engine.hooks('Stop').map((h) => h.name)).toEqual(['y']);
  });
});

describe('the chain (docs/model.md, "Order")', () => {
  it.each([
    ['deny', deny('no')],
    ['block', block('no')],
    ['stop', stop('halt')],
    ['retry', retry(5)],
  ])('%s ends the chain; later hooks are recorded as skipped', async (kind, result) => {
    const log: string[] = [];
    const engine = new HookEngine();
    engine.register(hook(log, 'first', allow()));
    engine.register(hook(log, 'decider', result));
    engine.register(hook(log, 'later', context('never')));
    const outcome = await engine.fire('PreToolUse', bash);
    expect(log).toEqual(['first', 'decider']);
    expect(outcome.hooks.map((h) => [h.name, h.status, h.result])).toEqual([
      ['first', 'ok', 'allow'],
      ['decider', 'ok', kind],
      ['later', 'skipped', null],
    ]);
    expect(outcome.additionalContext).toBeNull();
  });

  it('skip ends the chain and keeps what earlier hooks decided and rewrote', async () => {
    const log: string[] = [];
    const engine = new HookEngine();
    engine.register(hook(log, 'rewrite', modify({ command: 'ls -la' })));
    engine.register(hook(log, 'ctx', context('hello')));
    engine.register(hook(log, 'skipper', skip()));
    engine.register(hook(log, 'later', deny('never')));
    const outcome = await engine.fire('PreToolUse', bash);
    expect(log).toEqual(['rewrite', 'ctx', 'skipper']);
    expect(outcome.blocked).toBe(false);
    expect(outcome.updatedInput).toEqual({ command: 'ls -la' });
    expect(outcome.additionalContext).toBe('hello');
    expect(outcome.hooks.at(-1)).toMatchObject({ name: 'later', status: 'skipped' });
  });

  it('each hook sees the input as modified by the hooks before it', async () => {
    const seen: unknown[] = [];
    const engine = new HookEngine();
    engine.register({ name: 'a', events: 'PreToolUse', handler: () => modify({ command: 'ls -la' }) });
    engine.register({ name: 'b', events: 'PreToolUse', handler: (input) => void seen.push(input.tool_input) });
    engine.register({ name: 'p', events: 'UserPromptSubmit', handler: () => modify({ prompt: 'rewritten' }) });
    engine.register({ name: 'q', events: 'UserPromptSubmit', handler: (input) => void seen.push(input.prompt) });
    await engine.fire('PreToolUse', bash);
    await engine.fire('UserPromptSubmit', { prompt: 'original', session_id: 's1' });
    expect(seen).toEqual([{ command: 'ls -la' }, 'rewritten']);
  });

  it('parallel mode runs every hook on the original input and merges in priority order, not completion order', async () => {
    const seen: unknown[] = [];
    const engine = new HookEngine({ parallel: true });
    const later = <T>(ms: number, value: T) => new Promise<T>((r) => setTimeout(() => r(value), ms));
    engine.register({ name: 'slow-first', events: 'PreToolUse', priority: 2, handler: () => later(30, context('one')) });
    engine.register({ name: 'rewrite', events: 'PreToolUse', priority: 1, handler: () => modify({ command: 'pwd' }) });
    engine.register({ name: 'fast-last', events: 'PreToolUse', handler: (i) => (seen.push(i.tool_input), later(1, context('two'))) });
    const outcome = await engine.fire('PreToolUse', bash);
    expect(seen).toEqual([{ command: 'ls' }]);
    expect(outcome.additionalContext).toBe('one\ntwo');
    expect(outcome.updatedInput).toEqual({ command: 'pwd' });
  });

  it('parallel mode: results after the hook that ended the chain do not count', async () => {
    const engine = new HookEngine({ parallel: true });
    engine.register({ name: 'denier', events: 'PreToolUse', priority: 1, handler: () => deny('no') });
    engine.register({ name: 'ctx', events: 'PreToolUse', handler: () => context('late') });
    const outcome = await engine.fire('PreToolUse', bash);
    expect(outcome.blocked).toBe(true);
    expect(outcome.additionalContext).toBeNull();
  });
});

describe('the outcome record (docs/model.md, "Merging": hooks)', () => {
  it('has exactly the documented fields and survives JSON', async () => {
    const engine = new HookEngine();
    engine.register({ name: 'h', events: 'PreToolUse', handler: () => allow('fine') });
    const outcome = await engine.fire('PreToolUse', bash);
    expect(Object.keys(outcome).sort()).toEqual(
      [
        'event',
        'decision',
        'blocked',
        'reason',
        'stop',
        'stopReason',
        'updatedInput',
        'updatedOutput',
        'additionalContext',
        'systemMessage',
        'suppressOutput',
        'retry',
        'elicitation',
        'worktreePath',
        'hooks',
      ].sort(),
    );
    expect(Object.keys(outcome.hooks[0]!).sort()).toEqual(['durationMs', 'error', 'name', 'result', 'status']);
    expect(JSON.parse(JSON.stringify(outcome))).toEqual(outcome);
    expect(outcome).toMatchObject({ event: 'PreToolUse', decision: 'allow', reason: 'fine', blocked: false });
    expect(outcome.hooks[0]!.durationMs).toBeUndefined();
  });

  it('uses the canonical event name for aliases', async () => {
    const engine = new HookEngine();
    expect((await engine.fire('PreToolCall', bash)).event).toBe('PreToolUse');
    expect((await engine.fire('GenerateStart', {})).event).toBe('PreModelCall');
    expect((await engine.fire('MyCustomEvent', {})).event).toBe('MyCustomEvent');
  });

  it('every outcome reaches every listener, denied ones included; unsubscribe works', async () => {
    const engine = new HookEngine();
    engine.register({ name: 'd', events: 'PreToolUse', handler: () => deny('no') });
    const a: string[] = [];
    const b: string[] = [];
    const offA = engine.on('outcome', (o) => void a.push(`${o.event}:${o.decision}`));
    engine.on('outcome', (o, meta) => void b.push(`${o.event}:${meta.sessionId}`));
    await engine.fire('PreToolUse', bash);
    await engine.fire('Stop', { session_id: 's2' });
    offA();
    await engine.fire('Stop', {});
    expect(a).toEqual(['PreToolUse:deny', 'Stop:null']);
    expect(b).toEqual(['PreToolUse:s1', 'Stop:s2', 'Stop:default']);
  });

  it('adds hook_event_name and session_id to the input the hooks see', async () => {
    const engine = new HookEngine();
    let seen: Record<string, unknown> = {};
    engine.register({ name: 'h', events: 'PreToolUse', handler: (i) => void (seen = i) });
    await engine.fire('PreToolCall', { tool_name: 'X' }, { sessionId: 'abc', cwd: '/tmp' });
    expect(seen).toMatchObject({ hook_event_name: 'PreToolUse', session_id: 'abc', cwd: '/tmp', tool_name: 'X' });
  });

  it('rejects input that is not an object', async () => {
    const engine = new HookEngine();
    await expect(engine.fire('Stop', [] as never)).rejects.toThrow('input must be a JSON object');
  });
});
