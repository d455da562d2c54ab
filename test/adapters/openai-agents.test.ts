import { Agent, run, setTracingDisabled, tool, type RunResult } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hookAgent, hookRun, HookwiseStopError, MemoryCoverage, UngovernedToolError } from '../../src/adapters/openai-agents/index.js';
import { HookEngine, ask, block, deny, modify, replaceOutput, stop } from '../../src/index.js';
import type { HookInput } from '../../src/core/input.js';
import { MemoryAudit } from '../runtime/helpers.js';

setTracingDisabled(true);

function makeTools(ran: string[]) {
  return [
    tool({
      name: 'weather',
      description: 'Weather in a city',
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        ran.push(`weather:${city}`);
        return { city, tempC: 21 };
      },
    }),
    tool({
      name: 'echo',
      description: 'Echo text',
      parameters: z.object({ text: z.string() }),
      execute: async ({ text }) => {
        ran.push(`echo:${text}`);
        return text;
      },
    }),
  ];
}

const twoCalls = () => [
  [functionCall('weather', { city: 'Paris' }, { callId: 'c1' }), functionCall('echo', { text: 'hi' }, { callId: 'c2' })],
  [assistantMessage('done')],
];

function agentWith(ran: string[], turns = twoCalls()) {
  const model = new ScriptedModel(turns);
  return { model, agent: new Agent({ name: 'main', instructions: 'be helpful', model, tools: makeTools(ran) }) };
}

function recorder(engine: HookEngine): Array<{ event: string; input: HookInput }> {
  const fired: Array<{ event: string; input: HookInput }> = [];
  engine.on('outcome', (o, meta) => fired.push({ event: o.event, input: meta.input }));
  return fired;
}

function outputs(result: RunResult<any, any>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const item of result.newItems) {
    if (item.type === 'tool_call_output_item') out[(item.rawItem as { callId: string }).callId] = item.output;
  }
  return out;
}

