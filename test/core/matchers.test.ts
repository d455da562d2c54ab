import { describe, expect, it } from 'vitest';
import { all, any, deny, type Hook, HookEngine, HookSpecError, not, type Matcher } from '../../src/index.js';
import { compileMatcher } from '../../src/core/matchers.js';

function matches(matcher: Matcher, event: string, input: Record<string, unknown>): boolean {
  return compileMatcher(matcher, event).test(input);
}

describe('string matchers, Claude Code rules (docs/model.md, "Matchers")', () => {
  it('"", "*" and absent match everything', () => {
    for (const m of ['', '*', undefined]) expect(matches(m as Matcher, 'PreToolUse', { tool_name: 'Anything' })).toBe(true);
  });

  it('plain names are exact, split on | or ,', () => {
    expect(matches('Write|Edit', 'PreToolUse', { tool_name: 'Edit' })).toBe(true);
    expect(matches('Write, Edit', 'PreToolUse', { tool_name: 'Write' })).toBe(true);
    expect(matches('Write|Edit', 'PreToolUse', { tool_name: 'MultiEdit' })).toBe(false);
    expect(matches('Bash', 'PreToolUse', { tool_name: 'BashOutput' })).toBe(false);
  });

  it('anything else is an unanchored regex', () => {
    expect(matches('Edit.*', 'PreToolUse', { tool_name: 'MultiEditX' })).toBe(true);
    expect(matches('mcp__memory__.*', 'PreToolUse', { tool_name: 'mcp__memory__create_entities' })).toBe(true);
    expect(matches('mcp__.*__write.*', 'PreToolUse', { tool_name: 'mcp__fs__read_file' })).toBe(false);
    expect(matches('^Bash$', 'PreToolUse', { tool_name: 'Bash' })).toBe(true);
  });

  it('/…/flags is a delimited regex (seed 001)', () => {
    expect(matches('/^read_/i', 'PreToolUse', { tool_name: 'READ_file' })).toBe(true);
    expect(matches('/^read_/', 'PreToolUse', { tool_name: 'READ_file' })).toBe(false);
  });

  it('is tested against the event filter field', () => {
    expect(matches('startup', 'SessionStart', { source: 'startup' })).toBe(true);
    expect(matches('startup', 'SessionStart', { source: 'resume' })).toBe(false);
    expect(matches('manual', 'PreCompact', { trigger: 'manual' })).toBe(true);
    expect(matches('idle_prompt', 'Notification', { notification_type: 'idle_prompt' })).toBe(true);
    expect(matches('Explore', 'SubagentStop', { agent_type: 'Explore' })).toBe(true);
    expect(matches('rate_limit', 'StopFailure', { error: 'rate_limit' })).toBe(true);
  });

  it('is ignored on events without a filter field', () => {
    expect(matches('Bash', 'Stop', {})).toBe(true);
    expect(matches('Bash', 'UserPromptSubmit', { prompt: 'hi' })).toBe(true);
  });
});

