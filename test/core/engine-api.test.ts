/**
 * The engine's edges: event names, matchers and results that are not what they
 * should be, inputs hooks cannot change in place, a fresh ctx per hook, the
 * fire's projectDir and env, introspection, and `events: '*'`.
 */
import { describe, expect, it } from 'vitest';
import {
  type AnyHook,
  allow,
  asHook,
  context,
  defineHook,
  deny,
  HookEngine,
  HookSpecError,
  modify,
  type HookContext,
  type HookInput,
  type HookSpec,
} from '../../src/index.js';

// Hooks naming events the compiler does not know (misspelt, custom) go through asHook,
// as hooks read from a settings file do: what these tests check is register()'s own check.

const bash = (command = 'ls') => ({ tool_name: 'Bash', tool_input: { command }, session_id: 's1' });

describe('event names are checked at register() and fire()', () => {
  it.each(['pretooluse', 'PRETOOLUSE', 'Pre_Tool_Use', 'PreToolUs', 'PreTooluse', 'sessionstart', 'Stopp'])(
    '%s is a near miss: an error that says what was meant',
    async (name) => {
      const engine = new HookEngine();
      expect(() => engine.register(asHook({ name: 'h', events: name, handler: () => undefined }))).toThrow(HookSpecError);
      expect(() => engine.register(asHook({ name: 'h', events: ['PreToolUse', name], handler: () => undefined }))).toThrow(
        /events: unknown event ".*"; did you mean "(PreToolUse|SessionStart|Stop)"\?/,
      );
      await expect(engine.fire(name, bash())).rejects.toThrow(/did you mean/);
      expect(engine.hookCount()).toBe(0);
    },
  );

  it('empty names, blank names, non-strings and names with spaces around are errors', async () => {
    const engine = new HookEngine();
    for (const bad of ['', '  ', 42, null]) {
      // `bad` is not always a string, on purpose: the engine must refuse what JavaScript callers pass.
      expect(() => engine.register(asHook({ name: 'h', events: bad as string, handler: () => undefined }))).toThrow(HookSpecError);
      await expect(engine.fire(bad as string, {})).rejects.toThrow('event name must be a non-empty string');
    }
    expect(() => engine.register({ name: 'h', events: [], handler: () => undefined })).toThrow(/events: expected an event name/);
    await expect(engine.fire(' PreToolUse', {})).rejects.toThrow('did you mean "PreToolUse"?');
    await expect(engine.fire('*', {})).rejects.toThrow('"*" means every event');
  });

  it('custom names that do not look like a known event are events of their own', async () => {
    const engine = new HookEngine();
    engine.register(asHook({ name: 'deploy', events: 'DeployFinished', handler: () => context('deployed') }));
    const outcome = await engine.fire('DeployFinished', {});
    expect([outcome.event, outcome.additionalContext]).toEqual(['DeployFinished', 'deployed']);
  });

  it("seed names are accepted everywhere: 000's PreToolCall, 002's pre_tool_use, 003's camelCase preToolUse", async () => {
    const engine = new HookEngine();
    engine.register({ name: 'h', events: ['preToolUse', 'sessionStart'], handler: () => context('ran') });
    for (const name of ['PreToolCall', 'pre_tool_use', 'preToolUse', 'PreToolUse']) {
      const outcome = await engine.fire(name, bash());
      expect([outcome.event, outcome.additionalContext]).toEqual(['PreToolUse', 'ran']);
    }
    expect((await engine.fire('session_start', {})).additionalContext).toBe('ran');
  });
});

