import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { asHook, context, deny, modify, type RawHookInput } from '../../src/core/index.js';
import type { ChatMessage, ModelProvider } from '../../src/providers/types.js';
import { scriptedProvider, type ScriptTurn } from '../../src/providers/scripted.js';
import { defineTool, HOOK_CONTEXT_HEADER } from '../../src/runtime/index.js';
import { harness, type Harness } from './helpers.js';

let h: Harness;
afterEach(() => h?.cleanup());

/** A scripted provider that keeps the messages of every request it got. */
function recording(turns: ScriptTurn[]): { provider: ModelProvider; requests: ChatMessage[][] } {
  const inner = scriptedProvider(turns);
  const requests: ChatMessage[][] = [];
  return {
    requests,
    provider: {
      name: inner.name,
      model: inner.model,
      complete: (request) => {
        requests.push(structuredClone(request.messages));
        return inner.complete(request);
      },
    },
  };
}

const writeTurn = { text: 'writing', toolCalls: [{ name: 'Write', input: { file_path: 'a.txt', content: 'hello' } }] };

describe('step: every event inside a step carries it, named by what the step does', () => {
  it('model while the model is called, tools while its tool calls run, final when it answered without tools', async () => {
    h = harness();
    await h.run([writeTurn, { text: 'done' }]);
    const steps = h.fired.map((f) => `${f.event}:${f.input.step?.index ?? ''}:${f.input.step?.name ?? ''}`);
    expect(steps).toEqual([
      'SessionStart::',
      'UserPromptSubmit::',
      'StepStart:0:model',
      'PreModelCall:0:model',
      'PostModelCall:0:model',
      'PreToolUse:0:tools',
      'PostToolUse:0:tools',
      'PostToolBatch:0:tools',
      'StepEnd:0:tools',
      'Checkpoint:0:tools',
      'StepStart:1:model',
      'PreModelCall:1:model',
      'PostModelCall:1:model',
      'StepEnd:1:final',
      'Checkpoint:1:final',
      'Stop:1:final',
      'SessionEnd:1:final',
    ]);
  });

  it('the target matcher sees "Event:Step:Tool", and the step matcher the step name', async () => {
    const seen: string[] = [];
    h = harness([
      { name: 'delete-guard', events: 'PreToolUse', matcher: { target: 'PreToolUse:tools:Wri.*' }, handler: () => deny('no writes') },
      { name: 'final-steps', events: 'StepEnd', matcher: { step: 'final' }, handler: (i) => void seen.push(`final ${i.step?.index}`) },
    ]);
    const result = await h.run([writeTurn, { text: 'done' }]);
    expect(result.messages.find((m) => m.role === 'tool')?.content).toContain('PreToolUse hook "delete-guard": no writes');
    expect(seen).toEqual(['final 1']);
  });

  it('stepNames renames the phases', async () => {
    h = harness();
    await h.run([writeTurn, { text: 'done' }], 'go', { stepNames: { model: 'Agent', tools: 'Agent', final: 'Answer' } });
    expect(h.inputsOf('PreToolUse')[0]!.step).toEqual({ index: 0, name: 'Agent' });
    expect(h.inputsOf('StepEnd').map((i) => i.step?.name)).toEqual(['Agent', 'Answer']);
  });
});

describe('metadata and messages', () => {
  it('metadata from the agent options is on every input; the metadata matcher reads it', async () => {
    const matched: string[] = [];
    h = harness([
      { name: 'tenant', events: 'PreToolUse', matcher: { metadata: { tenant: 'acme' } }, handler: (i) => void matched.push(i.tool_name!) },
    ]);
    await h.run([writeTurn, { text: 'done' }], 'go', { metadata: { tenant: 'acme', tier: 2 } });
    expect(h.fired.every((f) => (f.input.metadata as { tenant?: string })?.tenant === 'acme')).toBe(true);
    expect(matched).toEqual(['Write']);
  });

  it('StepStart and PreModelCall carry the conversation; messagesInInputs puts it on every input', async () => {
    h = harness();
    await h.run([writeTurn, { text: 'done' }], 'go');
    expect(h.inputsOf('StepStart')[0]!.messages).toEqual([{ role: 'user', content: 'go' }]);
    expect(h.inputsOf('PreModelCall')[1]!.messages).toHaveLength(3);
    expect(h.inputsOf('PreToolUse')[0]!.messages).toBeUndefined();
    h.cleanup();
    h = harness();
    await h.run([writeTurn, { text: 'done' }], 'go', { messagesInInputs: true });
    expect(h.inputsOf('PreToolUse')[0]!.messages).toEqual([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: 'writing',
        toolCalls: [{ id: 'call_0_0', name: 'Write', input: { file_path: 'a.txt', content: 'hello' } }],
      },
    ]);
  });
});