describe('structured matchers (seed 002, docs/model.md, "Matchers")', () => {
  it('all given fields must match', () => {
    const m = { tool: 'Bash', command: 'rm\\s+-rf', session: 'session-123' };
    expect(matches(m, 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'rm -rf x' }, session_id: 'session-123' })).toBe(true);
    expect(matches(m, 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'rm -rf x' }, session_id: 'other' })).toBe(false);
    expect(matches(m, 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' }, session_id: 'session-123' })).toBe(false);
  });

  it('toolGlob is an anchored glob (seed 001 read_*)', () => {
    expect(matches({ toolGlob: 'read_*' }, 'PreToolUse', { tool_name: 'read_file' })).toBe(true);
    expect(matches({ toolGlob: 'read_*' }, 'PreToolUse', { tool_name: 'unread_file' })).toBe(false);
  });

  it('toolRegex is unanchored', () => {
    expect(matches({ toolRegex: 'delete' }, 'PreToolUse', { tool_name: 'soft_delete_row' })).toBe(true);
  });

  it('path: a pattern without / matches the basename at any depth; paths are normalised against cwd', () => {
    const input = (p: string) => ({ tool_name: 'Write', tool_input: { file_path: p }, cwd: '/proj' });
    expect(matches({ path: '*.rs' }, 'PreToolUse', input('/proj/src/deep/main.rs'))).toBe(true);
    expect(matches({ path: '*.rs' }, 'PreToolUse', input('/proj/src/main.ts'))).toBe(false);
    expect(matches({ path: 'src/**/*.ts' }, 'PreToolUse', input('/proj/src/a/b.ts'))).toBe(true);
    expect(matches({ path: 'src/**/*.ts' }, 'PreToolUse', input('/proj/lib/../src/a.ts'))).toBe(true);
    expect(matches({ path: 'src/**/*.ts' }, 'PreToolUse', input('/proj/lib/a.ts'))).toBe(false);
    expect(
      matches({ path: '*.ipynb' }, 'PreToolUse', { tool_name: 'NotebookEdit', tool_input: { notebook_path: 'x/n.ipynb' }, cwd: '/proj' }),
    ).toBe(true);
    expect(matches({ path: '*.ts' }, 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'x.ts' } })).toBe(false);
  });

  it('step, agentType, metadata (equality or presence)', () => {
    expect(matches({ step: 'Agent' }, 'StepStart', { step: { index: 0, name: 'Agent' } })).toBe(true);
    expect(matches({ agentType: 'Explore' }, 'SubagentStart', { agent_type: 'Plan' })).toBe(false);
    expect(matches({ metadata: { env: 'prod', ticket: '*' } }, 'Stop', { metadata: { env: 'prod', ticket: 'T-1' } })).toBe(true);
    expect(matches({ metadata: { env: 'prod', ticket: '*' } }, 'Stop', { metadata: { env: 'prod' } })).toBe(false);
  });

  it('seed 000: target "PreToolCall:.*:delete_.*" maps to the canonical "PreToolUse:.*:delete_.*"', async () => {
    const engine = new HookEngine();
    engine.register({
      name: 'deny-delete',
      events: 'PreToolCall',
      matcher: { target: 'PreToolUse:.*:delete_.*' },
      handler: () => deny('Dangerous tool blocked'),
    });
    const hit = await engine.fire('PreToolCall', { tool_name: 'delete_database', step_name: 'Agent' });
    const miss = await engine.fire('PreToolCall', { tool_name: 'run_query', step_name: 'Agent' });
    expect(hit).toMatchObject({ blocked: true, reason: 'Dangerous tool blocked' });
    expect(miss.hooks).toEqual([]);
    // Empty parts are kept: no step gives "PreToolUse::delete_x".
    expect(matches({ target: '^PreToolUse::delete_' }, 'PreToolUse', { tool_name: 'delete_x' })).toBe(true);
  });

  it('if: a Claude Code permission rule; for Bash every subcommand is checked', async () => {
    const engine = new HookEngine();
    engine.register({ name: 'git-only', events: 'PreToolUse', matcher: { if: 'Bash(rm *)' }, handler: () => deny('rm seen') });
    expect((await engine.fire('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls && rm -rf x' } })).blocked).toBe(true);
    expect((await engine.fire('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'echo $(rm -f y)' } })).blocked).toBe(true);
    expect((await engine.fire('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'echo "rm -rf x"' } })).blocked).toBe(false);
    expect(matches({ if: 'Edit(src/**)' }, 'PreToolUse', { tool_name: 'Write', tool_input: { file_path: '/p/src/a.ts' }, cwd: '/p' })).toBe(
      true,
    );
    expect(matches({ if: 'Edit(*.ts)' }, 'PreToolUse', { tool_name: 'Edit', tool_input: { file_path: '/p/a/b.md' }, cwd: '/p' })).toBe(
      false,
    );
    expect(matches({ if: 'Read' }, 'PreToolUse', { tool_name: 'Read', tool_input: {} })).toBe(true);
    expect(matches({ if: 'mcp__github' }, 'PreToolUse', { tool_name: 'mcp__github__create_issue' })).toBe(true);
    expect(
      matches({ if: 'WebFetch(domain:example.com)' }, 'PreToolUse', {
        tool_name: 'WebFetch',
        tool_input: { url: 'https://docs.example.com/x' },
      }),
    ).toBe(true);
  });
});

describe('composition and functions', () => {
  it('all, any, not and a function', () => {
    const bashOrWrite = any(['Bash', { tool: 'Write' }]);
    expect(matches(bashOrWrite, 'PreToolUse', { tool_name: 'Write' })).toBe(true);
    expect(matches(all([bashOrWrite, not({ command: '^ls' })]), 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } })).toBe(
      false,
    );
    expect(matches((input) => String(input.tool_name).length === 4, 'PreToolUse', { tool_name: 'Bash' })).toBe(true);
  });
});

