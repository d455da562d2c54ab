import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { allow, ask, block, context, deny, modify, replaceOutput, retry, stop } from '../../src/core/index.js';
import { scriptedProvider } from '../../src/providers/scripted.js';
import type { ChatMessage } from '../../src/providers/types.js';
import { MAX_CONSECUTIVE_STOP_BLOCKS, RETRY_LIMIT_REASON, type ApprovalRequest } from '../../src/runtime/index.js';
import { harness, type Harness } from './helpers.js';

let h: Harness;
afterEach(() => h?.cleanup());

const write = (file = 'a.txt', content = 'hello') => ({ toolCalls: [{ name: 'Write', input: { file_path: file, content } }] });
const exists = (file: string) => existsSync(path.join(h.workspace, file));
const toolResults = (messages: ChatMessage[]) => messages.filter((m): m is Extract<ChatMessage, { role: 'tool' }> => m.role === 'tool');

describe('PreToolUse decisions', () => {
  it('deny: the tool does not run and the model gets an error naming the hook and its reason', async () => {
    h = harness([{ name: 'no-writes', events: 'PreToolUse', matcher: 'Write', handler: () => deny('writes are frozen') }]);
    const result = await h.run([write(), { text: 'ok', expect: { toolResultContains: 'no-writes', toolResultIsError: true } }]);
    expect(result.stopReason).toBe('end_turn');
    expect(exists('a.txt')).toBe(false);
    const [denied] = toolResults(result.messages);
    expect(denied).toMatchObject({ toolCallId: 'call_0_0', isError: true });
    expect(denied!.content).toContain('PreToolUse hook "no-writes": writes are frozen');
    expect(h.inputsOf('PostToolUse')).toEqual([]);
    expect(h.inputsOf('PostToolUseFailure')).toEqual([]);
    expect(h.audit.records.filter((r) => r.kind === 'tool')).toEqual([]);
  });

  it('modify: a valid rewritten input is what the tool runs with', async () => {
    h = harness([{ name: 'redirect', events: 'PreToolUse', handler: (input) => modify({ ...input.tool_input, file_path: 'safe.txt' }) }]);
    await h.run([write('a.txt')]);
    expect(exists('a.txt')).toBe(false);
    expect(readFileSync(path.join(h.workspace, 'safe.txt'), 'utf8')).toBe('hello');
    expect(h.inputsOf('PostToolUse')[0]!.tool_input).toEqual({ file_path: 'safe.txt', content: 'hello' });
  });

  it('modify with input the schema rejects: a denial carrying the validation message', async () => {
    h = harness([{ name: 'breaker', events: 'PreToolUse', handler: () => modify({ file_path: 42 }) }]);
    const result = await h.run([write(), { text: 'ok', expect: { toolResultContains: 'invalid input' } }]);
    expect(exists('a.txt')).toBe(false);
    const [denied] = toolResults(result.messages);
    expect(denied!.isError).toBe(true);
    expect(denied!.content).toContain('hook "breaker" rewrote the input of Write into invalid input');
    expect(denied!.content).toMatch(/file_path: .*expected string/);
    expect(denied!.content).toMatch(/content: /);
    expect(h.inputsOf('PostToolUse')).toEqual([]);
  });

  it('ask with an approval callback that says yes: the tool runs', async () => {
    const asked: ApprovalRequest[] = [];
    h = harness([{ name: 'asker', events: 'PreToolUse', handler: () => ask('is this ok?') }]);
    await h.run([write()], 'p', {
      approve: (request) => {
        asked.push(request);
        return true;
      },
    });
    expect(exists('a.txt')).toBe(true);
    expect(asked).toEqual([
      expect.objectContaining({
        toolName: 'Write',
        toolUseId: 'call_0_0',
        reason: 'is this ok?',
        toolInput: { file_path: 'a.txt', content: 'hello' },
      }),
    ]);
  });

  it('ask with an approval callback that says no: the tool does not run', async () => {
    h = harness([{ name: 'asker', events: 'PreToolUse', handler: () => ask('is this ok?') }]);
    const result = await h.run([write(), { text: 'ok', expect: { toolResultContains: 'The user denied permission to use Write' } }], 'p', {
      approve: async () => false,
    });
    expect(result.stopReason).toBe('end_turn');
    expect(exists('a.txt')).toBe(false);
  });

  it('ask without an approval callback (headless): a denial', async () => {
    h = harness([{ name: 'asker', events: 'PreToolUse', handler: () => ask('is this ok?') }]);
    const result = await h.run([write(), { text: 'ok', expect: { toolResultContains: 'headless' } }]);
    expect(result.stopReason).toBe('end_turn');
    expect(exists('a.txt')).toBe(false);
    expect(h.inputsOf('PermissionRequest')).toHaveLength(1);
  });

  it('ask answered by a PermissionRequest hook: no human is asked', async () => {
    let humanAsked = false;
    h = harness([
      { name: 'asker', events: 'PreToolUse', handler: () => ask() },
      { name: 'auto-approve', events: 'PermissionRequest', handler: () => allow() },
    ]);
    await h.run([write()], 'p', { approve: () => (humanAsked = true) });
    expect(exists('a.txt')).toBe(true);
    expect(humanAsked).toBe(false);
  });

  it('ask denied by a PermissionRequest hook: the tool does not run', async () => {
    h = harness([
      { name: 'asker', events: 'PreToolUse', handler: () => ask() },
      { name: 'auto-deny', events: 'PermissionRequest', handler: () => deny('not on fridays') },
    ]);
    await h.run([write(), { text: 'ok', expect: { toolResultContains: 'PermissionRequest hook "auto-deny": not on fridays' } }], 'p', {
      approve: () => true,
    });
    expect(exists('a.txt')).toBe(false);
  });

  it('continue: false without a deny (as in Claude Code): the tool runs, then the agent halts', async () => {
    h = harness([{ name: 'last-call', events: 'PreToolUse', handler: () => ({ continue: false, stopReason: 'that was the last one' }) }]);
    const provider = scriptedProvider([write(), { text: 'never reached' }]);
    const result = await h.run([], 'p', { provider });
    expect(result).toMatchObject({ stopReason: 'hook_stop', reason: 'that was the last one' });
    expect(exists('a.txt')).toBe(true);
    expect(provider.calls).toBe(1);
  });

  it('stop: the tool does not run and the whole agent halts with the reason', async () => {
    h = harness([{ name: 'kill-switch', events: 'PreToolUse', handler: () => stop('budget exhausted') }]);
    const provider = scriptedProvider([write(), { text: 'never reached' }]);
    const result = await h.run([], 'p', { provider });
    expect(result).toMatchObject({ stopReason: 'hook_stop', reason: 'budget exhausted' });
    expect(exists('a.txt')).toBe(false);
    expect(provider.calls).toBe(1);
    expect(h.inputsOf('Stop')).toEqual([]);
    expect(h.names().at(-1)).toBe('SessionEnd');
    // The model's call still got a result in the transcript of messages.
    expect(toolResults(result.messages)).toHaveLength(1);
  });

  it('retry: fired again after the delay, at most maxOperationRetries times, then a block "retry limit reached"', async () => {
    let calls = 0;
    h = harness([
      {
        name: 'flaky',
        events: 'PreToolUse',
        handler: () => {
          calls++;
          return retry(5);
        },
      },
    ]);
    const result = await h.run([write(), { text: 'ok', expect: { toolResultContains: RETRY_LIMIT_REASON } }], 'p', {
      maxOperationRetries: 2,
    });
    expect(calls).toBe(3);
    expect(h.inputsOf('PreToolUse')).toHaveLength(3);
    expect(exists('a.txt')).toBe(false);
    expect(result.stopReason).toBe('end_turn');
    expect(h.events.filter((e) => e.type === 'retry').map((e) => (e as { delayMs: number }).delayMs)).toEqual([5, 5]);
  });

  it('retry that then allows: the tool runs', async () => {
    let calls = 0;
    h = harness([{ name: 'once-flaky', events: 'PreToolUse', handler: () => (calls++ === 0 ? retry(1) : allow()) }]);
    await h.run([write()]);
    expect(calls).toBe(2);
    expect(exists('a.txt')).toBe(true);
  });
});

