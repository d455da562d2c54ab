/**
 * The rules docs/model.md states under "Events", "Hook fields", "Results", "Order" and
 * "Merging" that the other core tests did not pin down.
 * Each test names, in a "Catches:" comment, the code change it fails on.
 * The expected tables are written out here on purpose (not imported from
 * src/core/events.ts), so a wrong entry in the source table fails a test.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  allow,
  asHook,
  ask,
  block,
  context,
  defer,
  defineHook,
  deny,
  HookEngine,
  modify,
  replaceOutput,
  retry,
  skip,
  stop,
  systemMessage,
  type HandlerReturn,
  type RawHookInput,
} from '../../src/index.js';

// The event tables below are plain strings on purpose: they must match the engine's table,
// not the compiler's. Hooks on those names (and on custom ones) are registered untyped
// through asHook, as a settings file's hooks are.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const bash = { tool_name: 'Bash', tool_input: { command: 'ls' }, session_id: 's1' };
const throwing = () => {
  throw new Error('kaput');
};

/** docs/model.md's events table ("Events"), row by row: canonical name, aliases, can block. */
const EVENTS_TABLE: Array<[string, string[], boolean]> = [
  ['SessionStart', ['WorkflowStarting', 'session_start'], true],
  ['SessionEnd', ['WorkflowCompleted', 'session_end'], false],
  ['UserPromptSubmit', ['user_prompt_submit'], true],
  ['PreModelCall', ['PreAgentPrompt', 'GenerateStart', 'generate_start'], true],
  ['PostModelCall', ['GenerateEnd', 'generate_end'], false],
  ['StepStart', [], true],
  ['StepEnd', ['StepCompleted'], false],
  ['PreToolUse', ['PreToolCall', 'pre_tool_use'], true],
  ['PermissionRequest', [], true],
  ['PostToolUse', ['PostToolCall', 'post_tool_use'], false],
  ['PostToolUseFailure', ['PostToolCallFailure', 'post_tool_use_failure'], false],
  ['PostToolBatch', [], true],
  ['Stop', [], true],
  ['StopFailure', ['AgentFailed'], false],
  ['SubagentStart', ['SubWorkflowStarting'], true],
  ['SubagentStop', ['SubWorkflowCompleted'], true],
  ['PreCompact', [], true],
  ['PostCompact', [], false],
  ['Checkpoint', [], false],
  ['Notification', [], false],
];

/** Claude Code's other events named under "Events", with Claude Code's blockability. */
const CLAUDE_CODE_OTHERS: Array<[string, boolean]> = [
  ['Setup', false],
  ['InstructionsLoaded', false],
  ['PermissionDenied', false],
  ['TaskCreated', true],
  ['ConfigChange', true],
  ['FileChanged', false],
  ['WorktreeCreate', true],
  ['PreModelSwitch', true],
];

const ALIASES = EVENTS_TABLE.flatMap(([canonical, aliases]) => aliases.map((alias) => [alias, canonical] as const));

describe('Events: every alias is the canonical event', () => {
  // Catches: an alias dropped from or mapped wrongly in the events table.
  it.each(ALIASES)('%s fires %s, and a hook registered under either name runs on both', async (alias, canonical) => {
    const engine = new HookEngine();
    const ran: string[] = [];
    engine.register(asHook({ name: 'by-alias', events: alias, onError: 'continue', handler: () => void ran.push('by-alias') }));
    engine.register(asHook({ name: 'by-canonical', events: canonical, onError: 'continue', handler: () => void ran.push('by-canonical') }));
    const viaAlias = await engine.fire(alias, { session_id: 's' });
    expect(viaAlias.event).toBe(canonical);
    expect(ran).toEqual(['by-alias', 'by-canonical']);
    expect(engine.hooks(alias).map((h) => h.name)).toEqual(['by-alias', 'by-canonical']);
  });

  // Catches: alias lookup made case-insensitive, or a miscased name silently becoming a custom event that no hook listens to.
  it('aliases are case-sensitive: another spelling is an error with a did-you-mean, never a silent custom event', async () => {
    const engine = new HookEngine();
    const ran: string[] = [];
    engine.register({ name: 'h', events: 'PreToolUse', handler: () => void ran.push('h') });
    for (const name of ['pretooluse', 'PRE_TOOL_USE', 'preToolCall', 'Pre_Tool_Use']) {
      await expect(engine.fire(name, bash)).rejects.toThrow(`unknown event "${name}"; did you mean "PreToolUse"?`);
    }
    expect(ran).toEqual([]);
  });
});