describe('invalid matchers are errors at registration (docs/model.md, "Matchers")', () => {
  it.each([
    ['a bad regex', '(unclosed', /hook "bad" \(x.json hooks\[0\]\): matcher: invalid regex "\(unclosed"/],
    ['an unknown structured field', { tool: 'Bash', toolname: 'x' }, /unknown matcher field "toolname"/],
    ['a bad delimited flag', '/x/q', /invalid regex flag "q"/],
    ['a bad permission rule', { if: 'Bash(' }, /invalid permission rule "Bash\("/],
    ['a non-string tool', { tool: 3 }, /"tool" must be a string/],
  ])('%s', (_label, matcher, message) => {
    const engine = new HookEngine();
    expect(() =>
      engine.register({
        name: 'bad',
        events: 'PreToolUse',
        matcher: matcher as Matcher,
        handler: () => undefined,
        source: 'x.json hooks[0]',
      }),
    ).toThrow(message);
    expect(() => engine.register({ name: 'bad', events: 'PreToolUse', matcher: matcher as Matcher, handler: () => undefined })).toThrow(
      HookSpecError,
    );
  });

  it('other spec fields are validated with the field named', () => {
    const engine = new HookEngine();
    const base: Hook<'Stop'> = { name: 'h', events: 'Stop', handler: () => undefined };
    expect(() => engine.register({ ...base, name: '' })).toThrow('name: expected a non-empty string');
    expect(() => engine.register({ ...base, events: [] })).toThrow('events: expected an event name');
    expect(() => engine.register({ ...base, priority: Number.NaN })).toThrow('priority: expected a finite number');
    expect(() => engine.register({ ...base, timeoutMs: 0 })).toThrow('timeoutMs: expected a positive number');
    expect(() => engine.register({ ...base, onError: 'explode' as never })).toThrow('onError: expected "block" or "continue"');
    expect(() => engine.register({ ...base, handler: 'nope' as never })).toThrow('handler: expected a function');
  });
});

describe('regexes from configuration run in linear time (docs/model.md, "Matchers")', () => {
  it('a catastrophic-backtracking pattern finishes on a long input', () => {
    const m = compileMatcher({ command: '^(a+)+$' }, 'PreToolUse');
    // With a backtracking engine this input takes longer than the age of the universe.
    expect(m.test({ tool_name: 'Bash', tool_input: { command: `${'a'.repeat(50_000)}!` } })).toBe(false);
  });
});

describe('the index (docs/model.md, "Matchers")', () => {
  it('hooks indexed by exact tool name still run in priority order beside generic hooks', async () => {
    const engine = new HookEngine();
    const log: string[] = [];
    engine.register({ name: 'generic-low', events: 'PreToolUse', priority: -1, handler: () => void log.push('generic-low') });
    engine.register({ name: 'bash-exact', events: 'PreToolUse', matcher: 'Bash', handler: () => void log.push('bash-exact') });
    engine.register({ name: 'regex', events: 'PreToolUse', matcher: 'Ba.h', priority: 5, handler: () => void log.push('regex') });
    engine.register({
      name: 'write-exact',
      events: 'PreToolUse',
      matcher: { tool: ['Write'] },
      priority: 9,
      handler: () => void log.push('write-exact'),
    });
    for (let i = 0; i < 1000; i++)
      engine.register({ name: `other-${i}`, events: 'PreToolUse', matcher: `Tool${i}`, handler: () => void log.push('wrong') });
    await engine.fire('PreToolUse', { tool_name: 'Bash' });
    expect(log).toEqual(['regex', 'bash-exact', 'generic-low']);
    log.length = 0;
    await engine.fire('PreToolUse', { tool_name: 'Tool7' });
    expect(log).toEqual(['wrong', 'generic-low']);
    engine.unregister('bash-exact');
    log.length = 0;
    await engine.fire('PreToolUse', { tool_name: 'Bash' });
    expect(log).toEqual(['regex', 'generic-low']);
  });
});
