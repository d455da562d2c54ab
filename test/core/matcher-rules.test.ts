/**
 * Matchers as docs/model.md states them ("Matchers"): invalid matchers refused at
 * registration, string matchers on each event's filter field, structured fields,
 * composition, linear-time regexes; beyond test/core/matchers.test.ts.
 * Each test names, in a "Catches:" comment, the code change it fails on.
 */
import { describe, expect, it } from 'vitest';
import { all, any, defineHook, deny, HookEngine, HookSpecError, not, type Matcher } from '../../src/index.js';
import { compileMatcher } from '../../src/core/matchers.js';
import { COMPAT_EVENT_NAMES } from '../../src/compat/event-aliases.js';

// The names the public engine knows events by (aliases included), as its matchers see them.
const matches = (matcher: Matcher, event: string, input: Record<string, unknown>) =>
  compileMatcher(matcher, event, COMPAT_EVENT_NAMES).test(input);

describe('an invalid matcher is an error at registration, never a silent match (docs/model.md, "Matchers")', () => {
  // Catches: a matcher of the wrong type accepted (and then matching everything or nothing).
  it.each([
    ['a number', 42, /matcher must be a string, an object or a function, got number/],
    ['a boolean', true, /matcher must be a string, an object or a function, got boolean/],
    ['a bad regex inside all()', all(['Bash', '(']), /invalid regex "\("/],
    ['a bad regex inside any()', any([{ toolRegex: '[' }]), /invalid regex "\["/],
    ['an unknown field inside not()', not({ tools: 'Bash' } as Matcher), /unknown matcher field "tools"/],
    ['a bad command regex', { command: '(' }, /invalid regex/],
    ['a bad target regex', { target: '*x' }, /invalid regex/],
    ['a bad delimited toolRegex', { toolRegex: '/[/' }, /invalid regex/],
  ])('%s', (_label, matcher, message) => {
    const engine = new HookEngine();
    const register = () => engine.register({ name: 'bad', events: 'PreToolUse', matcher: matcher as Matcher, handler: () => undefined });
    expect(register).toThrow(HookSpecError);
    expect(register).toThrow(message);
    expect(engine.hooks()).toEqual([]);
  });

  // Catches: a bad regex accepted on an event whose string matcher is ignored (it would silently match everything).
  it('a bad regex is an error even on an event that ignores string matchers', () => {
    const engine = new HookEngine();
    expect(() => engine.register({ name: 'bad', events: 'Stop', matcher: '(', handler: () => undefined })).toThrow(/invalid regex "\("/);
    expect(() => engine.register({ name: 'bad', events: 'UserPromptSubmit', matcher: '/x/q', handler: () => undefined })).toThrow(
      /invalid regex flag "q"/,
    );
  });
});