describe('Events: blockability, seen through the default failure policy', () => {
  // Catches: a wrong `blockable` flag on any row (the default onError follows it).
  it.each(EVENTS_TABLE.map(([name, , blockable]) => [name, blockable] as const))('%s blockable=%s', async (event, blockable) => {
    const engine = new HookEngine();
    engine.register(asHook({ name: 'boom', events: event, handler: throwing }));
    const outcome = await engine.fire(event, { session_id: 's' });
    expect(outcome.blocked).toBe(blockable);
    expect(outcome.reason).toBe(blockable ? 'hook boom failed: kaput' : null);
  });

  // Catches: Claude Code's other events missing (they would become custom events, always blockable) or flagged wrongly.
  it.each(CLAUDE_CODE_OTHERS)('Claude Code event %s blockable=%s', async (event, blockable) => {
    const engine = new HookEngine();
    engine.register(asHook({ name: 'boom', events: event, handler: throwing }));
    expect((await engine.fire(event, { session_id: 's' })).blocked).toBe(blockable);
  });

  // Catches: custom event names refused at registration or at fire, or their hooks never run.
  it('custom event names are allowed: hooks register, run and can block', async () => {
    const engine = new HookEngine();
    engine.register(asHook({ name: 'custom', events: 'DeployRequested', handler: (i) => block(`no deploy of ${String(i.target)}`) }));
    const outcome = await engine.fire('DeployRequested', { target: 'prod' });
    expect(outcome).toMatchObject({ event: 'DeployRequested', blocked: true, reason: 'no deploy of prod' });
  });

  // Catches: a block being dropped (or turned into a decision) on an event that cannot be blocked.
  it('on a non-blockable event a block still shows as blocked with its reason, and no permission decision', async () => {
    const engine = new HookEngine();
    engine.register({ name: 'b', events: 'PostToolUse', handler: () => block('output looks wrong') });
    const outcome = await engine.fire('PostToolUse', bash);
    expect(outcome).toMatchObject({ blocked: true, reason: 'output looks wrong', decision: null, stop: false });
  });
});

describe('Events: the fields every input carries ("Choices where the rules were silent")', () => {
  function seenBy(engine: HookEngine, event: string): RawHookInput[] {
    const seen: RawHookInput[] = [];
    engine.register(asHook({ name: `see-${event}`, events: event, handler: (i) => void seen.push(i) }));
    return seen;
  }

  // Catches: the engine passing the host's input through without the canonical hook_event_name or the session.
  // (The timestamp is added by the host: the runtime's HookGateway; see test/core/RULES-COVERAGE.md.)
  it('a bare input gets the canonical hook_event_name, the session and the cwd of the fire', async () => {
    const engine = new HookEngine();
    const seen = seenBy(engine, 'PreToolUse');
    await engine.fire('pre_tool_use', {});
    await engine.fire('PreToolCall', {}, { sessionId: 'opt', cwd: '/opt' });
    expect(seen[0]).toMatchObject({ hook_event_name: 'PreToolUse', session_id: 'default' });
    expect(seen[1]).toMatchObject({ hook_event_name: 'PreToolUse', session_id: 'opt', cwd: '/opt' });
  });

  // Catches: the fields being filled only when hook_event_name is missing or wrong.
  it('an input that already names its event still gets the session and cwd of the fire options', async () => {
    const engine = new HookEngine();
    const seen = seenBy(engine, 'PreToolUse');
    await engine.fire('PreToolUse', { hook_event_name: 'PreToolUse', tool_name: 'Bash' }, { cwd: '/work/x' });
    expect(seen[0]).toMatchObject({ hook_event_name: 'PreToolUse', session_id: 'default', cwd: '/work/x' });
  });

  // Catches: the engine overwriting what the host sent, or mutating the caller's object.
  it('fields the host sent win, and the caller object is not mutated', async () => {
    const engine = new HookEngine();
    const seen = seenBy(engine, 'PreToolUse');
    const input = {
      hook_event_name: 'PreToolCall',
      session_id: 'mine',
      cwd: '/mine',
      timestamp: '2026-01-01T00:00:00.000Z',
      tool_name: 'X',
    };
    const copy = structuredClone(input);
    await engine.fire('PreToolCall', input, { sessionId: 'opt', cwd: '/opt' });
    expect(seen[0]).toMatchObject({
      hook_event_name: 'PreToolUse',
      session_id: 'mine',
      cwd: '/mine',
      timestamp: '2026-01-01T00:00:00.000Z',
    });
    expect(input).toEqual(copy);
  });

  // Catches: matchers tested on the raw input, so the fire's cwd and session options do not reach them.
  it('matchers see the same input as handlers: `path` resolves against the fire cwd, `session` uses the fire session', async () => {
    const engine = new HookEngine();
    engine.register({ name: 'src-only', events: 'PreToolUse', matcher: { path: 'src/**' }, handler: () => deny('src is frozen') });
    engine.register({ name: 'session', events: 'Stop', matcher: { session: 'abc' }, handler: () => block('abc keeps going') });
    const write = { tool_name: 'Write', tool_input: { file_path: 'src/a.ts' } };
    expect((await engine.fire('PreToolUse', write, { cwd: '/proj' })).blocked).toBe(true);
    expect((await engine.fire('PreToolUse', { ...write, tool_input: { file_path: '/proj/src/a.ts' } }, { cwd: '/proj' })).blocked).toBe(
      true,
    );
    expect((await engine.fire('PreToolUse', { ...write, tool_input: { file_path: '/other/src/a.ts' } }, { cwd: '/proj' })).blocked).toBe(
      false,
    );
    expect((await engine.fire('Stop', {}, { sessionId: 'abc' })).blocked).toBe(true);
    expect((await engine.fire('Stop', {}, { sessionId: 'xyz' })).blocked).toBe(false);
  });
});

