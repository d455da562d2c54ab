import { describe, expect, it } from 'vitest';
import {
  allow,
  asHook,
  ask,
  block,
  context,
  defer,
  deny,
  HookEngine,
  modify,
  replaceOutput,
  retry,
  stop,
  systemMessage,
  type HandlerReturn,
} from '../../src/index.js';

const bash = { tool_name: 'Bash', tool_input: { command: 'ls' }, session_id: 's1' };

/** Fire `event` (any name, so registered untyped) with one hook per result, in the given order. */
async function fireWith(event: string, results: HandlerReturn[], input: Record<string, unknown> = bash, parallel = false) {
  const engine = new HookEngine({ parallel });
  results.forEach((r, i) => engine.register(asHook({ name: `h${i}`, events: event, handler: () => r })));
  return engine.fire(event, input);
}

describe('permission decision: deny > defer > ask > allow > none (docs/model.md, "Merging")', () => {
  it.each([
    [[allow(), ask()], 'ask'],
    [[ask(), allow()], 'ask'],
    [[allow(), defer()], 'defer'],
    [[ask(), defer()], 'defer'],
    [[defer(), allow(), ask()], 'defer'],
    [[undefined, undefined], null],
    [[allow(), undefined], 'allow'],
  ] as const)('%j -> %s', async (results, expected) => {
    const outcome = await fireWith('PreToolUse', [...results], bash, true);
    expect(outcome.decision).toBe(expected);
  });

  it('seed 004: Deny > Allow, in either order', async () => {
    expect((await fireWith('PreToolUse', [allow(), deny('no')])).decision).toBe('deny');
    expect((await fireWith('PreToolUse', [deny('no'), allow()])).decision).toBe('deny');
  });

  it('seed 004: Ask ported as "no opinion" leaves the normal permission flow (decision null)', async () => {
    expect((await fireWith('PreToolUse', [undefined])).decision).toBeNull();
  });

  it('on permission events any block counts as deny', async () => {
    const outcome = await fireWith('PreToolUse', [allow(), block('blocked')]);
    expect(outcome).toMatchObject({ decision: 'deny', blocked: true, reason: 'blocked' });
    const perm = await fireWith('PermissionRequest', [block('no human needed')]);
    expect(perm.decision).toBe('deny');
  });

  it('on other events a block is blocked without a permission decision', async () => {
    const outcome = await fireWith('Stop', [block('keep going')], {});
    expect(outcome).toMatchObject({ decision: null, blocked: true, reason: 'keep going' });
  });

  it('the reason is that of the hook that decided', async () => {
    expect((await fireWith('PreToolUse', [allow('a'), ask('b')])).reason).toBe('b');
    expect((await fireWith('PreToolUse', [ask('first ask'), ask('second ask')], bash, true)).reason).toBe('first ask');
    expect((await fireWith('PreToolUse', [ask('asked'), deny('denied')])).reason).toBe('denied');
  });
});

describe('stop overrides everything (docs/model.md, "Merging")', () => {
  it('implies blocked where the stopped thing has not happened; stopReason is the first given', async () => {
    const outcome = await fireWith('UserPromptSubmit', [context('c'), stop('halt now')], { prompt: 'p' });
    expect(outcome).toMatchObject({ stop: true, stopReason: 'halt now', blocked: true, reason: 'halt now' });
    // After a tool ran (and before one runs, as Claude Code's continue:false): the turn ends, nothing is blocked.
    const after = await fireWith('PostToolUse', [context('c'), stop('halt now')]);
    expect(after).toMatchObject({ stop: true, stopReason: 'halt now', blocked: false, reason: null });
    const parallel = await fireWith(
      'PostToolUse',
      [allow(), { continue: false, stopReason: 'first' }, { continue: false, stopReason: 'second' }],
      bash,
      true,
    );
    expect(parallel.stopReason).toBe('first');
  });
});

describe('modifications (docs/model.md, "Results" and "Merging")', () => {
  it('tool events: the last modification wins and replaces the whole tool_input', async () => {
    const outcome = await fireWith('PreToolUse', [modify({ command: 'a' }), modify({ command: 'b', timeout: 5 })]);
    expect(outcome.updatedInput).toEqual({ command: 'b', timeout: 5 });
  });

  it('a later plain allow does not discard an earlier modification', async () => {
    const outcome = await fireWith('PreToolUse', [modify({ command: 'safe' }), allow()]);
    expect(outcome).toMatchObject({ updatedInput: { command: 'safe' }, decision: 'allow' });
  });

  it('other events: patches merge in order (prompt rewriting, seed 004)', async () => {
    const outcome = await fireWith('UserPromptSubmit', [modify({ prompt: 'one', tag: 'x' }), modify({ prompt: 'two' })], {
      prompt: 'orig',
    });
    expect(outcome.updatedInput).toEqual({ prompt: 'two', tag: 'x' });
  });

  it('when blocked, the modification is still reported for the audit', async () => {
    const outcome = await fireWith('PreToolUse', [modify({ command: 'x' }), deny('no')]);
    expect(outcome).toMatchObject({ blocked: true, updatedInput: { command: 'x' } });
  });

  it('updatedOutput: last wins (PostToolUse)', async () => {
    const outcome = await fireWith('PostToolUse', [replaceOutput('first'), replaceOutput({ redacted: true })]);
    expect(outcome.updatedOutput).toEqual({ redacted: true });
  });
});