describe('string matchers (docs/model.md, "Matchers")', () => {
  // Catches: the exact-names character class missing digits, "-" or "_" (those names would turn into regexes).
  it('names with digits, "-" and "_" are exact, not regexes', () => {
    expect(matches('my-tool_2', 'PreToolUse', { tool_name: 'my-tool_2' })).toBe(true);
    expect(matches('my-tool_2', 'PreToolUse', { tool_name: 'my-tool_23' })).toBe(false);
    expect(matches('my-tool_2', 'PreToolUse', { tool_name: 'xmy-tool_2' })).toBe(false);
  });

  // Catches: names not trimmed around "|" and ",", or empty parts read as "match everything".
  it('spaces around the separators are ignored; a mix of | and , works', () => {
    expect(matches(' Read | Write ,Edit ', 'PreToolUse', { tool_name: 'Write' })).toBe(true);
    expect(matches('Read||Write', 'PreToolUse', { tool_name: 'Grep' })).toBe(false);
  });

  // Catches: a dot or other regex character treated as part of an exact name.
  it('one regex character makes the whole string an unanchored regex', () => {
    expect(matches('Bash.', 'PreToolUse', { tool_name: 'BashX' })).toBe(true);
    expect(matches('Notebook', 'PreToolUse', { tool_name: 'NotebookEdit' })).toBe(false);
    expect(matches('^Notebook', 'PreToolUse', { tool_name: 'NotebookEdit' })).toBe(true);
    expect(matches('Edit$', 'PreToolUse', { tool_name: 'NotebookEdit' })).toBe(true);
  });

  // Catches: a filter field missing or wrong for any event that has one.
  it.each([
    ['PreToolUse', 'tool_name'],
    ['PermissionRequest', 'tool_name'],
    ['PostToolUse', 'tool_name'],
    ['PostToolUseFailure', 'tool_name'],
    ['PermissionDenied', 'tool_name'],
    ['SessionStart', 'source'],
    ['PreCompact', 'trigger'],
    ['PostCompact', 'trigger'],
    ['Notification', 'notification_type'],
    ['SubagentStart', 'agent_type'],
    ['SubagentStop', 'agent_type'],
    ['StopFailure', 'error'],
    ['SessionEnd', 'reason'],
    ['ConfigChange', 'source'],
    ['Setup', 'trigger'],
  ])('%s tests the string against %s', (event, field) => {
    expect(matches('wanted', event, { [field]: 'wanted' })).toBe(true);
    const decoys = { tool_name: 'wanted', source: 'wanted', trigger: 'wanted', agent_type: 'wanted', error: 'wanted', reason: 'wanted' };
    expect(matches('wanted', event, { ...decoys, [field]: 'other' })).toBe(false);
    expect(matches('want.d', event, { [field]: 'xwanted' })).toBe(true);
  });

  // Catches: the string matcher applied (to some field) on events without a filter field.
  it.each(['UserPromptSubmit', 'PreModelCall', 'PostModelCall', 'PostToolBatch', 'Stop', 'Checkpoint', 'MyCustomEvent'])(
    '%s ignores a string matcher',
    (event) => {
      expect(matches('Bash', event, { tool_name: 'Write', source: 'x' })).toBe(true);
      expect(matches('^nothing$', event, {})).toBe(true);
    },
  );

  // Catches: the step name not read from `step.name` when the engine indexes an exact-name matcher.
  it('StepStart and StepEnd match the step name, through the engine index too', async () => {
    const engine = new HookEngine();
    const ran: string[] = [];
    engine.register(
      defineHook({
        name: 'agent-step',
        events: ['StepStart', 'StepCompleted'],
        matcher: 'Agent',
        handler: (i) => void ran.push(String(i.hook_event_name)),
      }),
    );
    await engine.fire('StepStart', { step: { index: 0, name: 'Agent' } });
    await engine.fire('StepStart', { step: { index: 1, name: 'Other' } });
    await engine.fire('StepEnd', { step_name: 'Agent' });
    expect(ran).toEqual(['StepStart', 'StepEnd']);
  });

  // Catches: a hook on several events compiling the string matcher against the first event's filter field only.
  it('one string on several events is tested against each event own field', async () => {
    const engine = new HookEngine();
    const ran: string[] = [];
    engine.register(
      defineHook({
        name: 'h',
        events: ['SessionStart', 'PreToolUse'],
        matcher: 'startup',
        handler: (i) => void ran.push(String(i.hook_event_name)),
      }),
    );
    await engine.fire('SessionStart', { source: 'startup' });
    await engine.fire('PreToolUse', { tool_name: 'Bash', source: 'startup' });
    await engine.fire('PreToolUse', { tool_name: 'startup' });
    expect(ran).toEqual(['SessionStart', 'PreToolUse']);
  });

  // Catches: a delimited regex only recognised on tool events.
  it('/…/flags works on other filter fields too', () => {
    expect(matches('/^START/i', 'SessionStart', { source: 'startup' })).toBe(true);
  });
});