describe('PostToolUse decisions', () => {
  it('updatedOutput replaces what the model sees; hooks still saw the real output', async () => {
    h = harness([{ name: 'redact', events: 'PostToolUse', handler: () => replaceOutput('[redacted]') }]);
    const result = await h.run([
      write('k.txt', 'sk-secret'),
      { toolCalls: [{ name: 'Read', input: { file_path: 'k.txt' } }] },
      { text: 'ok', expect: { toolResultExcludes: 'sk-secret' } },
    ]);
    expect(result.stopReason).toBe('end_turn');
    expect(toolResults(result.messages).map((m) => m.content)).toEqual(['[redacted]', '[redacted]']);
    expect(h.inputsOf('PostToolUse')[1]!.tool_response).toBe('sk-secret');
  });

  it('block: the reason is shown to the model beside the result; additionalContext is appended', async () => {
    h = harness([
      { name: 'ctx', events: 'PostToolUse', priority: 1, handler: () => context('remember the style guide') },
      { name: 'lint', events: 'PostToolUse', handler: () => block('lint failed on a.txt') },
    ]);
    const result = await h.run([write()]);
    const [seen] = toolResults(result.messages);
    expect(seen!.content).toBe('Wrote 5 bytes to a.txt\n\nPostToolUse hook "lint" says: lint failed on a.txt\n\nremember the style guide');
    expect(seen!.isError).toBeUndefined();
  });
});