describe("events: '*' and null matchers (seed 000)", () => {
  it("a '*' hook runs for every event: known, alias and custom, including events first fired after it was registered", async () => {
    const seen: string[] = [];
    const engine = new HookEngine();
    engine.register({ name: 'audit', events: '*', handler: (input) => void seen.push(input.hook_event_name!) });
    await engine.fire('SessionStart', { source: 'startup' });
    await engine.fire('PreToolCall', bash());
    await engine.fire('Notification', {});
    await engine.fire('DeployFinished', {});
    expect(seen).toEqual(['SessionStart', 'PreToolUse', 'Notification', 'DeployFinished']);
    expect(engine.hooks('Stop').map((h) => h.name)).toEqual(['audit']);
    expect(engine.unregister('audit')).toBe(true);
    await engine.fire('PreToolUse', bash());
    await engine.fire('DeployFinished', {});
    expect(seen).toHaveLength(4);
    expect(engine.hookCount('PreToolUse')).toBe(0);
  });

  it("a '*' hook also runs beside hooks of a custom event registered after it", async () => {
    const engine = new HookEngine();
    engine.register({ name: 'audit', events: '*', handler: () => context('audit') });
    engine.register(asHook({ name: 'deploys', events: 'DeployFinished', handler: () => context('deploys') }));
    expect((await engine.fire('DeployFinished', {})).additionalContext).toBe('audit\ndeploys');
    expect(engine.hookCount('DeployFinished')).toBe(2);
  });

  it("a '*' hook follows each event's failure policy and matcher field", async () => {
    const engine = new HookEngine();
    engine.register({
      name: 'bash-only',
      events: '*',
      matcher: 'Bash',
      handler: () => {
        throw new Error('down');
      },
    });
    const pre = await engine.fire('PreToolUse', bash());
    expect([pre.blocked, pre.reason]).toEqual([true, 'hook bash-only failed: down']);
    expect((await engine.fire('PreToolUse', { tool_name: 'Read' })).hooks).toEqual([]);
    const post = await engine.fire('PostToolUse', bash());
    expect([post.blocked, post.hooks[0]?.status]).toEqual([false, 'error']);
  });

  it('a null matcher runs for every event the hook is registered for', async () => {
    const seen: string[] = [];
    const engine = new HookEngine();
    engine.register(
      defineHook({
        name: 'all',
        events: ['PreToolUse', 'Stop', 'SessionStart'],
        // null is not a Matcher: a JavaScript caller may pass it all the same.
        matcher: null as never,
        handler: (i) => void seen.push(i.hook_event_name),
      }),
    );
    await engine.fire('PreToolUse', { tool_name: 'anything' });
    await engine.fire('Stop', {});
    await engine.fire('SessionStart', { source: 'resume' });
    expect(seen).toEqual(['PreToolUse', 'Stop', 'SessionStart']);
  });

  it("target matchers accept the seed's own event names: PreToolCall:.*:delete_.* matches a PreToolUse of delete_file", async () => {
    const engine = new HookEngine();
    engine.register({
      name: 'no-delete',
      events: 'PreToolCall',
      matcher: { target: 'PreToolCall:.*:delete_.*' },
      handler: () => deny('Deletion not allowed'),
    });
    engine.register({ name: 'pre-only', events: '*', matcher: { target: 'PreToolCall' }, handler: () => context('pre') });
    const del = await engine.fire('PreToolUse', { tool_name: 'delete_file', step_name: 'Agent' });
    expect([del.decision, del.reason]).toEqual(['deny', 'Deletion not allowed']);
    const read = await engine.fire('PreToolUse', { tool_name: 'read_file' });
    expect([read.decision, read.additionalContext]).toEqual([null, 'pre']);
    expect((await engine.fire('PostToolUse', { tool_name: 'delete_file' })).hooks).toEqual([]);
  });
});