describe('Hook fields', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  // Catches: DEFAULT_TIMEOUT_MS changed from 60 s, or no timeout applied when timeoutMs is absent.
  it('in-process hooks time out after 60 s by default', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const engine = new HookEngine();
    engine.register({ name: 'hang', events: 'PreToolUse', handler: () => new Promise(() => {}) });
    let done = false;
    const pending = engine.fire('PreToolUse', bash).then((o) => ((done = true), o));
    await vi.advanceTimersByTimeAsync(59_999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const outcome = await pending;
    expect(outcome.hooks[0]).toMatchObject({ status: 'timeout', error: 'timed out after 60000 ms' });
  });

  // Catches: a multi-event hook registered (or its matcher compiled) for its first event only.
  it('a hook with several events (aliases included) runs on each of them', async () => {
    const engine = new HookEngine();
    const ran: string[] = [];
    engine.register(
      defineHook({
        name: 'multi',
        events: ['PreToolCall', 'Stop', 'session_start'],
        handler: (i) => void ran.push(String(i.hook_event_name)),
      }),
    );
    await engine.fire('PreToolUse', bash);
    await engine.fire('Stop', {});
    await engine.fire('SessionStart', { source: 'startup' });
    await engine.fire('PostToolUse', bash);
    expect(ran).toEqual(['PreToolUse', 'Stop', 'SessionStart']);
  });

  // Catches: maxRetries accepted without validation (a negative or fractional count).
  it('maxRetries must be a whole number >= 0, named in the error', () => {
    const engine = new HookEngine();
    for (const bad of [-1, 1.5, Number.NaN]) {
      expect(() => engine.register({ name: 'r', events: 'Stop', maxRetries: bad, handler: () => undefined })).toThrow(
        'hook "r": maxRetries: expected a whole number >= 0',
      );
    }
  });

  // Catches: retries limited to thrown errors (a timeout is a failure too), or a retry reusing the aborted signal.
  it('maxRetries re-invokes after a timeout, each attempt with a fresh signal', async () => {
    const engine = new HookEngine();
    const signals: AbortSignal[] = [];
    engine.register({
      name: 'slow-then-fast',
      events: 'PreToolUse',
      timeoutMs: 20,
      maxRetries: 1,
      handler: (_i, ctx) => {
        signals.push(ctx.signal);
        if (signals.length === 1) return new Promise((r) => ctx.signal.addEventListener('abort', () => r(undefined)));
        return allow('second try');
      },
    });
    const outcome = await engine.fire('PreToolUse', bash);
    expect(signals).toHaveLength(2);
    expect(signals[0]!.aborted).toBe(true);
    expect(signals[1]!.aborted).toBe(false);
    expect(outcome).toMatchObject({ blocked: false, decision: 'allow', reason: 'second try' });
  });

  // Catches: `once` marked when the hook is selected rather than when its handler runs.
  it('once: a hook skipped because the chain ended has not run, so it runs next time', async () => {
    const engine = new HookEngine();
    let denyNow = true;
    let runs = 0;
    engine.register({ name: 'gate', events: 'PreToolUse', priority: 1, handler: () => (denyNow ? deny('not yet') : undefined) });
    engine.register({ name: 'init', events: 'PreToolUse', once: true, handler: () => void runs++ });
    const first = await engine.fire('PreToolUse', bash);
    expect(first.hooks[1]).toMatchObject({ name: 'init', status: 'skipped' });
    denyNow = false;
    await engine.fire('PreToolUse', bash);
    await engine.fire('PreToolUse', bash);
    expect(runs).toBe(1);
  });

  // Catches: `once` marked only when the handler finishes, so overlapping fires of one session both run it.
  it('once holds across overlapping fires of one session, for async-returning and background hooks', async () => {
    const engine = new HookEngine();
    let slowRuns = 0;
    let bgRuns = 0;
    engine.register({ name: 'slow-init', events: 'PreToolUse', once: true, handler: async () => (slowRuns++, await sleep(20), undefined) });
    engine.register({
      name: 'bg-init',
      events: 'PreToolUse',
      once: true,
      async: true,
      handler: async () => (bgRuns++, await sleep(20), undefined),
    });
    await Promise.all([engine.fire('PreToolUse', bash), engine.fire('PreToolUse', bash), engine.fire('PreToolUse', bash)]);
    await engine.drain();
    expect(slowRuns).toBe(1);
    expect(bgRuns).toBe(1);
  });

  // Catches: `once` ignored in parallel mode.
  it('once holds in parallel mode', async () => {
    const engine = new HookEngine({ parallel: true });
    let runs = 0;
    engine.register({ name: 'init', events: 'Stop', once: true, handler: () => void runs++ });
    await engine.fire('Stop', {});
    await engine.fire('Stop', {});
    expect(runs).toBe(1);
  });

  // Catches: SessionEnd keeping `once` marks (docs/model.md: ending a session forgets them).
  it('ending a session forgets its once marks', async () => {
    const engine = new HookEngine();
    let runs = 0;
    engine.register({ name: 'init', events: 'Stop', once: true, handler: () => void runs++ });
    await engine.fire('Stop', { session_id: 's' });
    await engine.fire('SessionEnd', { session_id: 's' });
    await engine.fire('Stop', { session_id: 's' });
    expect(runs).toBe(2);
  });
});