describe('rewriting the state before a step or a model call', () => {
  it('StepStart modify({ messages, metadata }) changes what the model gets and what later hooks see', async () => {
    const { provider, requests } = recording([{ text: 'ok' }]);
    h = harness([
      {
        name: 'state',
        events: 'StepStart',
        handler: (input) =>
          modify({
            messages: [...(input.messages as ChatMessage[]), { role: 'user', content: 'be brief' }],
            metadata: { phase: 'rewritten' },
          }),
      },
    ]);
    await h.run([], 'hello', { provider, metadata: { phase: 'initial' } });
    expect(requests[0]).toEqual([
      { role: 'user', content: 'hello' },
      { role: 'user', content: 'be brief' },
    ]);
    expect(h.inputsOf('StepStart')[0]!.metadata).toEqual({ phase: 'initial' });
    expect(h.inputsOf('PreModelCall')[0]!.metadata).toEqual({ phase: 'rewritten' });
  });

  it('PreModelCall modify({ prompt, system_prompt }) rewrites the call about to be made', async () => {
    const { provider, requests } = recording([{ text: 'ok' }]);
    h = harness([
      {
        name: 'prompt',
        events: 'PreModelCall',
        handler: (i) => modify({ prompt: `${i.prompt} (answer in French)`, system_prompt: 'You are terse.' }),
      },
    ]);
    const result = await h.run([], 'hello', { provider, systemPrompt: 'You are chatty.' });
    expect(requests[0]).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'hello (answer in French)' },
    ]);
    expect(result.messages.slice(0, 2)).toEqual(requests[0]);
  });

  it('a rewrite of the wrong shape stops the run loudly, naming the hook and the field', async () => {
    const { provider, requests } = recording([{ text: 'ok' }]);
    h = harness([{ name: 'broken', events: 'PreModelCall', handler: () => modify({ messages: [{ role: 'robot', content: 1 }] }) }]);
    const result = await h.run([], 'hello', { provider });
    expect(requests).toHaveLength(0);
    expect(result.stopReason).toBe('hook_blocked');
    expect(result.reason).toMatch(/^model call not made: PreModelCall hook "broken" set an invalid messages\.0/);
  });

  it('context added on PreModelCall reaches the call it was fired for', async () => {
    const { provider, requests } = recording([{ text: 'ok' }]);
    h = harness([{ name: 'ctx', events: 'PreModelCall', handler: () => context('today is Tuesday') }]);
    await h.run([], 'hello', { provider });
    expect(requests[0]!.at(-1)).toEqual({ role: 'user', content: `${HOOK_CONTEXT_HEADER}\ntoday is Tuesday` });
  });
});