describe('matchers answer true or false, synchronously', () => {
  const answers: Array<[string, unknown]> = [
    ['"yes"', 'yes'],
    ['1', 1],
    ['a Promise', Promise.resolve(true)],
    ['undefined', undefined],
  ];
  it.each(answers)(
    'a matcher that returns %s fails its hook: closed on a blockable event, the handler never runs',
    async (what, answer) => {
      let ran = false;
      const engine = new HookEngine();
      engine.register({ name: 'm', events: 'PreToolUse', matcher: () => answer as boolean, handler: () => void (ran = true) });
      const outcome = await engine.fire('PreToolUse', bash());
      expect(ran).toBe(false);
      expect(outcome.blocked).toBe(true);
      expect(outcome.decision).toBe('deny');
      expect(outcome.reason).toBe(
        `hook m failed: matcher failed: matcher returned ${what}; a matcher must return true or false synchronously`,
      );
      expect(outcome.hooks).toMatchObject([{ name: 'm', status: 'error' }]);
    },
  );

  it('a matcher that throws fails its hook the same way; on a non-blockable event the failure is recorded and ignored', async () => {
    const engine = new HookEngine();
    engine.register({
      name: 'm',
      events: ['PreToolUse', 'PostToolUse'],
      matcher: {
        all: [
          () => {
            throw new Error('boom');
          },
        ],
      },
      handler: () => allow(),
    });
    const pre = await engine.fire('PreToolUse', bash());
    expect([pre.blocked, pre.reason]).toEqual([true, 'hook m failed: matcher failed: boom']);
    const post = await engine.fire('PostToolUse', bash());
    expect(post.blocked).toBe(false);
    expect(post.hooks).toMatchObject([{ name: 'm', status: 'error', error: 'matcher failed: boom' }]);
  });

  it('onError: continue lets a broken matcher fail open, visibly', async () => {
    const engine = new HookEngine();
    engine.register({ name: 'm', events: 'PreToolUse', onError: 'continue', matcher: () => 'yes' as never, handler: () => deny('never') });
    const outcome = await engine.fire('PreToolUse', bash());
    expect(outcome.blocked).toBe(false);
    expect(outcome.hooks[0]!.status).toBe('error');
  });
});

describe('results that are not results are hook failures', () => {
  it.each([
    ['a result of an unknown kind', { kind: 'maybe' }, 'handler returned a result of unknown kind "maybe"'],
    ['a string', 'allow', 'handler returned string'],
    ['a number', 0, 'handler returned number'],
    ['an array', [], 'handler returned an array'],
    ['a boolean', true, 'handler returned boolean'],
  ])('%s: closed on PreToolUse', async (_what, value, why) => {
    const engine = new HookEngine();
    engine.register({ name: 'odd', events: 'PreToolUse', handler: () => value as never });
    const outcome = await engine.fire('PreToolUse', bash());
    expect(outcome.blocked).toBe(true);
    expect(outcome.reason).toContain(`hook odd failed: ${why}`);
  });
});

