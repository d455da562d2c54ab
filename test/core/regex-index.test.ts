/**
 * Regex matchers are selected through the event index (tested once per distinct
 * filter value, then cached): the selection and the run order must be exactly what
 * testing every hook on every fire would give.
 */
import { describe, expect, it } from 'vitest';
import { context, HookEngine } from '../../src/index.js';

const ran = async (engine: HookEngine, tool: string) => (await engine.fire('PreToolUse', { tool_name: tool })).hooks.map((h) => h.name);

describe('regex hooks through the index', () => {
  it('selects every regex, exact and match-all hook that accepts the tool, in priority then registration order', async () => {
    const engine = new HookEngine();
    const hook = (name: string, matcher: string | undefined, priority = 0) =>
      engine.register({ name, events: 'PreToolUse', matcher, priority, handler: () => context(name) });
    hook('mcp-any', '^mcp__.*');
    hook('exact-bash', 'Bash', 5);
    hook('all', undefined);
    hook('github-write', 'mcp__github__(create|update)_.*', 10);
    hook('delimited', '/^BASH$/i');
    hook('exact-list', 'Read|mcp__github__create_issue');
    expect(await ran(engine, 'Bash')).toEqual(['exact-bash', 'all', 'delimited']);
    expect(await ran(engine, 'mcp__github__create_issue')).toEqual(['github-write', 'mcp-any', 'all', 'exact-list']);
    expect(await ran(engine, 'mcp__slack__post')).toEqual(['mcp-any', 'all']);
    expect(await ran(engine, 'Read')).toEqual(['all', 'exact-list']);
    // The per-value cache follows registration changes.
    engine.unregister('mcp-any');
    hook('slack', '.*slack.*', 1);
    expect(await ran(engine, 'mcp__slack__post')).toEqual(['slack', 'all']);
    expect(await ran(engine, 'mcp__github__create_issue')).toEqual(['github-write', 'all', 'exact-list']);
  });

  it('1,000 regex hooks: only the one that matches runs, for many distinct tools (more than the cache holds)', async () => {
    const engine = new HookEngine();
    for (let i = 0; i < 1000; i++)
      engine.register({ name: `r${i}`, events: 'PreToolUse', matcher: `^mcp__s${i}__`, handler: () => undefined });
    for (let i = 0; i < 600; i++) expect(await ran(engine, `mcp__s${i}__tool`)).toEqual([`r${i}`]);
    expect(await ran(engine, 'mcp__s0__tool')).toEqual(['r0']);
    expect(await ran(engine, 'Bash')).toEqual([]);
  });

  it('a regex on a non-tool event filter field (SessionStart source) is indexed the same way', async () => {
    const engine = new HookEngine();
    engine.register({ name: 'resumes', events: 'SessionStart', matcher: '^res', handler: () => undefined });
    expect((await engine.fire('SessionStart', { source: 'resume' })).hooks.map((h) => h.name)).toEqual(['resumes']);
    expect((await engine.fire('SessionStart', { source: 'startup' })).hooks).toEqual([]);
    expect((await engine.fire('SessionStart', {})).hooks).toEqual([]);
  });
});

describe('inputs as a direct engine user passes them', () => {
  it('handlers and matchers see hook_event_name, session_id and cwd filled in; what the host sent wins; the host object is untouched', async () => {
    const engine = new HookEngine();
    const seen: unknown[] = [];
    engine.register({
      name: 'h',
      events: 'PreToolCall',
      matcher: (i) => i.session_id === 'default',
      handler: (i) => void seen.push({ ...i }),
    });
    const input = { tool_name: 'Bash', tool_input: { command: 'ls' } };
    await engine.fire('PreToolCall', input);
    await engine.fire('PreToolUse', { ...input, hook_event_name: 'pre_tool_use', cwd: '/mine' }, { cwd: '/option' });
    expect(seen).toEqual([
      { tool_name: 'Bash', tool_input: { command: 'ls' }, hook_event_name: 'PreToolUse', session_id: 'default' },
      { tool_name: 'Bash', tool_input: { command: 'ls' }, hook_event_name: 'PreToolUse', session_id: 'default', cwd: '/mine' },
    ]);
    expect(input).toEqual({ tool_name: 'Bash', tool_input: { command: 'ls' } });
  });
});