describe('Results: each result kind is recorded as itself', () => {
  // Catches: a helper building the wrong kind, or the record reporting something other than what the hook returned.
  it.each([
    ['allow', allow(), 'allow'],
    ['ask', ask('?'), 'ask'],
    ['defer', defer(), 'defer'],
    ['modify', modify({ command: 'pwd' }), 'modify'],
    ['replaceOutput', replaceOutput('x'), 'modify'],
    ['context', context('c'), 'context'],
    ['systemMessage', systemMessage('m'), 'none'],
    ['nothing', undefined, 'none'],
    ['deny', deny('d'), 'deny'],
    ['block', block('b'), 'block'],
    ['stop', stop('s'), 'stop'],
    ['retry', retry(5), 'retry'],
    ['skip', skip(), 'skip'],
  ] as Array<[string, HandlerReturn, string]>)('%s', async (_label, result, kind) => {
    const engine = new HookEngine();
    engine.register({ name: 'h', events: 'PostToolUse', handler: () => result });
    expect((await engine.fire('PostToolUse', bash)).hooks[0]).toMatchObject({ status: 'ok', result: kind });
  });

  // Catches: `nothing` (undefined/null) read as an opinion.
  it('nothing means no opinion: null is the same as undefined', async () => {
    const engine = new HookEngine();
    engine.register({ name: 'n', events: 'PreToolUse', handler: () => null });
    expect(await engine.fire('PreToolUse', bash)).toMatchObject({ decision: null, blocked: false, reason: null, updatedInput: null });
  });
});