describe('hooks cannot change the input in place', () => {
  it('an in-place edit of input.tool_input fails the hook loudly; what runs is never changed unrecorded', async () => {
    const engine = new HookEngine();
    engine.register({
      name: 'editor',
      events: 'PreToolUse',
      handler: (i) => {
        i.tool_input.command = 'rm -rf /';
        return allow();
      },
    });
    const input = bash('ls');
    const outcome = await engine.fire('PreToolUse', input);
    expect(outcome.blocked).toBe(true);
    expect(outcome.updatedInput).toBeNull();
    expect(outcome.reason).toMatch(
      /^hook editor failed: .*read.only.*\(hook inputs are read-only: return modify\(\.\.\.\) to rewrite the input\)$/,
    );
    expect(input).toEqual(bash('ls'));
    expect(Object.isFrozen(input) || Object.isFrozen(input.tool_input)).toBe(false);
  });

  // Catches: seed 004's style (edit ctx.tool_input, return nothing) failing the hook, or the edit reaching the tool unrecorded.
  it("seed 004's in-place edit of ctx.tool_input is the hook's recorded modify: the next hook sees it, the host's input is untouched", async () => {
    const seen: unknown[] = [];
    const engine = new HookEngine();
    engine.register({
      name: 'editor',
      events: 'PreToolUse',
      handler: (_i, ctx) => {
        (ctx.tool_input as Record<string, unknown>).command = 'ls -a';
      },
    });
    engine.register({ name: 'next', events: 'PreToolUse', handler: (i) => void seen.push(i.tool_input.command) });
    const input = bash('ls');
    const outcome = await engine.fire('PreToolUse', input);
    expect(outcome.blocked).toBe(false);
    expect(outcome.updatedInput).toEqual({ command: 'ls -a' });
    expect(outcome.hooks[0]).toMatchObject({ name: 'editor', status: 'ok', result: 'modify' });
    expect(seen).toEqual(['ls -a']);
    expect(input).toEqual(bash('ls'));
  });

  it('an edit of ctx.tool_input beside allow() keeps the allow and carries the edit; beside deny() it is dropped; read but unchanged is no rewrite', async () => {
    const engine = new HookEngine();
    const edit = (ctx: HookContext) => {
      (ctx.tool_input as Record<string, unknown>).command = 'ls -a';
    };
    engine.register({ name: 'allows', events: 'PreToolUse', matcher: 'A', handler: (_i, ctx) => (edit(ctx), allow()) });
    engine.register({ name: 'denies', events: 'PreToolUse', matcher: 'D', handler: (_i, ctx) => (edit(ctx), deny('no')) });
    engine.register({ name: 'reads', events: 'PreToolUse', matcher: 'R', handler: (_i, ctx) => void String(ctx.tool_input?.command) });
    const allowed = await engine.fire('PreToolUse', { tool_name: 'A', tool_input: { command: 'ls' } });
    expect([allowed.decision, allowed.updatedInput]).toEqual(['allow', { command: 'ls -a' }]);
    const denied = await engine.fire('PreToolUse', { tool_name: 'D', tool_input: { command: 'ls' } });
    expect([denied.decision, denied.updatedInput]).toEqual(['deny', null]);
    const read = await engine.fire('PreToolUse', { tool_name: 'R', tool_input: { command: 'ls' } });
    expect([read.updatedInput, read.hooks[0]?.result]).toEqual([null, 'none']);
  });

  it('an edit of ctx.tool_input beside a returned modify(...) of another input fails the hook: the two answers disagree', async () => {
    const engine = new HookEngine();
    engine.register({
      name: 'both',
      events: 'PreToolUse',
      handler: async (i, ctx) => {
        (ctx.tool_input as Record<string, unknown>).command = 'ls -a';
        return modify({ ...i.tool_input, command: 'ls -l' });
      },
    });
    const outcome = await engine.fire('PreToolUse', bash('ls'));
    expect(outcome.blocked).toBe(true);
    expect(outcome.reason).toContain(
      'hook both failed: the hook edited ctx.tool_input in place and also returned modify(...) with another input',
    );
  });

  it('adding or deleting top-level fields fails the same way; the next hook sees the input unchanged', async () => {
    const seen: unknown[] = [];
    const engine = new HookEngine();
    engine.register({
      name: 'adder',
      events: 'PostToolUse',
      handler: (i) => {
        (i as Record<string, unknown>).extra = 1;
      },
    });
    engine.register({
      name: 'deleter',
      events: 'PostToolUse',
      handler: (i) => {
        delete (i as Record<string, unknown>).tool_name;
      },
    });
    engine.register({ name: 'reader', events: 'PostToolUse', handler: (i) => void seen.push({ ...i }) });
    const outcome = await engine.fire('PostToolUse', bash());
    expect(outcome.hooks.map((h) => h.status)).toEqual(['error', 'error', 'ok']);
    expect(seen).toEqual([{ ...bash(), hook_event_name: 'PostToolUse' }]);
  });

  it('the way to rewrite is modify(): the next hook sees the rewrite sealed, the host gets its own copy', async () => {
    const engine = new HookEngine();
    let seenByNext: HookInput<'PreToolUse'> | undefined;
    const replacement = { command: 'ls -la', nested: { deep: [1] } };
    engine.register({ name: 'rewrite', events: 'PreToolUse', handler: () => modify(replacement) });
    engine.register({ name: 'next', events: 'PreToolUse', handler: (i) => void (seenByNext = i) });
    const outcome = await engine.fire('PreToolUse', bash('ls'));
    expect(seenByNext!.tool_input).toEqual(replacement);
    expect(Object.isFrozen((seenByNext!.tool_input as { nested: object }).nested)).toBe(true);
    replacement.nested.deep.push(2);
    expect(outcome.updatedInput).toEqual({ command: 'ls -la', nested: { deep: [1] } });
    (outcome.updatedInput as { command: string }).command = 'host may change its copy';
    expect(seenByNext!.tool_input!.command).toBe('ls -la');
  });

  it('matchers see the sealed input too: a matcher cannot rewrite what hooks judge', async () => {
    const engine = new HookEngine();
    engine.register({
      name: 'sneaky',
      events: 'PreToolUse',
      matcher: (i) => {
        try {
          i.tool_input!.command = 'rm -rf /';
        } catch {
          /* read-only */
        }
        return true;
      },
      handler: () => undefined,
    });
    engine.register({ name: 'judge', events: 'PreToolUse', handler: (i) => (i.tool_input!.command === 'ls' ? allow() : deny('changed')) });
    expect((await engine.fire('PreToolUse', bash('ls'))).decision).toBe('allow');
  });

  it('a sealed copy is the input, field for field and in order, frozen at every level, whatever its width (fields past the per-position stores too)', async () => {
    const engine = new HookEngine();
    const seen: HookInput<'PreToolUse'>[] = [];
    engine.register({ name: 'look', events: 'PreToolUse', handler: (i) => void seen.push(i) });
    const wide = (n: number, prefix: string, inner?: () => unknown) =>
      Object.fromEntries(Array.from({ length: n }, (_, k) => [`${prefix}${k}`, inner && k % 3 === 0 ? inner() : k]));
    for (const width of [1, 4, 5, 8, 9, 14]) {
      const input = { tool_name: 'Bash', tool_input: wide(width, 'n', () => wide(width, 'd')), ...wide(width, 'top') };
      const before = JSON.stringify(input);
      // Two fires: the stores of each position have seen a shape already on the second.
      for (let round = 0; round < 2; round++) await engine.fire('PreToolUse', input);
      for (const sealed of seen.splice(0)) {
        const { hook_event_name, session_id, ...rest } = sealed;
        expect([hook_event_name, session_id]).toEqual(['PreToolUse', 'default']);
        expect(JSON.stringify(rest)).toBe(before);
        expect(Object.isFrozen(sealed) && Object.isFrozen(sealed.tool_input)).toBe(true);
        expect(Object.isFrozen((sealed.tool_input as Record<string, unknown>).n0)).toBe(true);
      }
      expect(JSON.stringify(input)).toBe(before);
      expect(Object.isFrozen(input)).toBe(false);
    }
  });

  it('an input nested absurdly deep (or cyclic) is refused, not walked forever', async () => {
    const engine = new HookEngine();
    engine.register({ name: 'h', events: 'PreToolUse', handler: () => allow() });
    const cyclic: Record<string, unknown> = { tool_name: 'Bash' };
    cyclic.tool_input = cyclic;
    await expect(engine.fire('PreToolUse', cyclic)).rejects.toThrow('input is nested deeper than 512 levels (or is cyclic)');
  });
});