describe('structured matcher fields (docs/model.md, "Matchers")', () => {
  // Catches: `tool` arrays not supported, or `tool` doing a substring match.
  it('tool: one name or a list, exact', () => {
    expect(matches({ tool: ['Read', 'Grep'] }, 'PreToolUse', { tool_name: 'Grep' })).toBe(true);
    expect(matches({ tool: ['Read', 'Grep'] }, 'PreToolUse', { tool_name: 'ReadX' })).toBe(false);
    expect(matches({ tool: 'Read' }, 'PostToolUse', { tool_name: 'Read' })).toBe(true);
  });

  // Catches: `path` not falling back to tool_input.path, or relative paths not resolved against cwd.
  it('path: file_path, else path, else notebook_path; relative paths resolved against cwd; "/" patterns are absolute', () => {
    expect(matches({ path: '*.md' }, 'PreToolUse', { tool_name: 'Grep', tool_input: { path: 'docs/guide.md' }, cwd: '/p' })).toBe(true);
    expect(matches({ path: 'docs/*.md' }, 'PreToolUse', { tool_name: 'Read', tool_input: { file_path: 'docs/a.md' }, cwd: '/p' })).toBe(
      true,
    );
    expect(
      matches({ path: '/etc/**' }, 'PreToolUse', { tool_name: 'Read', tool_input: { file_path: '../../etc/passwd' }, cwd: '/p/q' }),
    ).toBe(true);
    expect(matches({ path: '/etc/**' }, 'PreToolUse', { tool_name: 'Read', tool_input: { file_path: 'etc/passwd' }, cwd: '/p' })).toBe(
      false,
    );
    expect(matches({ path: '*.md' }, 'PreToolUse', { tool_name: 'Read', tool_input: { file_path: 'a.ts', path: 'b.md' }, cwd: '/p' })).toBe(
      false,
    );
  });

  // Catches: `command` anchored, or matching outside tool_input.command.
  it('command: unanchored regex on tool_input.command only', () => {
    expect(
      matches({ command: 'push.*--force' }, 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'git push origin --force' } }),
    ).toBe(true);
    expect(matches({ command: 'rm' }, 'PreToolUse', { tool_name: 'Bash', tool_input: { description: 'rm' } })).toBe(false);
  });

  // Catches: agentType compared with the wrong field.
  it('agentType: equal to agent_type', () => {
    expect(matches({ agentType: 'Explore' }, 'PreToolUse', { tool_name: 'Read', agent_type: 'Explore' })).toBe(true);
  });

  // Catches: metadata equality loosened (e.g. ==), or a missing metadata object read as a match.
  it('metadata: strict equality, "*" for presence, nothing matches without metadata', () => {
    expect(matches({ metadata: { retries: 3 } }, 'Stop', { metadata: { retries: '3' } })).toBe(false);
    expect(matches({ metadata: { retries: 3 } }, 'Stop', { metadata: { retries: 3 } })).toBe(true);
    expect(matches({ metadata: { any: '*' } }, 'Stop', {})).toBe(false);
  });

  // Catches: `target` knowing only the canonical name, or with empty parts dropped.
  it('target: any name of the event (canonical or alias), step and tool, empty parts kept', () => {
    expect(matches({ target: '^StepStart:Agent:$' }, 'StepStart', { step: { name: 'Agent' } })).toBe(true);
    expect(matches({ target: '^PreToolCall:' }, 'PreToolUse', { tool_name: 'delete_x' })).toBe(true);
    expect(matches({ target: '^PostToolCall:' }, 'PreToolUse', { tool_name: 'delete_x' })).toBe(false);
    expect(matches({ target: '^PostToolUse::Bash$' }, 'PostToolUse', { tool_name: 'Bash' })).toBe(true);
  });

  // Catches: `if` ignoring the tool (a Bash rule matching a Write), or the Bash rule matching a prefix without a word boundary.
  it('if: the tool must match, and Bash(git *) matches "git" and "git x" but not "gitx"', async () => {
    const engine = new HookEngine();
    engine.register({ name: 'git', events: 'PreToolUse', matcher: { if: 'Bash(git *)' }, handler: () => deny('git') });
    const fire = (tool_name: string, command: string) => engine.fire('PreToolUse', { tool_name, tool_input: { command } });
    expect((await fire('Bash', 'git')).blocked).toBe(true);
    expect((await fire('Bash', 'git status')).blocked).toBe(true);
    expect((await fire('Bash', 'gitx status')).blocked).toBe(false);
    expect((await fire('Write', 'git status')).blocked).toBe(false);
  });

  // Catches: an empty structured matcher rejected (all given fields match: none given is everything).
  it('a structured matcher with no field matches everything', () => {
    expect(matches({}, 'PreToolUse', { tool_name: 'X' })).toBe(true);
  });
});