describe('Results: modify on tool events replaces tool_input, elsewhere patches the input', () => {
  // Catches: modify on a tool event shallow-merged into tool_input (fields the hook dropped would survive).
  it.each(['PreToolUse', 'PermissionRequest', 'PostToolUse', 'PostToolUseFailure'])(
    '%s: the next hook sees exactly the new tool_input',
    async (event) => {
      const engine = new HookEngine();
      const seen: unknown[] = [];
      engine.register(asHook({ name: 'a', events: event, handler: () => modify({ command: 'pwd' }) }));
      engine.register(asHook({ name: 'b', events: event, handler: () => modify({ description: 'only this' }) }));
      engine.register(asHook({ name: 'c', events: event, handler: (i) => void seen.push(i.tool_input) }));
      const outcome = await engine.fire(event, { tool_name: 'Bash', tool_input: { command: 'ls', timeout: 5 } });
      expect(seen).toEqual([{ description: 'only this' }]);
      expect(outcome.updatedInput).toEqual({ description: 'only this' });
    },
  );

  // Catches: Claude Code's updatedInput treated differently from modify().
  it('a Claude Code updatedInput replaces tool_input the same way', async () => {
    const engine = new HookEngine();
    const seen: unknown[] = [];
    engine.register({
      name: 'a',
      events: 'PreToolUse',
      handler: () => ({
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'pwd' } },
      }),
    });
    engine.register({ name: 'b', events: 'PreToolUse', handler: (i) => void seen.push(i.tool_input) });
    await engine.fire('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls', timeout: 5 } });
    expect(seen).toEqual([{ command: 'pwd' }]);
  });

  // Catches: patches deep-merged (nested objects combined) instead of shallow-merged, or the original fields dropped.
  it('on other events a patch is shallow-merged into the input the next hook sees', async () => {
    const engine = new HookEngine();
    let seen: RawHookInput | undefined;
    engine.register({ name: 'a', events: 'UserPromptSubmit', handler: () => modify({ meta: { a: 1 } }) });
    engine.register({ name: 'b', events: 'UserPromptSubmit', handler: () => modify({ meta: { b: 2 }, prompt: 'rewritten' }) });
    engine.register({ name: 'c', events: 'UserPromptSubmit', handler: (i) => void (seen = i) });
    const outcome = await engine.fire('UserPromptSubmit', { prompt: 'original', session_id: 's', extra: 'kept' });
    expect(seen).toMatchObject({ prompt: 'rewritten', meta: { b: 2 }, extra: 'kept', session_id: 's' });
    expect((seen!.meta as Record<string, unknown>).a).toBeUndefined();
    expect(outcome.updatedInput).toEqual({ meta: { b: 2 }, prompt: 'rewritten' });
  });

  // Catches: a plain allow on a non-tool event resetting the merged patches.
  it('on other events a later allow keeps the merged patches', async () => {
    const engine = new HookEngine();
    engine.register({ name: 'a', events: 'PreModelCall', handler: () => modify({ prompt: 'p', model: 'm' }) });
    engine.register({ name: 'b', events: 'PreModelCall', handler: () => allow() });
    expect((await engine.fire('PreModelCall', { prompt: 'x' })).updatedInput).toEqual({ prompt: 'p', model: 'm' });
  });
});