describe('a `__proto__` key in the input (JSON.parse makes it an own field)', () => {
  it('stays an own field of the sealed copy, at any depth and after a rewrite; it never becomes its prototype', async () => {
    const input = JSON.parse('{"__proto__":{"tool_name":"Read"},"tool_input":{"__proto__":{"command":"rm -rf /"}}}');
    const seen: Array<{ tool: unknown; command: unknown; protoOwn: boolean; prototype: boolean }> = [];
    const look = (i: HookInput<'PreToolUse'>) =>
      seen.push({
        tool: i.tool_name,
        command: (i.tool_input as Record<string, unknown>).command,
        protoOwn: Object.hasOwn(i.tool_input as object, '__proto__'),
        prototype: Object.getPrototypeOf(i) === Object.prototype && Object.getPrototypeOf(i.tool_input) === Object.prototype,
      });
    const engine = new HookEngine();
    engine.register({ name: 'first', events: 'PreToolUse', handler: (i) => (look(i), modify({ ...(i.tool_input as object), extra: 1 })) });
    engine.register({ name: 'second', events: 'PreToolUse', handler: (i) => void look(i) });
    await engine.fire('PreToolUse', input);
    expect(seen).toEqual([
      { tool: undefined, command: undefined, protoOwn: true, prototype: true },
      { tool: undefined, command: undefined, protoOwn: true, prototype: true },
    ]);
  });
});

