import { describe, expect, it } from 'vitest';
import { HookEngine } from '../../src/index.js';

/** UseHooks' HookOutcome objects, returned as they are by ported hooks (docs/coming-from/usehooks.md). */
describe('a UseHooks HookOutcome returned by a handler', () => {
  const fire = (event: string, outcome: Record<string, unknown>, input: Record<string, unknown> = {}) => {
    const engine = new HookEngine();
    engine.replace({ name: 'ported', events: event as 'PreToolUse', handler: () => outcome as never });
    return engine.fire(event, input);
  };

  it('deny and stop decide, with the reason', async () => {
    expect(await fire('PreToolUse', { decision: 'deny', reason: 'no deletes' }, { tool_name: 'delete_file' })).toMatchObject({
      blocked: true,
      decision: 'deny',
      reason: 'no deletes',
    });
    expect(await fire('StepStart', { decision: 'stop', reason: 'budget' })).toMatchObject({ stop: true, stopReason: 'budget' });
  });

  it('updatedToolArgs rewrites the call; updatedState patches the state a StepStart hook may change', async () => {
    const tool = await fire(
      'PreToolUse',
      { decision: 'allow', updatedToolArgs: { path: 'safe.txt' } },
      { tool_name: 'write', tool_input: { path: 'a' } },
    );
    expect(tool).toMatchObject({ blocked: false, updatedInput: { path: 'safe.txt' } });
    const step = await fire('StepStart', { decision: 'continue', updatedState: { metadata: { phase: 'review' } } });
    expect(step.updatedInput).toEqual({ metadata: { phase: 'review' } });
  });

  it('continue alone has no opinion; a malformed updatedState is a hook failure, not a silent pass', async () => {
    expect(await fire('PreToolUse', { decision: 'continue' }, { tool_name: 'x' })).toMatchObject({ blocked: false, decision: null });
    const broken = await fire('PreToolUse', { decision: 'allow', updatedToolArgs: 'rm -rf /' }, { tool_name: 'x' });
    expect(broken).toMatchObject({ blocked: true });
    expect(broken.hooks[0]).toMatchObject({ status: 'error' });
  });
});