describe('seed 003 merge table, under the unified rules', () => {
  it('continue_execution AND -> blocked if any blocks', async () => {
    expect((await fireWith('PreToolUse', [allow(), block('x')], bash, true)).blocked).toBe(true);
  });
  it('suppress_logging OR -> suppressOutput if any', async () => {
    expect((await fireWith('PostToolUse', [{ suppressOutput: true }, allow()])).suppressOutput).toBe(true);
    expect((await fireWith('PostToolUse', [allow(), allow()])).suppressOutput).toBe(false);
  });
  it('additional_context concatenated with newline; system_message too (003 kept the latest, hookwise keeps all)', async () => {
    const outcome = await fireWith('PostToolUse', [context('a'), systemMessage('m1'), context('b', { systemMessage: 'm2' })]);
    expect(outcome.additionalContext).toBe('a\nb');
    expect(outcome.systemMessage).toBe('m1\nm2');
  });
  it('updated_input latest non-None', async () => {
    expect((await fireWith('PreToolUse', [modify({ command: '1' }), undefined, modify({ command: '2' }), undefined])).updatedInput).toEqual(
      { command: '2' },
    );
  });
});

describe('retry (docs/model.md, "Merging")', () => {
  it('reports { delayMs }, default 1000, and is not a block', async () => {
    expect((await fireWith('PreModelCall', [retry(250)], {})).retry).toEqual({ delayMs: 250 });
    const outcome = await fireWith('PreModelCall', [retry()], {});
    expect(outcome).toMatchObject({ retry: { delayMs: 1000 }, blocked: false });
  });
});

describe('Claude Code JSON output from in-process handlers (docs/model.md, "Results")', () => {
  it('hookSpecificOutput.permissionDecision deny', async () => {
    const outcome = await fireWith('PreToolUse', [
      { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'not here' } },
    ]);
    expect(outcome).toMatchObject({ decision: 'deny', blocked: true, reason: 'not here' });
    expect(outcome.hooks[0]!.result).toBe('deny');
  });

  it('permissionDecision allow with updatedInput', async () => {
    const outcome = await fireWith('PreToolUse', [
      { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'ls -a' } } },
    ]);
    expect(outcome).toMatchObject({ decision: 'allow', updatedInput: { command: 'ls -a' }, blocked: false });
  });

  it('legacy decision approve/block', async () => {
    expect((await fireWith('PreToolUse', [{ decision: 'approve', reason: 'ok' }])).decision).toBe('allow');
    expect(await fireWith('PreToolUse', [{ decision: 'block', reason: 'nope' }])).toMatchObject({
      decision: 'deny',
      blocked: true,
      reason: 'nope',
    });
    expect(await fireWith('Stop', [{ decision: 'block', reason: 'keep working' }], {})).toMatchObject({
      decision: null,
      blocked: true,
      reason: 'keep working',
    });
  });

  it('continue:false halts with stopReason; additionalContext and systemMessage pass through', async () => {
    const outcome = await fireWith(
      'UserPromptSubmit',
      [
        {
          continue: false,
          stopReason: 'done for today',
          systemMessage: 'bye',
          hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'ctx' },
        },
      ],
      { prompt: 'p' },
    );
    expect(outcome).toMatchObject({
      stop: true,
      stopReason: 'done for today',
      blocked: true,
      systemMessage: 'bye',
      additionalContext: 'ctx',
    });
  });

  it('PermissionRequest decision.behavior', async () => {
    const allowOutcome = await fireWith('PermissionRequest', [
      { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedInput: { command: 'x' } } } },
    ]);
    expect(allowOutcome).toMatchObject({ decision: 'allow', updatedInput: { command: 'x' } });
    const denyOutcome = await fireWith('PermissionRequest', [
      { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'no' } } },
    ]);
    expect(denyOutcome).toMatchObject({ decision: 'deny', blocked: true, reason: 'no' });
  });

  it('PostToolUse updatedMCPToolOutput replaces the output', async () => {
    const outcome = await fireWith('PostToolUse', [
      { hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: 'clean' } },
    ]);
    expect(outcome.updatedOutput).toBe('clean');
  });

  it('output Claude Code would reject is a hook failure, not "no opinion" (docs/claude-code.md)', async () => {
    // Shapes the types refuse, on purpose: what a command hook may print all the same.
    const bad = [
      { decision: 'maybe' },
      { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'Deny' } },
      { permissionDecision: 'deny' },
      { hookSpecificOutput: { permissionDecision: 'deny' } },
      { hookSpecificOutput: { hookEventName: 'PreToolUse', permisionDecision: 'deny' } },
      { kind: 'Deny', reason: 'x' },
    ];
    for (const output of bad) {
      const outcome = await fireWith('PreToolUse', [output as HandlerReturn]);
      expect(outcome.hooks[0]).toMatchObject({ status: 'error', result: null });
      expect(outcome.hooks[0]!.error).toMatch(/invalid Claude Code hook output|unknown kind/);
    }
  });
});
