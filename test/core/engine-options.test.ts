/**
 * The core engine speaks hookwise only; what other hook systems need is given to it at
 * the edge (src/compat, ARCHITECTURE.md). These tests pin both sides: the bare core
 * engine knows no alias, no foreign return shape and no `ctx.tool_input`, and the
 * public `HookEngine` (with src/compat's options) knows all three.
 */
import { describe, expect, it } from 'vitest';
import { HookEngine as CoreEngine } from '../../src/core/engine.js';
import { CORE_EVENTS, EVENTS, EventNames, eventInfo } from '../../src/core/events.js';
import { fromHookResult, deny, type ResultReader } from '../../src/core/results.js';
import { sameData } from '../../src/core/same-data.js';
import { HookEngine, type HookContext } from '../../src/index.js';

const bash = { tool_name: 'Bash', tool_input: { command: 'ls' } };

describe('the bare core engine', () => {
  // Catches: an alias table back in the core.
  it('knows only canonical names: a seed name is a custom event there, the canonical one in the public engine', async () => {
    const core = new CoreEngine();
    core.register({ name: 'h', events: 'PreToolCall', handler: () => deny('no') });
    expect(core.hooks('PreToolUse')).toEqual([]);
    expect((await core.fire('PreToolCall', bash)).event).toBe('PreToolCall');
    const pub = new HookEngine();
    pub.register({ name: 'h', events: 'PreToolCall', handler: () => deny('no') });
    expect(pub.hookCount('PreToolUse')).toBe(1);
    expect(await pub.fire('PreToolCall', bash)).toMatchObject({ event: 'PreToolUse', blocked: true });
  });

  // Catches: Claude Code's or UseHooks' reading back in toVerdict.
  it('reads only results: an object without `kind` fails the hook unless a reader takes it', async () => {
    const claudeJson = { decision: 'block', reason: 'read at the edge' };
    const core = new CoreEngine();
    core.register({ name: 'json', events: 'PreToolUse', handler: () => claudeJson as never });
    const bare = await core.fire('PreToolUse', bash);
    expect(bare.blocked).toBe(true);
    expect(bare.reason).toBe(
      'hook json failed: handler returned an object that is not a result (no `kind`); expected a result (allow(), deny(...), ...), or nothing',
    );
    const pub = new HookEngine();
    pub.register({ name: 'json', events: 'PreToolUse', handler: () => claudeJson as never });
    expect(await pub.fire('PreToolUse', bash)).toMatchObject({ blocked: true, reason: 'read at the edge', decision: 'deny' });
    pub.register({ name: 'outcome', events: 'Stop', handler: () => ({ decision: 'stop', reason: 'UseHooks says stop' }) });
    expect(await pub.fire('Stop', {})).toMatchObject({ stop: true, stopReason: 'UseHooks says stop' });
  });

  it('asks the readers it is given, in order, and names their shapes when none takes a value', async () => {
    const asked: string[] = [];
    const first: ResultReader = {
      shape: 'a verdict word',
      read: (v) => (asked.push('first'), v.verdict === 'no' ? fromHookResult(deny('said no')) : undefined),
    };
    const second: ResultReader = { shape: 'nothing else', read: () => (asked.push('second'), undefined) };
    const engine = new CoreEngine({ resultReaders: [first, second] });
    engine.register({
      name: 'word',
      events: 'PreToolUse',
      handler: (i) => ({ verdict: i.tool_input?.command === 'rm' ? 'no' : 'eh' }) as never,
    });
    expect(await engine.fire('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'rm' } })).toMatchObject({
      blocked: true,
      reason: 'said no',
    });
    expect(asked).toEqual(['first']);
    const odd = await engine.fire('PreToolUse', bash);
    expect(odd.reason).toBe(
      'hook word failed: handler returned an object that is not a result (no `kind`); expected a result (allow(), deny(...), ...), a verdict word, nothing else, or nothing',
    );
    expect(asked).toEqual(['first', 'first', 'second']);
  });

  // Catches: ctx.tool_input back on the core's Context.
  it("gives ctx no tool_input; the public engine's ctx.tool_input is a writable copy of the input's", async () => {
    const seen: Array<[boolean, boolean]> = [];
    const hook = {
      name: 'ctx',
      events: 'PreToolUse',
      handler: (i: { tool_input?: unknown }, ctx: HookContext) =>
        void seen.push([
          'tool_input' in ctx,
          ctx.tool_input !== undefined &&
            ctx.tool_input !== i.tool_input &&
            !Object.isFrozen(ctx.tool_input) &&
            sameData(ctx.tool_input, i.tool_input),
        ]),
    };
    await new CoreEngine().register(hook as never).fire('PreToolUse', bash);
    await new HookEngine().register(hook as never).fire('PreToolUse', bash);
    expect(seen).toEqual([
      [false, false],
      [true, true],
    ]);
  });

  it('EventNames refuses an alias of an unknown event or one name for two events', () => {
    expect(() => new EventNames([['Go', 'NoSuchEvent']])).toThrow('event alias "Go" names "NoSuchEvent", which is not a canonical event');
    expect(
      () =>
        new EventNames([
          ['Go', 'Stop'],
          ['Go', 'SessionEnd'],
        ]),
    ).toThrow('event alias "Go" names "SessionEnd", but it is already a name of "Stop"');
    expect(new EventNames([['Go', 'Stop']]).namesOf('Stop')).toEqual(['Stop', 'Go']);
  });
});

describe('CORE_EVENTS', () => {
  // Catches: CORE_EVENTS computed from the table's order (a row moved or inserted above would shift it).
  it('is the events marked core, written out here, whatever the order of the table', () => {
    expect([...CORE_EVENTS].sort()).toEqual(
      [
        'SessionStart',
        'SessionEnd',
        'UserPromptSubmit',
        'PreModelCall',
        'PostModelCall',
        'StepStart',
        'StepEnd',
        'PreToolUse',
        'PermissionRequest',
        'PostToolUse',
        'PostToolUseFailure',
        'PostToolBatch',
        'Stop',
        'StopFailure',
        'SubagentStart',
        'SubagentStop',
        'PreCompact',
        'PostCompact',
        'Checkpoint',
        'Notification',
      ].sort(),
    );
    expect(EVENTS.filter((e) => eventInfo(e).core === true)).toEqual([...CORE_EVENTS]);
    expect(eventInfo('WorktreeCreate').core).toBeUndefined();
  });
});
