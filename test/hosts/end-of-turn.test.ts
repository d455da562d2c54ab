import { describe, expect, it } from 'vitest';
import { block, HookEngine } from '../../src/index.js';
import { answerHost, hostNamed } from '../../src/hosts/index.js';

/**
 * At the end of a turn a block means "keep going" in every agent: a block that a failed
 * hook made must end the run instead (it would keep the agent going on every failure),
 * while a block a hook chose still keeps it going (docs/agents.md).
 */
const stopInput = { hook_event_name: 'Stop', session_id: 's', cwd: '/tmp', stop_hook_active: false, last_assistant_message: 'done' };

describe.each(['claude-code', 'codex', 'copilot', 'droid', 'gemini'] as const)('%s at Stop', (name) => {
  const host = hostNamed(name);
  const answer = async (handler: () => unknown) => {
    const engine = new HookEngine().register({ name: 'at-stop', events: 'Stop', handler: handler as never });
    const raw = name === 'gemini' ? { ...stopInput, hook_event_name: 'AfterAgent', prompt_response: 'done' } : stopInput;
    const a = await answerHost(host, engine, 'Stop', host.inputs(raw));
    return a.stdout ? JSON.parse(a.stdout) : {};
  };

  it('a hook that throws ends the run', async () => {
    const out = await answer(() => {
      throw new Error('boom');
    });
    expect(out.continue).toBe(false);
    expect(out.stopReason).toMatch(/hookwise failed closed: hook at-stop failed/);
  });

  it('a block the hook chose keeps the agent going, with its reason', async () => {
    const out = await answer(() => block('run the tests first'));
    expect(out.continue).not.toBe(false);
    expect(JSON.stringify(out)).toContain('run the tests first');
  });
});
