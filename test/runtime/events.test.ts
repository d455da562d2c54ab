import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ask, type RawHookInput } from '../../src/core/index.js';
import { builtinTools, defineTool, SUMMARY_HEADER } from '../../src/runtime/index.js';
import { harness, type Harness } from './helpers.js';

let h: Harness;
afterEach(() => h?.cleanup());

function expectCommon(input: RawHookInput, event: string): void {
  expect(input.hook_event_name).toBe(event);
  expect(typeof input.session_id).toBe('string');
  expect(input.cwd).toBe(h.workspace);
  expect(Number.isNaN(Date.parse(input.timestamp!))).toBe(false);
  expect(input.transcript_path).toBe(path.join(h.transcriptDir, `${input.session_id}.jsonl`));
}

const writeTurn = { toolCalls: [{ name: 'Write', input: { file_path: 'a.txt', content: 'hello' } }] };

describe('every event fires at its point with its documented input', () => {
  it('SessionStart: first, source startup, the model', async () => {
    h = harness();
    await h.run([{ text: 'hi' }]);
    expect(h.names()[0]).toBe('SessionStart');
    const [input] = h.inputsOf('SessionStart');
    expectCommon(input!, 'SessionStart');
    expect(input).toMatchObject({ source: 'startup', model: 'scripted' });
  });

  it('SessionEnd: last, with the reason and how the run stopped', async () => {
    h = harness();
    await h.run([{ text: 'hi' }]);
    expect(h.names().at(-1)).toBe('SessionEnd');
    const [input] = h.inputsOf('SessionEnd');
    expectCommon(input!, 'SessionEnd');
    expect(input).toMatchObject({ reason: 'other', stop_reason: 'end_turn' });
  });

  it('UserPromptSubmit: after SessionStart, before the first step, with the prompt', async () => {
    h = harness();
    await h.run([{ text: 'hi' }], 'list the files');
    expect(h.names().slice(0, 3)).toEqual(['SessionStart', 'UserPromptSubmit', 'StepStart']);
    const [input] = h.inputsOf('UserPromptSubmit');
    expectCommon(input!, 'UserPromptSubmit');
    expect(input!.prompt).toBe('list the files');
  });

  it('StepStart: before each model call, with step index and name', async () => {
    h = harness();
    await h.run([writeTurn, { text: 'done' }]);
    const names = h.names();
    const starts = h.inputsOf('StepStart');
    expect(starts.map((s) => s.step)).toEqual([
      { index: 0, name: 'model' },
      { index: 1, name: 'model' },
    ]);
    expectCommon(starts[0]!, 'StepStart');
    expect(names[names.indexOf('StepStart') + 1]).toBe('PreModelCall');
  });

  it('StepEnd: after the step tool batch, saying whether the step was final', async () => {
    h = harness();
    await h.run([writeTurn, { text: 'done' }]);
    const names = h.names();
    expect(names[names.indexOf('PostToolBatch') + 1]).toBe('StepEnd');
    const ends = h.inputsOf('StepEnd');
    expectCommon(ends[0]!, 'StepEnd');
    expect(ends.map((e) => [e.step, e.status, e.final])).toEqual([
      [{ index: 0, name: 'tools' }, 'completed', false],
      [{ index: 1, name: 'final' }, 'completed', true],
    ]);
  });

  it('PreModelCall: after StepStart, before the provider is called', async () => {
    let callsSeen = -1;
    h = harness([{ name: 'probe', events: 'PreModelCall', handler: () => void (callsSeen = provider.calls) }]);
    const { scriptedProvider } = await import('../../src/providers/scripted.js');
    const provider = scriptedProvider([{ text: 'hi' }]);
    await h.run([], 'p', { provider });
    expect(callsSeen).toBe(0);
    const [input] = h.inputsOf('PreModelCall');
    expectCommon(input!, 'PreModelCall');
    expect(input).toMatchObject({ model: 'scripted', provider: 'scripted', step: { index: 0, name: 'model' }, message_count: 1 });
    expect(input!.tool_names).toContain('Bash');
  });

  it('PostModelCall: after the call, with usage and the response', async () => {
    h = harness();
    await h.run([{ ...writeTurn, text: 'writing', usage: { input_tokens: 12, output_tokens: 5 } }, { text: 'done' }]);
    const names = h.names();
    expect(names.slice(names.indexOf('PreModelCall'), names.indexOf('PreModelCall') + 3)).toEqual([
      'PreModelCall',
      'PostModelCall',
      'PreToolUse',
    ]);
    const [input] = h.inputsOf('PostModelCall');
    expectCommon(input!, 'PostModelCall');
    expect(input!.usage).toEqual({ input_tokens: 12, output_tokens: 5, prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 });
    expect(input!.response).toEqual({
      text: 'writing',
      tool_calls: [{ id: 'call_0_0', name: 'Write', input: { file_path: 'a.txt', content: 'hello' } }],
    });
  });

  it('PreToolUse: before the tool runs, with tool_name, tool_input and tool_use_id', async () => {
    let existedBefore: boolean | undefined;
    h = harness([
      { name: 'probe', events: 'PreToolUse', handler: () => void (existedBefore = existsSync(path.join(h.workspace, 'a.txt'))) },
    ]);
    await h.run([writeTurn]);
    expect(existedBefore).toBe(false);
    expect(readFileSync(path.join(h.workspace, 'a.txt'), 'utf8')).toBe('hello');
    const [input] = h.inputsOf('PreToolUse');
    expectCommon(input!, 'PreToolUse');
    expect(input).toMatchObject({ tool_name: 'Write', tool_input: { file_path: 'a.txt', content: 'hello' }, tool_use_id: 'call_0_0' });
  });

  it('PermissionRequest: when PreToolUse asks, before the approval callback', async () => {
    const order: string[] = [];
    h = harness([
      { name: 'asker', events: 'PreToolUse', handler: () => ask('writes need a yes') },
      { name: 'probe', events: 'PermissionRequest', handler: () => void order.push('PermissionRequest') },
    ]);
    await h.run([writeTurn], 'p', {
      approve: () => {
        order.push('approve');
        return true;
      },
    });
    expect(order).toEqual(['PermissionRequest', 'approve']);
    const [input] = h.inputsOf('PermissionRequest');
    expectCommon(input!, 'PermissionRequest');
    expect(input).toMatchObject({
      tool_name: 'Write',
      tool_input: { file_path: 'a.txt', content: 'hello' },
      tool_use_id: 'call_0_0',
      reason: 'writes need a yes',
    });
  });

  it('PostToolUse: after the tool ran, with tool_response', async () => {
    let existedAfter: boolean | undefined;
    h = harness([
      { name: 'probe', events: 'PostToolUse', handler: () => void (existedAfter = existsSync(path.join(h.workspace, 'a.txt'))) },
    ]);
    await h.run([writeTurn]);
    expect(existedAfter).toBe(true);
    const [input] = h.inputsOf('PostToolUse');
    expectCommon(input!, 'PostToolUse');
    expect(input).toMatchObject({ tool_name: 'Write', tool_use_id: 'call_0_0', tool_response: 'Wrote 5 bytes to a.txt' });
    expect(h.inputsOf('PostToolUseFailure')).toEqual([]);
  });

  it('PostToolUseFailure: when the tool fails, instead of PostToolUse', async () => {
    h = harness();
    await h.run([
      { toolCalls: [{ name: 'Read', input: { file_path: 'missing.txt' } }] },
      { text: 'ok', expect: { toolResultIsError: true } },
    ]);
    expect(h.inputsOf('PostToolUse')).toEqual([]);
    const [input] = h.inputsOf('PostToolUseFailure');
    expectCommon(input!, 'PostToolUseFailure');
    expect(input).toMatchObject({
      tool_name: 'Read',
      tool_input: { file_path: 'missing.txt' },
      tool_use_id: 'call_0_0',
      is_interrupt: false,
    });
    expect(String(input!.error)).toContain('ENOENT');
  });

  it('PostToolBatch: once after all calls of one model turn', async () => {
    h = harness();
    await h.run([
      {
        toolCalls: [
          { name: 'Write', input: { file_path: 'a.txt', content: 'A' } },
          { name: 'Read', input: { file_path: 'a.txt' } },
        ],
      },
    ]);
    const names = h.names();
    expect(names.filter((n) => n === 'PostToolBatch')).toHaveLength(1);
    expect(names.lastIndexOf('PostToolUse')).toBeLessThan(names.indexOf('PostToolBatch'));
    const [input] = h.inputsOf('PostToolBatch');
    expectCommon(input!, 'PostToolBatch');
    expect(input!.tool_calls).toEqual([
      {
        tool_name: 'Write',
        tool_input: { file_path: 'a.txt', content: 'A' },
        tool_use_id: 'call_0_0',
        status: 'ok',
        tool_response: 'Wrote 1 bytes to a.txt',
      },
      { tool_name: 'Read', tool_input: { file_path: 'a.txt' }, tool_use_id: 'call_0_1', status: 'ok', tool_response: 'A' },
    ]);
  });

  it('Stop: when the model answers without tool calls, after its step', async () => {
    h = harness();
    await h.run([writeTurn, { text: 'all done' }]);
    const names = h.names();
    expect(names.slice(-3)).toEqual(['Checkpoint', 'Stop', 'SessionEnd']);
    const [input] = h.inputsOf('Stop');
    expectCommon(input!, 'Stop');
    expect(input).toMatchObject({ stop_hook_active: false, last_assistant_message: 'all done' });
  });

  it('StopFailure: when the provider fails, with the error kind and message', async () => {
    h = harness();
    const result = await h.run([{ error: { kind: 'http', status: 500, message: 'upstream broke' } }]);
    expect(result.stopReason).toBe('error');
    expect(result.error).toEqual({ type: 'http', message: 'upstream broke' });
    expect(h.inputsOf('Stop')).toEqual([]);
    const [input] = h.inputsOf('StopFailure');
    expectCommon(input!, 'StopFailure');
    expect(input).toMatchObject({ error: 'http', error_details: 'upstream broke' });
    expect(h.names().slice(-2)).toEqual(['StopFailure', 'SessionEnd']);
  });

  it('SubagentStart: when the Task tool starts a child, with its agent_id and agent_type', async () => {
    h = harness();
    await h.run([
      { toolCalls: [{ name: 'Task', input: { description: 'look around', prompt: 'list the files', subagent_type: 'explorer' } }] },
      { toolCalls: [{ name: 'LS', input: {} }] },
      { text: 'child done' },
      { text: 'parent done', expect: { toolResultContains: 'child done' } },
    ]);
    const [input] = h.inputsOf('SubagentStart');
    expectCommon(input!, 'SubagentStart');
    expect(input).toMatchObject({ agent_id: 'agent-1', agent_type: 'explorer', prompt: 'list the files', description: 'look around' });
    const names = h.names();
    expect(names.indexOf('PreToolUse')).toBeLessThan(names.indexOf('SubagentStart'));
    // The child's own events carry its identity, in the same session.
    const childTool = h.inputsOf('PreToolUse').find((i) => i.tool_name === 'LS')!;
    expect(childTool).toMatchObject({ agent_id: 'agent-1', agent_type: 'explorer', session_id: input!.session_id });
  });

  it('SubagentStop: when the child is done, with its identity and last message', async () => {
    h = harness();
    const result = await h.run([
      { toolCalls: [{ name: 'Task', input: { description: 'd', prompt: 'p', subagent_type: 'explorer' } }] },
      { text: 'child done' },
      { text: 'parent done' },
    ]);
    expect(result.text).toBe('parent done');
    const [input] = h.inputsOf('SubagentStop');
    expectCommon(input!, 'SubagentStop');
    expect(input).toMatchObject({
      agent_id: 'agent-1',
      agent_type: 'explorer',
      stop_hook_active: false,
      last_assistant_message: 'child done',
    });
    expect(existsSync(String(input!.agent_transcript_path))).toBe(true);
    const names = h.names();
    expect(names.indexOf('SubagentStop')).toBeLessThan(names.indexOf('PostToolUse'));
    expect(h.inputsOf('Stop')).toHaveLength(1);
  });

  it('PreCompact: before the model call once the transcript passes the budget', async () => {
    h = harness();
    const turns = Array.from({ length: 4 }, (_, i) => ({
      toolCalls: [{ name: 'Write', input: { file_path: `f${i}.txt`, content: 'x' } }],
    }));
    await h.run([...turns, { text: 'done' }], 'p', { compaction: { maxMessages: 6, keepRecent: 2 } });
    const [input] = h.inputsOf('PreCompact');
    expectCommon(input!, 'PreCompact');
    expect(input).toMatchObject({ trigger: 'auto', custom_instructions: null, message_count: 7 });
    const names = h.names();
    const at = names.indexOf('PreCompact');
    expect(names[at - 1]).toBe('StepStart');
    expect(names[at + 1]).toBe('PostCompact');
    expect(names[at + 2]).toBe('PreModelCall');
  });

  it('PostCompact: after older messages were summarised, with the summary', async () => {
    h = harness();
    const { scriptedProvider } = await import('../../src/providers/scripted.js');
    const turns = Array.from({ length: 4 }, (_, i) => ({
      toolCalls: [{ name: 'Write', input: { file_path: `f${i}.txt`, content: 'x' } }],
    }));
    const provider = scriptedProvider([...turns, { text: 'done' }]);
    await h.run([], 'write four files', { provider, compaction: { maxMessages: 6, keepRecent: 2 } });
    const [input] = h.inputsOf('PostCompact');
    expectCommon(input!, 'PostCompact');
    expect(input).toMatchObject({ trigger: 'auto', messages_before: 7, messages_after: 3 });
    expect(String(input!.compact_summary)).toContain('user: write four files');
    const after = provider.requests[3]!;
    expect(after).toHaveLength(3);
    expect(after[0]!.content.startsWith(SUMMARY_HEADER)).toBe(true);
  });

  it('Checkpoint: after each step, once the state file is written', async () => {
    let savedStep: number | undefined;
    h = harness([
      {
        name: 'probe',
        events: 'Checkpoint',
        handler: (input) => void (savedStep = JSON.parse(readFileSync(String(input.checkpoint_path), 'utf8')).step),
      },
    ]);
    const result = await h.run([writeTurn, { text: 'done' }]);
    const checkpoints = h.inputsOf('Checkpoint');
    expect(checkpoints).toHaveLength(2);
    expectCommon(checkpoints[0]!, 'Checkpoint');
    expect(checkpoints[0]).toMatchObject({ checkpoint_path: result.checkpointPath, step: { index: 0, name: 'tools' } });
    expect(savedStep).toBe(2);
    const names = h.names();
    expect(names[names.indexOf('Checkpoint') - 1]).toBe('StepEnd');
  });

  it('Notification: when a tool notifies and when the agent waits for approval', async () => {
    h = harness([{ name: 'asker', events: 'PreToolUse', matcher: 'Write', handler: () => ask('confirm') }]);
    const notifier = defineTool({
      name: 'Build',
      description: 'pretend to build',
      input: z.object({}),
      run: async (_input, ctx) => {
        await ctx.notify('build is slow today');
        return 'built';
      },
    });
    await h.run([{ toolCalls: [{ name: 'Build', input: {} }, writeTurn.toolCalls[0]!] }], 'p', {
      tools: [...builtinTools(h.workspace), notifier],
      approve: () => true,
    });
    const notes = h.inputsOf('Notification');
    expectCommon(notes[0]!, 'Notification');
    expect(notes.map((n) => [n.notification_type, n.message])).toEqual([
      ['tool', 'build is slow today'],
      ['permission_prompt', 'hookwise needs your permission to use Write (confirm)'],
    ]);
  });
});

describe('subagent identity', () => {
  it('child events carry agent_id, parent events do not', async () => {
    h = harness([
      { name: 'never', events: 'Stop', handler: () => undefined },
      { name: 'b', events: 'SubagentStop', handler: () => undefined },
    ]);
    await h.run([
      { toolCalls: [{ name: 'Task', input: { description: 'd', prompt: 'p', subagent_type: 'x' } }] },
      { text: 'child' },
      { text: 'parent' },
    ]);
    const tagged = h.fired.filter((f) => f.input.agent_id === 'agent-1').map((f) => f.event);
    expect(tagged).toEqual(['SubagentStart', 'StepStart', 'PreModelCall', 'PostModelCall', 'StepEnd', 'SubagentStop']);
    expect(h.inputsOf('SessionStart')[0]!.agent_id).toBeUndefined();
  });
});
