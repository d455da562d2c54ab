/**
 * `recheck: true` hooks (the built-in guards) judge what will run: a rewrite made
 * after them sends the final input through them again, and their deny wins.
 */
import { describe, expect, it } from 'vitest';
import { allow, context, deny, HookEngine, type Hook, modify, skip } from '../../src/index.js';

const bash = (command: string) => ({ tool_name: 'Bash', tool_input: { command }, session_id: 's1' });

/** A guard that denies any command containing `rm`, and counts what it judged. */
function guard(judged: string[], extra: Partial<Hook<'PreToolUse'>> = {}): Hook<'PreToolUse'> {
  return {
    name: 'guard',
    events: 'PreToolUse',
    priority: 100,
    recheck: true,
    matcher: 'Bash',
    handler: (input) => {
      const command = String(input.tool_input?.command);
      judged.push(command);
      return command.includes('rm') ? deny(`guard: ${command} is destructive`) : allow('guard: fine');
    },
    ...extra,
  };
}
const rewriteTo = (command: string, name = 'rewriter'): Hook<'PreToolUse'> => ({
  name,
  events: 'PreToolUse',
  handler: () => modify({ command }),
});

describe.each([false, true])('recheck (parallel: %s)', (parallel) => {
  it('a later rewrite into a destructive command is judged again and denied; the recheck is in the hooks list', async () => {
    const judged: string[] = [];
    const engine = new HookEngine({ parallel });
    engine.register(guard(judged));
    engine.register(rewriteTo('rm -rf /etc'));
    engine.register({ name: 'approver', events: 'PreToolUse', handler: () => allow('looks fine') });
    const outcome = await engine.fire('PreToolUse', bash('ls'));
    expect(judged).toEqual(['ls', 'rm -rf /etc']);
    expect(outcome.decision).toBe('deny');
    expect(outcome.blocked).toBe(true);
    expect(outcome.reason).toBe('guard: rm -rf /etc is destructive');
    expect(outcome.hooks.map((h) => [h.name, h.result, h.recheck ?? false])).toEqual([
      ['guard', 'allow', false],
      ['rewriter', 'modify', false],
      ['approver', 'allow', false],
      ['guard', 'deny', true],
    ]);
  });

  it('a harmless rewrite is judged again and stays allowed; without a rewrite the guard runs once', async () => {
    const judged: string[] = [];
    const engine = new HookEngine({ parallel });
    engine.register(guard(judged));
    engine.register(rewriteTo('ls -la'));
    const outcome = await engine.fire('PreToolUse', bash('ls'));
    expect(judged).toEqual(['ls', 'ls -la']);
    expect([outcome.blocked, outcome.updatedInput]).toEqual([false, { command: 'ls -la' }]);

    const plain: string[] = [];
    const quiet = new HookEngine({ parallel });
    quiet.register(guard(plain));
    quiet.register({ name: 'ctx', events: 'PreToolUse', handler: () => context('hello') });
    await quiet.fire('PreToolUse', bash('ls'));
    expect(plain).toEqual(['ls']);
  });

  it('a hook without recheck is not run again', async () => {
    const judged: string[] = [];
    const engine = new HookEngine({ parallel });
    engine.register(guard(judged, { recheck: false }));
    engine.register(rewriteTo('rm -rf /etc'));
    const outcome = await engine.fire('PreToolUse', bash('ls'));
    expect(judged).toEqual(['ls']);
    expect(outcome.blocked).toBe(false);
  });

  it('a recheck hook whose matcher only accepts the rewritten input runs on it', async () => {
    const engine = new HookEngine({ parallel });
    engine.register({ name: 'env-guard', events: 'PreToolUse', recheck: true, matcher: { path: '.env' }, handler: () => deny('no .env') });
    engine.register({ name: 'redirect', events: 'PreToolUse', handler: () => modify({ file_path: '/p/.env', content: 'x' }) });
    const outcome = await engine.fire('PreToolUse', {
      tool_name: 'Write',
      cwd: '/p',
      tool_input: { file_path: '/p/notes.md', content: 'x' },
    });
    expect([outcome.blocked, outcome.reason]).toEqual([true, 'no .env']);
    expect(outcome.hooks.map((h) => [h.name, h.recheck ?? false])).toEqual([
      ['redirect', false],
      ['env-guard', true],
    ]);
  });

  it('a recheck hook that fails on the rewritten input fails closed on a blockable event', async () => {
    let calls = 0;
    const engine = new HookEngine({ parallel });
    engine.register({
      name: 'fragile',
      events: 'PreToolUse',
      priority: 1,
      recheck: true,
      handler: () => {
        if (calls++ > 0) throw new Error('cannot parse');
      },
    });
    engine.register(rewriteTo('echo hi'));
    const outcome = await engine.fire('PreToolUse', bash('ls'));
    expect([outcome.blocked, outcome.reason]).toEqual([true, 'hook fragile failed: cannot parse (judging the rewritten input)']);
  });
});

describe('recheck, sequential order', () => {
  it('a guard that ran after the last rewrite already judged the final input: it is not run again', async () => {
    const judged: string[] = [];
    const engine = new HookEngine();
    engine.register({ ...rewriteTo('ls -la'), priority: 200 });
    engine.register(guard(judged));
    const outcome = await engine.fire('PreToolUse', bash('ls'));
    expect(judged).toEqual(['ls -la']);
    expect(outcome.hooks).toHaveLength(2);
  });

  it('skip after a rewrite keeps the rewrite, and the rewrite is still judged', async () => {
    const judged: string[] = [];
    const engine = new HookEngine();
    engine.register(guard(judged));
    engine.register({ name: 'rewrite-and-skip', events: 'PreToolUse', handler: () => modify({ command: 'rm -rf ~' }) });
    engine.register({ name: 'skipper', events: 'PreToolUse', handler: () => skip() });
    const outcome = await engine.fire('PreToolUse', bash('ls'));
    expect([outcome.blocked, outcome.reason]).toEqual([true, 'guard: rm -rf ~ is destructive']);
  });

  it('a Claude Code updatedInput from a later hook is judged the same way', async () => {
    const judged: string[] = [];
    const engine = new HookEngine();
    engine.register(guard(judged));
    engine.register({
      name: 'cc',
      events: 'PreToolUse',
      handler: () => ({
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'rm -rf /etc' } },
      }),
    });
    const outcome = await engine.fire('PreToolUse', bash('ls'));
    expect([outcome.decision, outcome.reason]).toEqual(['deny', 'guard: rm -rf /etc is destructive']);
  });

  it('non-tool events: a prompt rewritten after a recheck hook is judged again', async () => {
    const engine = new HookEngine();
    engine.register({
      name: 'prompt-guard',
      events: 'UserPromptSubmit',
      recheck: true,
      priority: 1,
      handler: (i) => (String(i.prompt).includes('secret') ? deny('no secrets') : undefined),
    });
    engine.register({ name: 'expander', events: 'UserPromptSubmit', handler: () => modify({ prompt: 'tell me the secret' }) });
    const outcome = await engine.fire('UserPromptSubmit', { prompt: 'hi' });
    expect([outcome.blocked, outcome.reason]).toEqual([true, 'no secrets']);
  });

  it('recheck must be a boolean', () => {
    expect(() => new HookEngine().register({ name: 'x', events: 'PreToolUse', recheck: 'yes' as never, handler: () => undefined })).toThrow(
      'recheck: expected true or false, got "yes"',
    );
  });
});
