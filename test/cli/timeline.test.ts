import { describe, expect, it } from 'vitest';
import { HookEngine, deny, modify } from '../../src/index.js';
import { Timeline } from '../../src/cli/timeline.js';

function sink() {
  let text = '';
  return { out: { write: (s: string) => ((text += s), true) }, text: () => text };
}

describe('Timeline', () => {
  it('counts as allowed only events a hook judged, and says how many it showed', async () => {
    const engine = new HookEngine();
    engine.register({ name: 'no-rm', events: 'PreToolUse', matcher: { tool: 'Bash', command: '^rm ' }, handler: () => deny('no rm') });
    engine.register({
      name: 'quiet',
      events: 'PreToolUse',
      matcher: { tool: 'Bash', command: '^npm test$' },
      handler: () => modify({ command: 'npm test -s' }),
    });
    engine.register({ name: 'reads', events: 'PreToolUse', matcher: 'Read', handler: () => undefined });
    const { out, text } = sink();
    const timeline = new Timeline({ out, quiet: true, width: 80 }).attach(engine);
    const bash = (command: string) => engine.fire('PreToolUse', { tool_name: 'Bash', tool_input: { command } });
    await bash('rm x');
    await bash('npm test');
    await engine.fire('PreToolUse', { tool_name: 'Read', tool_input: { file_path: 'a' } });
    await engine.fire('PreModelCall', {});
    await engine.fire('StepStart', {});
    timeline.detach();
    expect(timeline.summary).toMatchObject({ events: 5, shown: 3, judged: 3, allowed: 1, denied: 1, rewritten: 1 });
    expect(timeline.renderSummary()).toMatch(/\| events fired +\| 5 \(3 shown above\) +\|/);
    expect(text()).toContain('no-rm:deny');
  });

  it("shows the agent's command, not the line a last handler rewrote it into (the OS sandbox's)", async () => {
    const engine = new HookEngine();
    engine.register({
      name: 'sandbox',
      events: 'PreToolUse',
      matcher: 'Bash',
      handler: () => undefined,
      last: (input) => modify({ command: `{ __hw_d=$(exec /usr/bin/bwrap --die-with-parent -- ${String(input.tool_input?.command)}` }),
    });
    const { out, text } = sink();
    const timeline = new Timeline({ out, width: 120 }).attach(engine);
    await engine.fire('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls -la src' } });
    timeline.detach();
    expect(text()).toContain('ls -la src');
    expect(text()).not.toContain('bwrap');
  });

  it('wraps a long verdict inside the width instead of cutting it', async () => {
    const engine = new HookEngine();
    const reason = `refused because ${'this reason is long '.repeat(8)}and ends here`;
    engine.register({ name: 'wordy', events: 'PreToolUse', handler: () => deny(reason) });
    const { out, text } = sink();
    const timeline = new Timeline({ out, width: 60 }).attach(engine);
    await engine.fire('PreToolUse', { tool_name: 'Bash', tool_input: { command: `echo ${'x'.repeat(200)}` } });
    timeline.detach();
    const lines = text().trimEnd().split('\n');
    expect(lines.every((l) => l.length <= 60)).toBe(true);
    expect(
      lines
        .slice(1)
        .map((l) => l.trim())
        .join(' '),
    ).toContain('and ends here');
  });
});
