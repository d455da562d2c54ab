import { describe, expect, it } from 'vitest';
import { HookEngine } from '../../src/index.js';
import { ConfigError, fromSdkHooks, type SdkHookCallback } from '../../src/config/index.js';

describe('fromSdkHooks: Claude Agent SDK style callbacks', () => {
  it('registers callbacks by event and matcher; their return value is Claude Code JSON output', async () => {
    const seen: Array<[string | undefined, boolean]> = [];
    const guard: SdkHookCallback = async (input, toolUseID, { signal }) => {
      seen.push([toolUseID, signal instanceof AbortSignal]);
      const command = String(input.tool_input?.command ?? '');
      if (!command.includes('rm -rf')) return {};
      return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm -rf' } };
    };
    const engine = new HookEngine();
    for (const spec of fromSdkHooks({ PreToolUse: [{ matcher: 'Bash', hooks: [guard] }] })) engine.register(spec);
    const outcome = await engine.fire('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, tool_use_id: 'toolu_1' });
    expect([outcome.decision, outcome.reason]).toEqual(['deny', 'no rm -rf']);
    expect((await engine.fire('PreToolUse', { tool_name: 'Read', tool_input: {} })).hooks).toEqual([]);
    expect(seen).toEqual([['toolu_1', true]]);
  });

  it('names, sources, timeouts and fail-open by default', async () => {
    const specs = fromSdkHooks({
      PostToolUse: [{ hooks: [() => ({ systemMessage: 'a' })], timeout: 5 }],
      Stop: [
        {
          hooks: [
            () => ({ decision: 'block', reason: 'keep going' }),
            () => {
              throw new Error('boom');
            },
          ],
        },
      ],
    });
    expect(specs.map((s) => [s.name, s.source, s.timeoutMs, s.onError])).toEqual([
      ['sdk:PostToolUse[0].hooks[0]', 'sdk hooks PostToolUse[0].hooks[0]', 5000, 'continue'],
      ['sdk:Stop[0].hooks[0]', 'sdk hooks Stop[0].hooks[0]', 60_000, 'continue'],
      ['sdk:Stop[0].hooks[1]', 'sdk hooks Stop[0].hooks[1]', 60_000, 'continue'],
    ]);
    const engine = new HookEngine();
    for (const spec of specs) engine.register(spec);
    const stop = await engine.fire('Stop', {});
    expect([stop.blocked, stop.reason]).toEqual([true, 'keep going']);
  });

  it('a callback that throws is a non-blocking error; `{ async: true }` is no opinion', async () => {
    const engine = new HookEngine();
    const specs = fromSdkHooks({
      UserPromptSubmit: [
        {
          hooks: [
            () => ({ async: true }),
            () => {
              throw new Error('boom');
            },
            () => ({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'ctx' } }),
          ],
        },
      ],
    });
    for (const spec of specs) engine.register(spec);
    const outcome = await engine.fire('UserPromptSubmit', { prompt: 'hi' });
    expect(outcome.hooks.map((h) => [h.status, h.result])).toEqual([
      ['ok', 'none'],
      ['error', null],
      ['ok', 'context'],
    ]);
    expect([outcome.blocked, outcome.additionalContext]).toEqual([false, 'ctx']);
  });

  it('the signal aborts when the callback times out', async () => {
    let aborted = false;
    const engine = new HookEngine();
    const specs = fromSdkHooks({
      PreToolUse: [
        {
          timeout: 0.05,
          hooks: [
            (_i, _id, { signal }) =>
              new Promise((resolve) =>
                signal.addEventListener('abort', () => {
                  aborted = true;
                  resolve({});
                }),
              ),
          ],
        },
      ],
    });
    for (const spec of specs) engine.register(spec);
    const outcome = await engine.fire('PreToolUse', { tool_name: 'Bash', tool_input: {} });
    expect([outcome.hooks[0]!.status, aborted, outcome.blocked]).toEqual(['timeout', true, false]);
  });

  it('options: prefix, priority, fail-closed', () => {
    const [spec] = fromSdkHooks({ PreToolUse: [{ hooks: [() => undefined] }] }, { namePrefix: 'agent', priority: 5, onError: 'block' });
    expect([spec!.name, spec!.priority, spec!.onError]).toEqual(['agent:PreToolUse[0].hooks[0]', 5, 'block']);
  });

  it('a bad matcher or a non-function is a ConfigError naming where', () => {
    expect(() => fromSdkHooks({ PreToolUse: [{ matcher: 'mcp__(x', hooks: [() => undefined] }] })).toThrow(ConfigError);
    expect(() => fromSdkHooks({ PreToolUse: [{ matcher: 'mcp__(x', hooks: [() => undefined] }] })).toThrow(
      'sdk hooks: PreToolUse[0].matcher: invalid regex "mcp__(x": error parsing regexp: missing closing ): `mcp__(x`',
    );
    expect(() => fromSdkHooks({ Stop: [{ hooks: ['not a function' as unknown as SdkHookCallback] }] })).toThrow(
      'sdk hooks: Stop[0].hooks[0]: expected a function',
    );
  });
});