describe('Order: running the chain', () => {
  // Catches: sequential hooks started before the previous one settled (e.g. Promise.all in sequential mode).
  it('hooks run one after another: the next starts only when the previous has finished', async () => {
    const engine = new HookEngine();
    const log: string[] = [];
    engine.register({
      name: 'a',
      events: 'PreToolUse',
      handler: async () => (log.push('a start'), await sleep(15), log.push('a end'), undefined),
    });
    engine.register({
      name: 'b',
      events: 'PreToolUse',
      handler: async () => (log.push('b start'), await sleep(1), log.push('b end'), undefined),
    });
    await engine.fire('PreToolUse', bash);
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end']);
  });

  // Catches: parallel mode silently running hooks one after another.
  it('parallel mode really runs the hooks at the same time', async () => {
    const engine = new HookEngine({ parallel: true });
    let arrived = 0;
    let release!: () => void;
    const everyoneHere = new Promise<void>((r) => (release = r));
    const meet = async () => {
      if (++arrived === 2) release();
      await everyoneHere; // sequential execution would wait here forever (then time out)
      return allow();
    };
    engine.register({ name: 'a', events: 'PreToolUse', timeoutMs: 500, handler: meet });
    engine.register({ name: 'b', events: 'PreToolUse', timeoutMs: 500, handler: meet });
    const outcome = await engine.fire('PreToolUse', bash);
    expect(outcome.hooks.map((h) => h.status)).toEqual(['ok', 'ok']);
  });

  // Catches: parallel mode applying a skip's successors, or dropping what came before the skip.
  it('parallel mode: skip keeps what earlier hooks (in run order) said and drops the later ones', async () => {
    const engine = new HookEngine({ parallel: true });
    engine.register({ name: 'early', events: 'PreToolUse', priority: 2, handler: async () => (await sleep(10), context('early')) });
    engine.register({ name: 'skipper', events: 'PreToolUse', priority: 1, handler: () => skip() });
    engine.register({ name: 'late', events: 'PreToolUse', handler: () => deny('late') });
    const outcome = await engine.fire('PreToolUse', bash);
    expect(outcome).toMatchObject({ additionalContext: 'early', blocked: false });
  });

  // Catches: select() testing matchers of hooks registered for other events.
  it('hooks of other events cost nothing: their matchers are never called', async () => {
    const engine = new HookEngine();
    let calls = 0;
    for (let i = 0; i < 50; i++)
      engine.register({ name: `stop-${i}`, events: 'Stop', matcher: () => (calls++, true), handler: () => undefined });
    await engine.fire('PreToolUse', bash);
    expect(calls).toBe(0);
  });

  // Catches: a fail-open failure ending the chain.
  it('a fail-open failure does not end the chain', async () => {
    const engine = new HookEngine();
    engine.register({ name: 'boom', events: 'PreToolUse', onError: 'continue', handler: throwing });
    engine.register({ name: 'next', events: 'PreToolUse', handler: () => deny('next decided') });
    const outcome = await engine.fire('PreToolUse', bash);
    expect(outcome).toMatchObject({ blocked: true, reason: 'next decided' });
    expect(outcome.hooks.map((h) => h.status)).toEqual(['error', 'ok']);
  });

  // Catches: an outcome listener that throws breaking the fire or starving the other listeners.
  it('observers get every outcome even when another observer throws', async () => {
    const errors: string[] = [];
    const engine = new HookEngine({ logger: { debug() {}, info() {}, warn() {}, error: (m) => void errors.push(m) } });
    engine.register({ name: 'd', events: 'PreToolUse', handler: () => deny('no') });
    const seen: string[] = [];
    engine.on('outcome', () => {
      throw new Error('observer broke');
    });
    engine.on('outcome', (o) => void seen.push(`${o.event}:${o.blocked}`));
    const outcome = await engine.fire('PreToolUse', bash);
    expect(outcome.blocked).toBe(true);
    expect(seen).toEqual(['PreToolUse:true']);
    expect(errors).toEqual(['hookwise: outcome listener failed: observer broke']);
  });

  // Catches: hookStart/hookEnd not reporting each hook that ran (tracing subscribes to them).
  it('hookStart and hookEnd report each hook that runs, with its record', async () => {
    const engine = new HookEngine();
    engine.register({ name: 'a', events: 'PreToolUse', statusMessage: 'checking', handler: () => allow() });
    engine.register({ name: 'b', events: 'PreToolUse', handler: () => deny('no') });
    engine.register({ name: 'c', events: 'PreToolUse', handler: () => allow() });
    const starts: string[] = [];
    const ends: string[] = [];
    engine.on('hookStart', (s) => void starts.push(`${s.name}:${s.statusMessage ?? ''}`));
    engine.on('hookEnd', (e) => void ends.push(`${e.name}:${e.record.result}`));
    await engine.fire('PreToolUse', bash);
    expect(starts).toEqual(['a:checking', 'b:']);
    expect(ends).toEqual(['a:allow', 'b:deny']);
  });
});