describe('Stop decisions', () => {
  it('block: the agent continues with the reason as its next instruction, stop_hook_active on the next Stop', async () => {
    let stops = 0;
    h = harness([{ name: 'tests-first', events: 'Stop', handler: () => (stops++ === 0 ? block('run the tests first') : undefined) }]);
    const result = await h.run([{ text: 'done?' }, { text: 'tests pass', expect: { userMessageContains: 'run the tests first' } }]);
    expect(result).toMatchObject({ stopReason: 'end_turn', text: 'tests pass', steps: 2 });
    expect(h.inputsOf('Stop').map((i) => i.stop_hook_active)).toEqual([false, true]);
  });

  it(`block ${MAX_CONSECUTIVE_STOP_BLOCKS} times in a row: the agent stops anyway`, async () => {
    h = harness([{ name: 'never-done', events: 'Stop', handler: () => block('keep going') }]);
    const provider = scriptedProvider([], 'script');
    const result = await h.run([], 'p', { provider });
    expect(MAX_CONSECUTIVE_STOP_BLOCKS).toBe(8);
    expect(h.inputsOf('Stop')).toHaveLength(8);
    expect(h.inputsOf('Stop').map((i) => i.stop_hook_active)).toEqual([false, true, true, true, true, true, true, true]);
    expect(provider.calls).toBe(8);
    expect(result.stopReason).toBe('stop_hook_limit');
    expect(result.reason).toContain('keep going');
  });

  it('SubagentStop block: the child keeps going', async () => {
    let blocks = 0;
    h = harness([
      { name: 'child-check', events: 'SubagentStop', handler: () => (blocks++ === 0 ? block('also check README') : undefined) },
    ]);
    const result = await h.run([
      { toolCalls: [{ name: 'Task', input: { description: 'd', prompt: 'p', subagent_type: 'x' } }] },
      { text: 'child first answer' },
      { text: 'child second answer', expect: { userMessageContains: 'also check README' } },
      { text: 'parent', expect: { toolResultContains: 'child second answer' } },
    ]);
    expect(result).toMatchObject({ stopReason: 'end_turn', text: 'parent' });
    expect(h.inputsOf('SubagentStop').map((i) => i.stop_hook_active)).toEqual([false, true]);
  });
});