describe('hookAgent', () => {
  it('with a no-opinion policy behaves exactly as the unwrapped agent', async () => {
    const engine = new HookEngine();
    for (let i = 0; i < 3; i++)
      engine.register({
        name: `noop${i}`,
        events: ['PreToolUse', 'PostToolUse', 'PreModelCall', 'PostModelCall'],
        handler: () => undefined,
      });
    const ranA: string[] = [];
    const ranB: string[] = [];
    const bare = agentWith(ranA);
    const hooked = agentWith(ranB);
    const a = await run(bare.agent, 'go');
    const b = await run(hookAgent(engine, hooked.agent), 'go');
    expect(b.finalOutput).toBe(a.finalOutput);
    expect(ranB).toEqual(ranA);
    expect(outputs(b)).toEqual(outputs(a));
    expect(hooked.model.calls.map((c) => c.request.input)).toEqual(bare.model.calls.map((c) => c.request.input));
    expect(b.history).toEqual(a.history);
  });

  it('fires PreToolUse/PostToolUse once per call with tool_response, and model events awaited', async () => {
    const engine = new HookEngine();
    const fired = recorder(engine);
    engine.register({ name: 'n', events: ['PreToolUse', 'PostToolUse'], handler: () => undefined });
    await run(hookAgent(engine, agentWith([]).agent), 'go');
    const tool = fired.filter((f) => f.event.endsWith('ToolUse'));
    expect(tool.map((f) => `${f.event}:${f.input.tool_use_id}`).sort()).toEqual([
      'PostToolUse:c1',
      'PostToolUse:c2',
      'PreToolUse:c1',
      'PreToolUse:c2',
    ]);
    expect(tool.find((f) => f.event === 'PostToolUse' && f.input.tool_use_id === 'c2')!.input.tool_response).toBe('hi');
    expect(fired.filter((f) => f.event === 'PreModelCall')).toHaveLength(2);
  });

  it('deny: the reason is the tool result, the other call runs, the run goes on', async () => {
    const engine = new HookEngine().register({
      name: 'no-weather',
      events: ['PreToolUse'],
      matcher: 'weather',
      handler: () => deny('weather is off limits'),
    });
    const ran: string[] = [];
    const { agent, model } = agentWith(ran);
    const result = await run(hookAgent(engine, agent), 'go');
    expect(ran).toEqual(['echo:hi']);
    expect(outputs(result)).toEqual({ c1: 'weather is off limits', c2: 'hi' });
    expect(result.finalOutput).toBe('done');
    expect(JSON.stringify(model.calls[1]!.request.input)).toContain('weather is off limits');
  });

  it('block, modify and replaced output', async () => {
    const engine = new HookEngine()
      .register({ name: 'b', events: ['PreToolUse'], matcher: 'echo', handler: () => block('no echo') })
      .register({ name: 'm', events: ['PreToolUse'], matcher: 'weather', handler: () => modify({ city: 'Rome' }) })
      .register({ name: 'r', events: ['PostToolUse'], matcher: 'weather', handler: () => replaceOutput('[redacted]') });
    const ran: string[] = [];
    const result = await run(hookAgent(engine, agentWith(ran).agent), 'go');
    expect(ran).toEqual(['weather:Rome']);
    expect(outputs(result)).toEqual({ c1: '[redacted]', c2: 'no echo' });
  });

  it('async hooks decide as synchronous ones do: block, modify, replaced output, ask, stop', async () => {
    const later = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 1));
    const engine = new HookEngine()
      .register({ name: 'b', events: ['PreToolUse'], matcher: 'echo', handler: () => later(block('no echo')) })
      .register({ name: 'm', events: ['PreToolUse'], matcher: 'weather', handler: () => later(modify({ city: 'Rome' })) })
      .register({ name: 'r', events: ['PostToolUse'], matcher: 'weather', handler: () => later(replaceOutput('[redacted]')) });
    const ran: string[] = [];
    const result = await run(hookAgent(engine, agentWith(ran).agent), 'go');
    expect(ran).toEqual(['weather:Rome']);
    expect(outputs(result)).toEqual({ c1: '[redacted]', c2: 'no echo' });

    const asking = new HookEngine().register({ name: 'a', events: ['PreToolUse'], matcher: 'weather', handler: () => later(ask('money')) });
    const first = await run(hookAgent(asking, agentWith([]).agent), 'go');
    expect(first.interruptions).toHaveLength(1);

    const halting = new HookEngine().register({
      name: 'h',
      events: ['PostToolUse'],
      matcher: 'weather',
      handler: () => later(stop('enough')),
    });
    await expect(run(hookAgent(halting, agentWith([]).agent), 'go')).rejects.toThrow(HookwiseStopError);
  });

  it('model hooks registered after hookAgent still fire (and may stop the run)', async () => {
    const engine = new HookEngine();
    const { agent, model } = agentWith([]);
    const governed = hookAgent(engine, agent);
    engine.register({ name: 'no-model', events: ['PreModelCall'], handler: () => stop('model budget') });
    await expect(run(governed, 'go')).rejects.toThrow('model budget');
    expect(model.calls).toHaveLength(0);
  });

  it('stop: the run throws with the reason and makes no further model call', async () => {
    for (const event of ['PreToolUse', 'PostToolUse'] as const) {
      const engine = new HookEngine().register({
        name: 'halt',
        events: [event],
        matcher: 'weather',
        handler: () => stop('budget exhausted'),
      });
      const ran: string[] = [];
      const { agent, model } = agentWith(ran);
      const outcome = run(hookAgent(engine, agent), 'go');
      await expect(outcome).rejects.toThrow('budget exhausted');
      // The SDK wraps what a tool throws in a ToolCallError; the stop is its `error`.
      const thrown = await outcome.catch((e: unknown) => e);
      expect(thrown).toBeInstanceOf(HookwiseStopError);
      await expect(outcome).rejects.toThrow(HookwiseStopError);
      expect(model.calls).toHaveLength(1);
      if (event === 'PreToolUse') expect(ran).toEqual([]);
    }
  });

  it('ask: the SDK interruption; approving it runs the tool once, with one PreToolUse', async () => {
    const engine = new HookEngine().register({
      name: 'ask',
      events: ['PreToolUse'],
      matcher: 'weather',
      handler: () => ask('costs money'),
    });
    const fired = recorder(engine);
    const ran: string[] = [];
    const agent = hookAgent(engine, agentWith(ran).agent);
    const first = await run(agent, 'go');
    expect(first.interruptions).toHaveLength(1);
    expect(ran).not.toContain('weather:Paris');
    first.state.approve(first.interruptions[0]!);
    const second = await run(agent, first.state);
    expect(ran).toContain('weather:Paris');
    expect(second.finalOutput).toBe('done');
    expect(fired.filter((f) => f.event === 'PreToolUse' && f.input.tool_use_id === 'c1')).toHaveLength(1);
  });

  it("a tool's own needsApproval still applies: the SDK interrupts, and the approved call runs once, recorded as approved", async () => {
    const engine = new HookEngine().register({ name: 'noop', events: ['PreToolUse', 'PostToolUse'], handler: () => undefined });
    const fired = recorder(engine);
    const coverage = new MemoryCoverage();
    const ran: string[] = [];
    const echo = makeTools(ran)[1]!;
    const asking = tool({
      name: 'weather',
      description: 'Weather in a city',
      parameters: z.object({ city: z.string() }),
      needsApproval: async (_context, { city }) => city === 'Paris',
      execute: async ({ city }) => {
        ran.push(`weather:${city}`);
        return { city, tempC: 21 };
      },
    });
    const agent = hookAgent(engine, new Agent({ name: 'main', model: new ScriptedModel(twoCalls()), tools: [asking, echo] }), { coverage });
    const first = await run(agent, 'go');
    expect(first.interruptions).toHaveLength(1);
    expect(ran).toEqual(['echo:hi']);
    first.state.approve(first.interruptions[0]!);
    const second = await run(agent, first.state);
    expect(second.finalOutput).toBe('done');
    expect(ran).toEqual(['echo:hi', 'weather:Paris']);
    expect(fired.filter((f) => f.event === 'PreToolUse' && f.input.tool_use_id === 'c1')).toHaveLength(1);
    expect(coverage.executions.find((e) => e.toolName === 'weather')).toMatchObject({ approvedBy: 'approver' });
  });

  it('ask with an approver that says no never runs the tool', async () => {
    const engine = new HookEngine().register({
      name: 'ask',
      events: ['PreToolUse'],
      matcher: 'weather',
      handler: () => ask('costs money'),
    });
    const ran: string[] = [];
    const result = await run(hookAgent(engine, agentWith(ran).agent, { approve: () => false }), 'go');
    expect(ran).toEqual(['echo:hi']);
    expect(String(outputs(result).c1)).toMatch(/denied permission/);
  });

  it('records coverage in memory and in the audit store', async () => {
    const engine = new HookEngine();
    const coverage = new MemoryCoverage();
    const audit = new MemoryAudit();
    await run(hookAgent(engine, agentWith([]).agent, { coverage, audit }), 'go');
    expect(coverage.executions.map((e) => e.toolName).sort()).toEqual(['echo', 'weather']);
    expect(coverage.uncovered()).toEqual([]);
    expect(
      audit.records
        .filter((r) => r.kind === 'tool')
        .map((r) => r.tool)
        .sort(),
    ).toEqual(['echo', 'weather']);
  });

  it('governs handoffs and agents used as tools, recursively', async () => {
    const engine = new HookEngine().register({
      name: 'no-echo',
      events: ['PreToolUse'],
      matcher: 'echo',
      handler: () => deny('echo denied'),
    });
    const fired = recorder(engine);
    const ran: string[] = [];
    const helperModel = new ScriptedModel([
      [functionCall('echo', { text: 'nested' }, { callId: 'n1' })],
      [assistantMessage('helper done')],
    ]);
    const helper = new Agent({ name: 'helper', model: helperModel, tools: makeTools(ran) });
    const billingModel = new ScriptedModel([
      [functionCall('echo', { text: 'billing' }, { callId: 'b1' })],
      [assistantMessage('billing done')],
    ]);
    const billing = new Agent({ name: 'billing', model: billingModel, tools: makeTools(ran) });
    const mainModel = new ScriptedModel([
      [functionCall('ask_helper', { input: 'help' }, { callId: 'h1' })],
      [functionCall('transfer_to_billing', {}, { callId: 't1' })],
    ]);
    const main = new Agent({
      name: 'main',
      model: mainModel,
      tools: [helper.asTool({ toolName: 'ask_helper', toolDescription: 'Ask the helper' })],
      handoffs: [billing],
    });
    const result = await run(hookAgent(engine, main), 'go');
    expect(result.finalOutput).toBe('billing done');
    expect(ran).toEqual([]);
    const pre = fired.filter((f) => f.event === 'PreToolUse').map((f) => f.input.tool_name);
    expect(pre).toEqual(['ask_helper', 'echo', 'transfer_to_billing', 'echo']);
    expect(JSON.stringify(helperModel.calls[1]!.request.input)).toContain('echo denied');
  });

  it('refuses hosted tools and frozen tool lists refuse later additions', () => {
    const engine = new HookEngine();
    const hosted = { type: 'hosted_tool', name: 'web_search', providerData: {} } as never;
    const agent = new Agent({ name: 'a', tools: [hosted] });
    expect(() => hookAgent(engine, agent)).toThrow(UngovernedToolError);
    const reported: string[] = [];
    hookAgent(engine, agent, { ungoverned: 'report', onUngoverned: (n) => reported.push(n) });
    expect(reported).toEqual(['web_search']);
    const governed = hookAgent(engine, agentWith([]).agent);
    expect(() => governed.tools.push(makeTools([])[0]!)).toThrow(TypeError);
  });
});