describe('Merging: rules not covered elsewhere', () => {
  async function fireWith(event: string, results: HandlerReturn[], input: RawHookInput = bash) {
    const engine = new HookEngine();
    results.forEach((r, i) => engine.register(asHook({ name: `h${i}`, events: event, handler: () => r })));
    return engine.fire(event, input);
  }

  // Catches: PreModelSwitch missing its `permission` flag.
  it('PreModelSwitch carries a permission decision: a block is a deny', async () => {
    expect(await fireWith('PreModelSwitch', [block('stay on this model')], { model: 'big' })).toMatchObject({
      decision: 'deny',
      blocked: true,
    });
  });

  // Catches: a fail-closed failure on a permission event left without decision deny.
  it('a fail-closed failure on PermissionRequest is decision deny', async () => {
    const engine = new HookEngine();
    engine.register({ name: 'boom', events: 'PermissionRequest', handler: throwing });
    expect(await engine.fire('PermissionRequest', bash)).toMatchObject({
      decision: 'deny',
      blocked: true,
      reason: 'hook boom failed: kaput',
    });
  });

  // Catches: deny losing its decision off permission events (docs/model.md choice).
  it('deny on an event without a permission decision still reports decision deny and blocked', async () => {
    expect(await fireWith('UserPromptSubmit', [deny('not that prompt')], { prompt: 'p' })).toMatchObject({
      decision: 'deny',
      blocked: true,
      reason: 'not that prompt',
    });
  });

  // Catches: the reason of a non-deciding allow kept once a later hook blocks.
  it('the reason is that of the hook that blocked, not of an earlier allow', async () => {
    expect(await fireWith('Stop', [allow('fine'), block('keep going')], {})).toMatchObject({ blocked: true, reason: 'keep going' });
  });

  // Catches: stop not implying blocked/deny when an earlier hook allowed and rewrote.
  it("stop() on PreToolUse refuses the tool and halts; Claude Code's continue:false lets it run (with its rewrite), then ends the turn", async () => {
    const halted = await fireWith('PreToolUse', [modify({ command: 'pwd' }), allow('ok'), stop('halt everything')]);
    expect(halted).toMatchObject({ stop: true, stopReason: 'halt everything', blocked: true, decision: 'deny', reason: 'halt everything' });
    const outcome = await fireWith('PreToolUse', [
      modify({ command: 'pwd' }),
      allow('ok'),
      { continue: false, stopReason: 'halt everything' },
    ]);
    expect(outcome).toMatchObject({
      stop: true,
      stopReason: 'halt everything',
      blocked: false,
      decision: 'allow',
      reason: 'ok',
      updatedInput: { command: 'pwd' },
    });
    const prompt = await fireWith('UserPromptSubmit', [allow('ok'), stop('halt everything')]);
    expect(prompt).toMatchObject({ stop: true, blocked: true, reason: 'halt everything' });
  });

  // Catches: a later plain allow discarding an earlier updatedOutput.
  it('a later plain allow does not discard an earlier updatedOutput', async () => {
    expect((await fireWith('PostToolUse', [replaceOutput('redacted'), allow()])).updatedOutput).toBe('redacted');
  });

  // Catches: text carried by a chain-ending result dropped from the merge.
  it('context and system messages carried by a deny or skip are kept', async () => {
    const outcome = await fireWith('PreToolUse', [context('one'), deny('no', { additionalContext: 'two', systemMessage: 'why' })]);
    expect(outcome).toMatchObject({ additionalContext: 'one\ntwo', systemMessage: 'why' });
    const skipped = await fireWith('PostToolUse', [skip({ additionalContext: 'from skip' }), context('never')]);
    expect(skipped.additionalContext).toBe('from skip');
  });

  // Catches: a nonsensical retry delay passed on instead of the default 1000.
  it.each([-5, Number.NaN, Number.POSITIVE_INFINITY])('retry(%s) falls back to the default delay of 1000 ms', async (delayMs) => {
    expect((await fireWith('PreModelCall', [retry(delayMs)], {})).retry).toEqual({ delayMs: 1000 });
  });

  // Catches: retry read as a block, or its delay lost, when it comes with context.
  it('retry is not a block and keeps its extras', async () => {
    const outcome = await fireWith('PreToolUse', [retry(10, { additionalContext: 'busy' })]);
    expect(outcome).toMatchObject({ retry: { delayMs: 10 }, blocked: false, decision: null, additionalContext: 'busy' });
  });
});