describe("payload fields of the seed designs, beside Claude Code's", () => {
  it('PreToolUse recent_tools; PostToolUse result and duration_ms; SessionEnd totals', async () => {
    h = harness();
    await h.run([
      {
        toolCalls: [
          { name: 'LS', input: {} },
          { name: 'Write', input: { file_path: 'a.txt', content: 'x' } },
        ],
        usage: { input_tokens: 10, output_tokens: 4 },
      },
      { text: 'done', usage: { input_tokens: 7, output_tokens: 1 } },
    ]);
    expect(h.inputsOf('PreToolUse').map((i) => i.recent_tools)).toEqual([[], ['LS']]);
    const post = h.inputsOf('PostToolUse')[1]!;
    expect(post.duration_ms).toEqual(expect.any(Number));
    expect(post.result).toEqual({ success: true, output: 'Wrote 1 bytes to a.txt', duration_ms: post.duration_ms });
    expect(h.inputsOf('SessionEnd')[0]).toMatchObject({ total_tokens: 22, total_tool_calls: 2, duration_ms: expect.any(Number) });
  });

  it('PreModelCall prompt, system_prompt, available_tools; PostModelCall usage totals and duration_ms', async () => {
    h = harness();
    await h.run([{ text: 'hi', usage: { input_tokens: 3, output_tokens: 2 } }], 'hello', { systemPrompt: 'sys' });
    expect(h.inputsOf('PreModelCall')[0]).toMatchObject({
      prompt: 'hello',
      system_prompt: 'sys',
      available_tools: ['Read', 'Write', 'Edit', 'LS', 'Bash', 'Task'],
      model_name: 'scripted',
      model_provider: 'scripted',
    });
    expect(h.inputsOf('PostModelCall')[0]).toMatchObject({
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
      response_text: 'hi',
      prompt: 'hello',
      duration_ms: expect.any(Number),
    });
    expect(h.inputsOf('SessionStart')[0]).toMatchObject({ system_prompt: 'sys', model_provider: 'scripted', model_name: 'scripted' });
  });

  it('SubagentStop says whether the child succeeded, and why not', async () => {
    h = harness();
    await h.run([
      { toolCalls: [{ name: 'Task', input: { description: 'd', prompt: 'look', subagent_type: 'x' } }] },
      { text: 'child answer' },
      { toolCalls: [{ name: 'Task', input: { description: 'd', prompt: 'fail', subagent_type: 'x' } }] },
      { error: { kind: 'http', message: 'upstream is down' } },
      { text: 'parent answer' },
    ]);
    const stops = h.inputsOf('SubagentStop');
    expect(stops.map((s) => [s.agent_id, s.success, s.error])).toEqual([
      ['agent-1', true, null],
      ['agent-2', false, 'upstream is down'],
    ]);
  });
});

describe('Claude Code parity of the inputs', () => {
  it('prompt_id from the prompt on, permission_mode everywhere, effort when set, Stop lists', async () => {
    h = harness();
    await h.run([writeTurn, { text: 'done' }], 'go', { effort: 'high' });
    expect(h.inputsOf('SessionStart')[0]!.prompt_id).toBeUndefined();
    const ids = new Set(h.fired.slice(1).map((f) => f.input.prompt_id));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(h.fired.every((f) => f.input.permission_mode === 'default')).toBe(true);
    expect(h.fired.map((f) => (f.input.effort as { level: string } | undefined)?.level)).toEqual(
      h.fired.map((f) => (['SessionStart', 'UserPromptSubmit'].includes(f.event) ? undefined : 'high')),
    );
    expect(h.inputsOf('Stop')[0]).toMatchObject({ background_tasks: [], session_crons: [] });
  });

  it('a Bash command that exits non-zero fires PostToolUseFailure with "Exit code N" and the output', async () => {
    h = harness();
    await h.run([
      {
        toolCalls: [
          { name: 'Bash', input: { command: 'echo partial; echo oops >&2; exit 4' } },
          { name: 'Bash', input: { command: 'echo fine' } },
        ],
      },
      { text: 'done' },
    ]);
    const [failure] = h.inputsOf('PostToolUseFailure');
    expect(failure).toMatchObject({
      tool_name: 'Bash',
      error: 'Exit code 4\npartial\noops',
      is_interrupt: false,
      duration_ms: expect.any(Number),
      result: { success: false, exit_code: 4 },
    });
    const [success] = h.inputsOf('PostToolUse');
    expect(success!.tool_response).toEqual({ stdout: 'fine', stderr: '', interrupted: false, isImage: false, noOutputExpected: false });
    expect(success!.result).toMatchObject({ success: true, exit_code: 0 });
  });

  it('toolFailureEvent: "PostToolUse" fires PostToolUse for a failed call instead (the A3S way), never both', async () => {
    h = harness();
    await h.run([{ toolCalls: [{ name: 'Bash', input: { command: 'exit 2' } }] }, { text: 'done' }], 'go', {
      toolFailureEvent: 'PostToolUse',
    });
    expect(h.inputsOf('PostToolUseFailure')).toHaveLength(0);
    const [post] = h.inputsOf('PostToolUse');
    expect(post).toMatchObject({
      tool_name: 'Bash',
      tool_response: { error: 'Exit code 2' },
      error: 'Exit code 2',
      result: { success: false, exit_code: 2 },
    });
  });

  it('hooks get env and projectDir through the fire options', async () => {
    h = harness();
    const fire = vi.spyOn(h.engine, 'fire');
    await h.run([{ text: 'hi' }], 'go', { env: { DEPLOY_ENV: 'staging' }, projectDir: '/srv/project', effort: 'low' });
    const options = fire.mock.calls[0]![2] as { env: Record<string, string>; projectDir: string };
    expect(options.env.DEPLOY_ENV).toBe('staging');
    expect(options.env.CLAUDE_EFFORT).toBe('low');
    expect(options.env.PATH).toBe(process.env.PATH);
    expect(options.projectDir).toBe(path.resolve('/srv/project'));
  });
});