describe('a fresh ctx per hook', () => {
  it('a hook that keeps its ctx keeps its own name, and annotating it later never touches another hook', async () => {
    const kept: HookContext[] = [];
    const engine = new HookEngine();
    engine.register({ name: 'first', events: 'PreToolUse', handler: (_i, ctx) => void kept.push(ctx) });
    engine.register({
      name: 'second',
      events: 'PreToolUse',
      handler: (_i, ctx) => {
        kept[0]!.annotate({ sneaky: true });
        ctx.annotate({ own: true });
      },
    });
    const outcome = await engine.fire('PreToolUse', bash());
    expect(kept[0]!.hookName).toBe('first');
    expect(outcome.hooks[1]).toMatchObject({ name: 'second', own: true });
    expect(outcome.hooks[1]).not.toHaveProperty('sneaky');
  });
});

describe('ctx.cwd, ctx.projectDir, ctx.env come from the host', () => {
  const capture = (engine: HookEngine) => {
    const seen: Array<Pick<HookContext, 'cwd' | 'projectDir' | 'env'>> = [];
    engine.register({
      name: 'c',
      events: 'PreToolUse',
      handler: (_i, ctx) => void seen.push({ cwd: ctx.cwd, projectDir: ctx.projectDir, env: ctx.env }),
    });
    return seen;
  };

  it('without options or input.cwd: cwd and projectDir are undefined (never the process cwd), env is empty', async () => {
    const engine = new HookEngine();
    const seen = capture(engine);
    await engine.fire('PreToolUse', bash());
    expect(seen[0]).toEqual({ cwd: undefined, projectDir: undefined, env: {} });
  });

  it('projectDir defaults to the cwd option, else input.cwd; the projectDir option wins', async () => {
    const engine = new HookEngine();
    const seen = capture(engine);
    await engine.fire('PreToolUse', { ...bash(), cwd: '/from/input' });
    await engine.fire('PreToolUse', { ...bash(), cwd: '/from/input' }, { cwd: '/from/option' });
    await engine.fire('PreToolUse', { ...bash(), cwd: '/from/input' }, { projectDir: '/project' });
    expect(seen.map((s) => [s.cwd, s.projectDir])).toEqual([
      ['/from/input', '/from/input'],
      ['/from/option', '/from/option'],
      ['/from/input', '/project'],
    ]);
  });

  it('env is a frozen copy of the env option: later changes by the host are not seen, writes by hooks fail', async () => {
    const engine = new HookEngine();
    const seen = capture(engine);
    const env: Record<string, string> = { API_URL: 'http://x' };
    engine.register({
      name: 'writer',
      events: 'PreToolUse',
      onError: 'continue',
      handler: (_i, ctx) => {
        (ctx.env as Record<string, string>).API_URL = 'evil';
      },
    });
    const outcome = await engine.fire('PreToolUse', bash(), { env });
    env.API_URL = 'changed';
    expect(seen[0]!.env).toEqual({ API_URL: 'http://x' });
    expect(outcome.hooks[1]!.status).toBe('error');
  });
});

describe('introspection', () => {
  it('hookCount() and getHook() read like the engine', () => {
    const engine = new HookEngine();
    const spec: AnyHook = { name: 'a', events: ['PreToolUse', 'Stop'], handler: () => undefined };
    engine.register(spec).register({ name: 'b', events: 'pre_tool_use', handler: () => undefined });
    expect(engine.hookCount()).toBe(2);
    expect(engine.hookCount('PreToolCall')).toBe(2);
    expect(engine.hookCount('Stop')).toBe(1);
    expect(engine.hookCount('SessionEnd')).toBe(0);
    expect(engine.getHook('a')).toBe(spec);
    expect(engine.getHook('nope')).toBeUndefined();
    expect(() => engine.hookCount('stop')).toThrow('did you mean "Stop"?');
  });
});