describe('hookRun (openai-agents)', () => {
  it('a stop leaves hookRun as the HookwiseStopError itself, after SessionEnd', async () => {
    const engine = new HookEngine().register({ name: 'halt', events: ['PostToolUse'], handler: () => stop('enough') });
    const fired = recorder(engine);
    const error = await hookRun(engine, hookAgent(engine, agentWith([]).agent), 'go').catch((e: unknown) => e);
    expect((error as Error).name).toBe('HookwiseStopError');
    expect((error as Error).message).toBe('enough');
    expect(fired.filter((f) => f.event === 'SessionEnd')).toHaveLength(1);
  });

  it('fires the lifecycle in order, awaited, and a Stop block keeps the agent going', async () => {
    const engine = new HookEngine();
    const fired = recorder(engine);
    let stops = 0;
    engine.register({ name: 'again', events: ['Stop'], handler: () => (stops++ === 0 ? block('say bye too') : undefined) });
    const model = new ScriptedModel([[assistantMessage('hello')], [assistantMessage('bye')]]);
    const agent = hookAgent(engine, new Agent({ name: 'a', model }), { sessionId: 'oa' });
    const result = await hookRun(engine, agent, 'hi');
    expect(result.finalOutput).toBe('bye');
    expect(fired.map((f) => f.event)).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'PreModelCall',
      'PostModelCall',
      'Stop',
      'PreModelCall',
      'PostModelCall',
      'Stop',
      'SessionEnd',
    ]);
    expect(fired.every((f) => f.input.session_id === 'oa')).toBe(true);
    expect(JSON.stringify(model.calls[1]!.request.input)).toContain('say bye too');
  });
});