describe('other decisions', () => {
  it('UserPromptSubmit may rewrite the prompt', async () => {
    h = harness([{ name: 'rewrite', events: 'UserPromptSubmit', handler: (input) => modify({ prompt: `${input.prompt} (be brief)` }) }]);
    const result = await h.run([{ text: 'ok', expect: { userMessageContains: 'hello (be brief)' } }], 'hello');
    expect(result.stopReason).toBe('end_turn');
  });

  it('UserPromptSubmit may reject the prompt: no model call', async () => {
    h = harness([{ name: 'gate', events: 'UserPromptSubmit', handler: () => block('no prompts today') }]);
    const provider = scriptedProvider([]);
    const result = await h.run([], 'hello', { provider });
    expect(result.stopReason).toBe('prompt_rejected');
    expect(result.reason).toContain('no prompts today');
    expect(provider.calls).toBe(0);
  });

  it('SessionStart block refuses the session', async () => {
    h = harness([{ name: 'closed', events: 'SessionStart', handler: () => block('maintenance') }]);
    const result = await h.run([]);
    expect(result.stopReason).toBe('session_refused');
    expect(h.names()).toEqual(['SessionStart', 'SessionEnd']);
  });

  it('PostModelCall may rewrite the response text', async () => {
    h = harness([{ name: 'polish', events: 'PostModelCall', handler: () => replaceOutput('polished answer') }]);
    const result = await h.run([{ text: 'raw answer' }]);
    expect(result.text).toBe('polished answer');
    expect(h.inputsOf('Stop')[0]!.last_assistant_message).toBe('polished answer');
  });

  it('PreModelCall block: the model call is not made and the agent stops', async () => {
    h = harness([{ name: 'no-model', events: 'PreModelCall', handler: () => block('offline') }]);
    const provider = scriptedProvider([]);
    const result = await h.run([], 'p', { provider });
    expect(provider.calls).toBe(0);
    expect(result.stopReason).toBe('hook_blocked');
    expect(result.reason).toContain('offline');
  });

  it('StepStart block: the step does not run and the agent stops', async () => {
    h = harness([
      {
        name: 'one-step',
        events: 'StepStart',
        handler: (input) => ((input.step as { index: number }).index >= 1 ? block('one step only') : undefined),
      },
    ]);
    const provider = scriptedProvider([write(), { text: 'never' }]);
    const result = await h.run([], 'p', { provider });
    expect(provider.calls).toBe(1);
    expect(result).toMatchObject({ stopReason: 'hook_blocked', steps: 1 });
  });

  it('PostToolBatch block: the agent loop stops after the batch', async () => {
    h = harness([{ name: 'batch-gate', events: 'PostToolBatch', handler: () => block('enough tools') }]);
    const provider = scriptedProvider([write(), { text: 'never' }]);
    const result = await h.run([], 'p', { provider });
    expect(exists('a.txt')).toBe(true);
    expect(provider.calls).toBe(1);
    expect(result.stopReason).toBe('hook_blocked');
    expect(result.reason).toContain('enough tools');
  });

  it('SubagentStart block: the child is not started and the Task call fails', async () => {
    h = harness([{ name: 'no-children', events: 'SubagentStart', handler: () => block('no subagents') }]);
    const result = await h.run([
      { toolCalls: [{ name: 'Task', input: { description: 'd', prompt: 'p', subagent_type: 'x' } }] },
      { text: 'ok', expect: { toolResultContains: 'no subagents', toolResultIsError: true } },
    ]);
    expect(result.stopReason).toBe('end_turn');
    expect(h.inputsOf('SubagentStop')).toEqual([]);
    expect(h.inputsOf('PostToolUseFailure')).toHaveLength(1);
  });

  it('a stop inside a subagent halts the whole agent', async () => {
    h = harness([{ name: 'halt', events: 'PreToolUse', matcher: 'LS', handler: () => stop('halt everything') }]);
    const provider = scriptedProvider([
      { toolCalls: [{ name: 'Task', input: { description: 'd', prompt: 'p', subagent_type: 'x' } }] },
      { toolCalls: [{ name: 'LS', input: {} }] },
      { text: 'never' },
    ]);
    const result = await h.run([], 'p', { provider });
    expect(result).toMatchObject({ stopReason: 'hook_stop', reason: 'halt everything' });
    expect(provider.calls).toBe(2);
  });

  it('PreCompact block: compaction is skipped', async () => {
    h = harness([{ name: 'keep-all', events: 'PreCompact', handler: () => block('keep everything') }]);
    const provider = scriptedProvider([write('a'), write('b'), write('c'), { text: 'done' }]);
    const result = await h.run([], 'p', { provider, compaction: { maxMessages: 3, keepRecent: 1 } });
    expect(h.inputsOf('PreCompact').length).toBeGreaterThan(0);
    expect(h.inputsOf('PostCompact')).toEqual([]);
    expect(provider.requests[3]).toHaveLength(7);
    expect(result.messages).toHaveLength(8);
  });
});