describe('fireMaybeSync() and observes(), for hosts on a hot path', () => {
  it('fireMaybeSync() answers synchronously when every hook does, with the Outcome fire() resolves to', async () => {
    const engine = new HookEngine()
      .register({ name: 'a', events: 'PreToolUse', handler: () => undefined })
      .register({ name: 'd', events: 'PreToolUse', matcher: 'Bash', handler: () => deny('no shell') });
    const now = engine.fireMaybeSync('PreToolUse', bash());
    expect(now).not.toBeInstanceOf(Promise);
    const { hooks: nowHooks, ...nowRest } = now as Exclude<typeof now, Promise<unknown>>;
    const { hooks: laterHooks, ...laterRest } = await engine.fire('PreToolUse', bash());
    expect(nowRest).toEqual(laterRest);
    expect(nowHooks.map((h) => [h.name, h.status, h.result])).toEqual(laterHooks.map((h) => [h.name, h.status, h.result]));
    expect(nowRest.decision).toBe('deny');
    expect(engine.fireMaybeSync('Stop', {})).toMatchObject({ event: 'Stop', blocked: false, hooks: [] });
  });

  it('fireMaybeSync() is a promise once a hook is async, and the same rejection as fire() for a bad input', async () => {
    const engine = new HookEngine().register({ name: 'slow', events: 'PreToolUse', handler: async () => deny('later') });
    const later = engine.fireMaybeSync('PreToolUse', bash());
    expect(later).toBeInstanceOf(Promise);
    expect((await later).reason).toBe('later');
    await expect(engine.fireMaybeSync('PreToolUse', [] as never)).rejects.toThrow('input must be a JSON object');
    await expect(engine.fireMaybeSync('pretooluse', {})).rejects.toThrow('did you mean');
  });

  it('observes() is true for an event with hooks, for every event with an outcome listener, and for SessionEnd', () => {
    const engine = new HookEngine();
    expect(engine.observes('PreModelCall')).toBe(false);
    expect(engine.observes('SessionEnd')).toBe(true);
    engine.register({ name: 'm', events: 'PreModelCall', handler: () => undefined });
    expect(engine.observes('PreModelCall')).toBe(true);
    expect(engine.observes('PostModelCall')).toBe(false);
    const off = engine.on('outcome', () => {});
    expect(engine.observes('PostModelCall')).toBe(true);
    off();
    expect(engine.observes('PostModelCall')).toBe(false);
    engine.register({ name: 'all', events: '*', handler: () => undefined });
    expect(engine.observes('PostModelCall')).toBe(true);
  });

  it("observes() is true while async hook output waits for the session's next Outcome", async () => {
    const engine = new HookEngine().register({ name: 'bg', events: 'PostToolUse', async: true, handler: () => context('later') });
    await engine.fire('PostToolUse', bash());
    await engine.drain();
    expect(engine.observes('PreModelCall')).toBe(true);
    expect((await engine.fire('PreModelCall', { session_id: 's1' })).additionalContext).toBe('later');
    expect(engine.observes('PreModelCall')).toBe(false);
  });
});

describe('hook names are unique', () => {
  it('two hooks of one config with the same name are a configuration error naming the file', async () => {
    const { engineFor } = await import('../../src/config/load.js');
    const hook = (source: string): HookSpec => ({ name: 'guard', events: 'PreToolUse', handler: () => undefined, source });
    const config = {
      sources: [],
      hooks: [hook('/p/hookwise.config.ts hooks[0]'), hook('/p/hookwise.config.ts hooks[1]')],
      warnings: [],
      parallel: false,
    };
    expect(() => engineFor(config)).toThrow(/hookwise\.config\.ts.*a hook named "guard" is already registered/);
  });
});