describe('composition (docs/model.md, "Matchers")', () => {
  // Catches: not() not inverting, any() short of "some", all() short of "every", nesting broken.
  it('nests to any depth', () => {
    const m = any([all(['Bash', { command: '^git ' }]), not(any(['Bash', 'Write', 'Edit']))]);
    expect(matches(m, 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'git log' } })).toBe(true);
    expect(matches(m, 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } })).toBe(false);
    expect(matches(m, 'PreToolUse', { tool_name: 'Read' })).toBe(true);
    expect(matches(m, 'PreToolUse', { tool_name: 'Write' })).toBe(false);
  });

  // Catches: the plain-object forms (as written in a config file) read differently from the helpers.
  it('the object forms { all }, { any }, { not } are the same as the helpers', () => {
    expect(
      matches({ all: ['Bash', { not: { command: '^ls' } }] }, 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } }),
    ).toBe(false);
    expect(matches({ any: ['Read', 'Bash'] }, 'PreToolUse', { tool_name: 'Bash' })).toBe(true);
  });

  // Catches: a function matcher's truthy-but-not-true value taken as a match.
  it('a function matches only when it returns true; anything but a boolean is an error', () => {
    expect(matches(() => false, 'PreToolUse', { tool_name: 'X' })).toBe(false);
    expect(() => matches(() => 1 as unknown as boolean, 'PreToolUse', { tool_name: 'X' })).toThrow(
      'matcher returned 1; a matcher must return true or false synchronously',
    );
    expect(matches((i) => i.tool_name === 'X', 'PreToolUse', { tool_name: 'X' })).toBe(true);
  });

  // Catches: a composition of string matchers compiled against the wrong event's filter field.
  it('strings inside a composition use the event filter field', () => {
    expect(matches(any(['startup', 'resume']), 'SessionStart', { source: 'resume' })).toBe(true);
    expect(matches(not('startup'), 'SessionStart', { source: 'startup' })).toBe(false);
  });
});

describe('regular expressions from configuration run in linear time (docs/model.md, "Matchers")', () => {
  const evil = `${'a'.repeat(30_000)}!`;

  // Catches: any matcher kind compiled with the backtracking RegExp instead of RE2.
  it.each([
    ['a string matcher', '^(a+)+$', { tool_name: evil }],
    ['a delimited string matcher', '/^(a|a)+$/i', { tool_name: evil }],
    ['toolRegex', { toolRegex: '^(a+)+$' }, { tool_name: evil }],
    ['target', { target: '^PreToolUse::(a+)+$' }, { tool_name: evil }],
  ] as Array<[string, Matcher, Record<string, unknown>]>)('%s finishes on a catastrophic input', (_label, matcher, input) => {
    expect(matches(matcher, 'PreToolUse', input)).toBe(false);
  });

  // Catches: a switch to an engine with backreferences (which cannot be linear-time).
  it('backreferences are refused: the engine is RE2', () => {
    expect(() => compileMatcher('(a)\\1', 'PreToolUse')).toThrow(/invalid regex/);
  });
});