describe('model errors', () => {
  it('a rate limit fires PostModelCall with the error, waits retry_after_ms, and calls again', async () => {
    h = harness();
    const provider = scriptedProvider([{ error: { kind: 'rate_limit', retryAfterMs: 5, message: 'slow down' } }, { text: 'second try' }]);
    const result = await h.run([], 'p', { provider });
    expect(result).toMatchObject({ stopReason: 'end_turn', text: 'second try' });
    const [failed, ok] = h.inputsOf('PostModelCall');
    expect(failed!.error).toEqual({ type: 'rate_limit', message: 'slow down', status: 429, retry_after_ms: 5 });
    expect(ok!.error).toBeUndefined();
    expect(h.inputsOf('PreModelCall')).toHaveLength(2);
  });

  it('a hook answering retry on PostModelCall chooses the delay; the retries are bounded', async () => {
    let asked = 0;
    h = harness([
      {
        name: 'budget',
        events: 'PostModelCall',
        handler: (input) => {
          if (!input.error) return undefined;
          asked++;
          return retry(2);
        },
      },
    ]);
    const turns = Array.from({ length: 5 }, () => ({ error: { kind: 'rate_limit' as const, retryAfterMs: 60_000 } }));
    const result = await h.run(turns, 'p', { maxOperationRetries: 2 });
    expect(asked).toBe(3);
    expect(result.stopReason).toBe('error');
    expect(result.error!.type).toBe('rate_limit');
    expect(result.error!.message).toContain('retry limit reached');
    expect(h.events.filter((e) => e.type === 'retry').map((e) => (e as { delayMs: number }).delayMs)).toEqual([2, 2]);
    expect(h.inputsOf('StopFailure')[0]).toMatchObject({ error: 'rate_limit' });
  });

  it('max steps: StopFailure, and a max_steps result rather than an exception', async () => {
    h = harness();
    const result = await h.run([write('a'), write('b'), write('c')], 'p', { maxSteps: 2 });
    expect(result.stopReason).toBe('max_steps');
    expect(result.steps).toBe(2);
    expect(h.inputsOf('StopFailure')[0]).toMatchObject({ error: 'max_steps' });
  });

  it('a failure outside any tool (an approval callback that throws) is an error result with StopFailure, not a throw', async () => {
    h = harness([{ name: 'asker', events: 'PreToolUse', handler: () => ask() }]);
    const result = await h.run([write()], 'p', {
      approve: () => {
        throw new Error('approval UI crashed');
      },
    });
    expect(result).toMatchObject({ stopReason: 'error', error: { type: 'internal', message: 'approval UI crashed' } });
    expect(h.inputsOf('StopFailure')[0]).toMatchObject({ error: 'internal', error_details: 'approval UI crashed' });
    expect(h.names().at(-1)).toBe('SessionEnd');
  });

  it('the caller aborting rejects the run, after SessionEnd', async () => {
    const controller = new AbortController();
    h = harness([{ name: 'abort', events: 'PreToolUse', handler: () => void controller.abort(new Error('user pressed ctrl-c')) }]);
    await expect(
      h.run([{ toolCalls: [{ name: 'Bash', input: { command: 'sleep 5' } }] }], 'p', { signal: controller.signal }),
    ).rejects.toThrow('ctrl-c');
    expect(h.names().at(-1)).toBe('SessionEnd');
    expect(h.inputsOf('SessionEnd')[0]).toMatchObject({ reason: 'aborted' });
  });
});

describe('audit', () => {
  it('a tool record before each tool runs, and an outcome record for every fire', async () => {
    let toolRecordsAtPreToolUse = -1;
    h = harness([
      {
        name: 'probe',
        events: 'PreToolUse',
        handler: () => void (toolRecordsAtPreToolUse = h.audit.records.filter((r) => r.kind === 'tool').length),
      },
    ]);
    await h.run([write(), { text: 'done' }]);
    expect(toolRecordsAtPreToolUse).toBe(0);
    const tools = h.audit.records.filter((r) => r.kind === 'tool');
    expect(tools).toEqual([
      expect.objectContaining({
        tool: 'Write',
        data: expect.objectContaining({ tool_use_id: 'call_0_0', tool_input: { file_path: 'a.txt', content: 'hello' } }),
      }),
    ]);
    const outcomes = h.audit.records.filter((r) => r.kind === 'outcome');
    expect(outcomes.map((r) => r.event)).toEqual(h.names());
    const toolAt = h.audit.records.indexOf(tools[0]!);
    expect(h.audit.records[toolAt - 1]!.event).toBe('PreToolUse');
    expect(h.audit.records[toolAt + 1]!.event).toBe('PostToolUse');
    expect(h.audit.flushes).toBe(1);
  });
});