describe('tools fire hooks themselves', () => {
  it('ctx.fireHook fires any event through the runtime and hands the Outcome to the tool', async () => {
    const deploy = defineTool({
      name: 'Deploy',
      description: 'deploy',
      input: z.object({ target: z.string() }),
      run: async ({ target }, ctx) => {
        const outcome = await ctx.fireHook('DeployRequested', { target });
        return outcome.blocked ? `not deployed: ${outcome.reason}` : `deployed to ${target}`;
      },
    });
    const seen: RawHookInput[] = [];
    // A custom event the compiler does not know: registered untyped.
    h = harness([
      asHook({
        name: 'freeze',
        events: 'DeployRequested',
        handler: (input) => (seen.push(input), input.target === 'prod' ? deny('release freeze') : undefined),
      }),
    ]);
    const result = await h.run(
      [
        {
          toolCalls: [
            { name: 'Deploy', input: { target: 'prod' } },
            { name: 'Deploy', input: { target: 'staging' } },
          ],
        },
        { text: 'done' },
      ],
      'go',
      { tools: [deploy] },
    );
    expect(result.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'not deployed: release freeze',
      'deployed to staging',
    ]);
    expect(seen[0]).toMatchObject({
      hook_event_name: 'DeployRequested',
      target: 'prod',
      session_id: result.sessionId,
      step: { index: 0, name: 'tools' },
    });
    expect(h.events.filter((e) => e.type === 'hook' && e.event === 'DeployRequested')).toHaveLength(2);
  });
});

describe('an in-place edit of tool_input by a hook (the shadow agent SDK style)', () => {
  it('ends as a recorded, schema-checked rewrite or a loud refusal, never an unrecorded change', async () => {
    h = harness([
      {
        name: 'in-place',
        events: 'PreToolUse',
        handler: (input) => {
          (input.tool_input as { command: string }).command = 'echo edited > edited.txt';
          return undefined;
        },
      },
    ]);
    writeFileSync(path.join(h.workspace, 'keep.txt'), 'x');
    const result = await h.run([{ toolCalls: [{ name: 'Bash', input: { command: 'echo original > original.txt' } }] }, { text: 'done' }]);
    const outcome = h.events.find((e) => e.type === 'hook' && e.event === 'PreToolUse');
    const ranOriginal =
      result.messages.some((m) => m.role === 'tool' && !m.isError) &&
      h.audit.records.some(
        (r) => r.kind === 'tool' && (r.data as { tool_input: { command: string } }).tool_input.command.includes('original'),
      );
    expect(ranOriginal).toBe(false);
    const toolMessage = result.messages.find((m) => m.role === 'tool')!;
    if (toolMessage.isError) {
      // Refused loudly: the tool did not run and the model is told why.
      expect(toolMessage.content).toMatch(/PreToolUse/);
      expect(h.audit.records.some((r) => r.kind === 'tool')).toBe(false);
    } else {
      // Recorded: the Outcome carries the edit as updatedInput, and the audit has what ran.
      expect(outcome?.type === 'hook' && outcome.outcome.updatedInput).toEqual({ command: 'echo edited > edited.txt' });
      expect(h.audit.records.find((r) => r.kind === 'tool')!.data).toMatchObject({ tool_input: { command: 'echo edited > edited.txt' } });
    }
  });

  it('an edit the schema rejects is refused with the validation message', async () => {
    h = harness([{ name: 'bad-rewrite', events: 'PreToolUse', handler: (input) => modify({ ...input.tool_input, timeout: 'soon' }) }]);
    const result = await h.run([{ toolCalls: [{ name: 'Bash', input: { command: 'echo hi' } }] }, { text: 'done' }]);
    expect(result.messages.find((m) => m.role === 'tool')!.content).toMatch(
      /hook "bad-rewrite" rewrote the input of Bash into invalid input \(timeout: /,
    );
  });
});
