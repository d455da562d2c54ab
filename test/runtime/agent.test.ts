import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AnyHook, block, context, deny, type Hook } from '../../src/core/index.js';
import type { HookwiseConfig } from '../../src/config/define.js';
import { scriptedProvider } from '../../src/providers/scripted.js';
import { createAgent, defineTool, HOOK_CONTEXT_HEADER, toolDefinition, type RuntimeEvent } from '../../src/runtime/index.js';
import { harness, MemoryAudit, tempDir, type Harness } from './helpers.js';
import { rmSync } from 'node:fs';

let h: Harness | undefined;
const dirs: string[] = [];
afterEach(() => {
  h?.cleanup();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const scratch = () => {
  const d = tempDir();
  dirs.push(d);
  return d;
};

describe('createAgent', () => {
  it('takes hooks as an array or as a config, and exposes its engine', async () => {
    const dir = scratch();
    const gate: Hook<'UserPromptSubmit'> = { name: 'gate', events: 'UserPromptSubmit', handler: () => block('closed') };
    const forms: Array<AnyHook[] | HookwiseConfig> = [[gate], { hooks: [[gate]] }];
    for (const hooks of forms) {
      const agent = createAgent({ provider: scriptedProvider([]), hooks, cwd: dir, transcriptDir: dir });
      expect(agent.engine.hooks().map((s) => s.name)).toEqual(['gate']);
      expect((await agent.run('hi')).stopReason).toBe('prompt_rejected');
    }
    expect(() => createAgent({ provider: scriptedProvider([]), hooks: { nope: 1 } as never })).toThrow(/hooks.*must be a HookEngine/);
  });

  it('gives tools to the model as JSON Schema from their zod input', () => {
    const tool = defineTool({
      name: 'Greet',
      description: 'say hi',
      input: z.object({ who: z.string(), times: z.number().int().optional() }),
      run: ({ who }) => `hi ${who}`,
    });
    expect(toolDefinition(tool)).toEqual({
      name: 'Greet',
      description: 'say hi',
      inputSchema: {
        type: 'object',
        properties: { who: { type: 'string' }, times: { type: 'integer', minimum: expect.any(Number), maximum: expect.any(Number) } },
        required: ['who'],
      },
    });
    expect(() => defineTool({ name: 'bad name', description: '', input: z.object({}), run: () => '' })).toThrow(/name "bad name"/);
  });

  it('on("event") sees the live timeline in order and can unsubscribe', async () => {
    const dir = scratch();
    const agent = createAgent({
      provider: scriptedProvider([{ text: 'listing', toolCalls: [{ name: 'Echo', input: { text: 'x' } }] }, { text: 'done' }]),
      tools: [defineTool({ name: 'Echo', description: 'echo', input: z.object({ text: z.string() }), run: ({ text }) => text })],
      cwd: dir,
      transcriptDir: dir,
    });
    const seen: RuntimeEvent[] = [];
    const off = agent.on('event', (e) => seen.push(e));
    const result = await agent.run('go');
    const kinds = seen.filter((e) => e.type !== 'hook').map((e) => e.type);
    expect(kinds).toEqual([
      'session_start',
      'step_start',
      'model_start',
      'model_end',
      'text',
      'tool_start',
      'tool_end',
      'step_end',
      'checkpoint',
      'step_start',
      'model_start',
      'model_end',
      'text',
      'step_end',
      'checkpoint',
      'session_end',
    ]);
    expect(seen.filter((e) => e.type === 'hook').map((e) => (e as { event: string }).event)).toContain('PostToolBatch');
    expect(seen.at(-1)).toEqual({ type: 'session_end', result });
    off();
    await agent.run('again');
    expect(seen.at(-1)).toEqual({ type: 'session_end', result });
  });

  it('the audit gets the tool record before the tool runs', async () => {
    const dir = scratch();
    const audit = new MemoryAudit();
    let recordedBeforeRun = false;
    const probe = defineTool({
      name: 'Probe',
      description: 'checks the audit',
      input: z.object({}),
      run: (_input, ctx) => {
        recordedBeforeRun = audit.records.some((r) => r.kind === 'tool' && r.data.tool_use_id === ctx.toolUseId);
        return 'ok';
      },
    });
    await createAgent({
      provider: scriptedProvider([{ toolCalls: [{ name: 'Probe', input: {} }] }]),
      tools: [probe],
      audit,
      cwd: dir,
      transcriptDir: dir,
    }).run('p');
    expect(recordedBeforeRun).toBe(true);
    const denied = audit.records.find((r) => r.kind === 'outcome' && r.event === 'PreToolUse')!;
    expect(denied).toMatchObject({
      sessionId: expect.any(String),
      tool: 'Probe',
      data: { event: 'PreToolUse', input: { tool_name: 'Probe', tool_use_id: 'call_0_0' } },
    });
  });

  it('additionalContext from an event that has no place for it reaches the model before its next call', async () => {
    h = harness([
      {
        name: 'step-ctx',
        events: 'StepStart',
        handler: (input) => ((input.step as { index: number }).index === 0 ? context('the repo uses tabs') : undefined),
      },
    ]);
    const provider = scriptedProvider([{ text: 'ok', expect: { userMessageContains: 'the repo uses tabs' } }]);
    const result = await h.run([], 'p', { provider });
    expect(result.stopReason).toBe('end_turn');
    expect(provider.requests[0]!.at(-1)).toEqual({ role: 'user', content: `${HOOK_CONTEXT_HEADER}\nthe repo uses tabs` });
  });

  it('an unknown tool or input the schema rejects gets an error result and fires no tool hook', async () => {
    h = harness([{ name: 'never', events: 'PreToolUse', handler: () => deny('x') }]);
    const result = await h.run([
      {
        toolCalls: [
          { name: 'Nope', input: {} },
          { name: 'Write', input: { file_path: 3 } },
        ],
      },
      { text: 'ok', expect: { toolResultContains: 'there is no tool named "Nope"' } },
    ]);
    expect(result.stopReason).toBe('end_turn');
    const results = result.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results[1]).toMatch(/^Error: invalid input for Write: file_path: .*expected string/);
    expect(h.inputsOf('PreToolUse')).toEqual([]);
    expect(h.inputsOf('PostToolBatch')[0]!.tool_calls).toHaveLength(2);
  });
});
