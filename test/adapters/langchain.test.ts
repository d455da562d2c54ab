import { createAgent, tool, ToolMessage } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hookwiseMiddleware, HookwiseStopError, MemoryCoverage } from '../../src/adapters/langchain/index.js';
import { HookEngine, ask, block, deny, modify, replaceOutput, stop } from '../../src/index.js';
import type { HookInput } from '../../src/core/input.js';
import { MemoryAudit } from '../runtime/helpers.js';
import { ScriptedChatModel, type LcTurn } from './langchain-helpers.js';

function makeTools(ran: string[]) {
  return [
    tool(
      async ({ city }: { city: string }) => {
        ran.push(`weather:${city}`);
        return `sunny in ${city}`;
      },
      { name: 'weather', description: 'Weather in a city', schema: z.object({ city: z.string() }) },
    ),
    tool(
      async ({ text }: { text: string }) => {
        ran.push(`echo:${text}`);
        return text;
      },
      { name: 'echo', description: 'Echo text', schema: z.object({ text: z.string() }) },
    ),
  ];
}

const twoCalls = (): LcTurn[] => [
  {
    calls: [
      { id: 'c1', name: 'weather', args: { city: 'Paris' } },
      { id: 'c2', name: 'echo', args: { text: 'hi' } },
    ],
  },
  { text: 'done' },
];

function recorder(engine: HookEngine): Array<{ event: string; input: HookInput }> {
  const fired: Array<{ event: string; input: HookInput }> = [];
  engine.on('outcome', (o, meta) => fired.push({ event: o.event, input: meta.input }));
  return fired;
}

function toolMessages(messages: unknown[]): ToolMessage[] {
  return messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
}

async function invoke(engine: HookEngine | null, ran: string[], turns = twoCalls(), options = {}) {
  const model = new ScriptedChatModel(turns);
  const agent = createAgent({ model, tools: makeTools(ran), middleware: engine ? [hookwiseMiddleware(engine, options)] : [] });
  const result = await agent.invoke({ messages: [{ role: 'user', content: 'go' }] });
  return { model, result, tools: toolMessages(result.messages) };
}

describe('hookwiseMiddleware', () => {
  it('with a no-opinion policy behaves exactly as the agent without it', async () => {
    const engine = new HookEngine();
    for (let i = 0; i < 3; i++)
      engine.register({
        name: `noop${i}`,
        events: ['PreToolUse', 'PostToolUse', 'PreModelCall', 'PostModelCall', 'Stop'],
        handler: () => undefined,
      });
    const ranA: string[] = [];
    const ranB: string[] = [];
    const bare = await invoke(null, ranA);
    const hooked = await invoke(engine, ranB);
    expect(ranB).toEqual(ranA);
    expect(hooked.result.messages.map((m) => [m.getType(), m.content])).toEqual(bare.result.messages.map((m) => [m.getType(), m.content]));
    expect(hooked.tools.map((m) => [m.name, m.status, m.tool_call_id])).toEqual(bare.tools.map((m) => [m.name, m.status, m.tool_call_id]));
    expect(hooked.model.seen.map((ms) => ms.map((m) => m.content))).toEqual(bare.model.seen.map((ms) => ms.map((m) => m.content)));
  });

  it('fires every event once, PostToolUse with tool_response', async () => {
    const engine = new HookEngine();
    const fired = recorder(engine);
    engine.register({
      name: 'n',
      events: ['PreToolUse', 'SessionStart', 'UserPromptSubmit', 'PreModelCall', 'PostModelCall', 'Stop', 'SessionEnd'],
      handler: () => undefined,
    });
    await invoke(engine, []);
    expect(fired.map((f) => f.event)).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'PreModelCall',
      'PostModelCall',
      'PreToolUse',
      'PreToolUse',
      'PostToolUse',
      'PostToolUse',
      'PreModelCall',
      'PostModelCall',
      'Stop',
      'SessionEnd',
    ]);
    expect(fired.find((f) => f.event === 'PostToolUse' && f.input.tool_use_id === 'c2')!.input.tool_response).toBe('hi');
    expect(fired.find((f) => f.event === 'UserPromptSubmit')!.input.prompt).toBe('go');
  });

  it('deny: a ToolMessage with the reason and status error, the other call runs', async () => {
    const engine = new HookEngine().register({
      name: 'no-weather',
      events: ['PreToolUse'],
      matcher: 'weather',
      handler: () => deny('weather is off limits'),
    });
    const ran: string[] = [];
    const { tools, result } = await invoke(engine, ran);
    expect(ran).toEqual(['echo:hi']);
    expect(tools.map((m) => [m.name, m.status, m.content])).toEqual([
      ['weather', 'error', 'weather is off limits'],
      ['echo', 'success', 'hi'],
    ]);
    expect(result.messages.at(-1)!.content).toBe('done');
  });

  it('block, modify (validated) and replaced output keep the message name and status', async () => {
    const engine = new HookEngine()
      .register({ name: 'm', events: ['PreToolUse'], matcher: 'weather', handler: () => modify({ city: 'Rome' }) })
      .register({ name: 'r', events: ['PostToolUse'], matcher: 'weather', handler: () => replaceOutput('[redacted]') })
      .register({ name: 'bad', events: ['PreToolUse'], matcher: 'echo', handler: () => modify({ text: 1 }) });
    const ran: string[] = [];
    const { tools } = await invoke(engine, ran);
    expect(ran).toEqual(['weather:Rome']);
    expect(tools[0]).toMatchObject({ name: 'weather', status: 'success', content: '[redacted]', tool_call_id: 'c1' });
    expect(tools[1]!.status).toBe('error');
    expect(String(tools[1]!.content)).toMatch(/invalid input/);
    const blocking = new HookEngine().register({ name: 'b', events: ['PreToolUse'], matcher: 'echo', handler: () => block('no echo') });
    expect((await invoke(blocking, [])).tools[1]).toMatchObject({ name: 'echo', status: 'error', content: 'no echo' });
  });

  it('stop: invoke rejects with the reason, no further model call, SessionEnd fires', async () => {
    for (const event of ['PreToolUse', 'PostToolUse'] as const) {
      const engine = new HookEngine().register({
        name: 'halt',
        events: [event],
        matcher: 'weather',
        handler: () => stop('budget exhausted'),
      });
      const fired = recorder(engine);
      const model = new ScriptedChatModel(twoCalls());
      const agent = createAgent({ model, tools: makeTools([]), middleware: [hookwiseMiddleware(engine)] });
      const run = agent.invoke({ messages: [{ role: 'user', content: 'go' }] });
      await expect(run).rejects.toThrow('budget exhausted');
      await expect(run).rejects.toBeInstanceOf(HookwiseStopError);
      expect(model.seen).toHaveLength(1);
      expect(fired.filter((f) => f.event === 'SessionEnd')).toHaveLength(1);
    }
  });

  it('ask: the approver decides; with nobody to ask the tool never runs', async () => {
    const engine = new HookEngine().register({
      name: 'ask',
      events: ['PreToolUse'],
      matcher: 'weather',
      handler: () => ask('costs money'),
    });
    const ran: string[] = [];
    const { tools } = await invoke(engine, ran);
    expect(ran).toEqual(['echo:hi']);
    expect(tools[0]).toMatchObject({ status: 'error' });
    expect(String(tools[0]!.content)).toMatch(/no one can approve/);
    const ran2: string[] = [];
    await invoke(engine, ran2, twoCalls(), { approve: () => true });
    expect(ran2.sort()).toEqual(['echo:hi', 'weather:Paris']);
  });

  it('a Stop block keeps the agent going with the reason', async () => {
    let stops = 0;
    const engine = new HookEngine().register({
      name: 'again',
      events: ['Stop'],
      handler: () => (stops++ === 0 ? block('say bye') : undefined),
    });
    const { model, result } = await invoke(engine, [], [{ text: 'hello' }, { text: 'bye' }]);
    expect(result.messages.at(-1)!.content).toBe('bye');
    expect(model.seen[1]!.at(-1)!.content).toBe('say bye');
  });

  it('adds graph nodes only for events with hooks, unless told to add them all', async () => {
    const engine = new HookEngine().register({ name: 'n', events: ['PreToolUse'], handler: () => undefined });
    const fired = recorder(engine);
    await invoke(engine, []);
    expect([...new Set(fired.map((f) => f.event))]).toEqual(['PreToolUse', 'PostToolUse']);
    fired.length = 0;
    await invoke(engine, [], twoCalls(), { events: 'all' });
    expect(fired.map((f) => f.event)).toContain('SessionStart');
    expect(fired.map((f) => f.event)).toContain('SessionEnd');
  });

  it('records coverage in memory and in the audit store', async () => {
    const coverage = new MemoryCoverage();
    const audit = new MemoryAudit();
    await invoke(new HookEngine(), [], twoCalls(), { coverage, audit });
    expect(coverage.executions.map((e) => e.toolName)).toEqual(['weather', 'echo']);
    expect(coverage.uncovered()).toEqual([]);
    expect(audit.records.filter((r) => r.kind === 'tool').map((r) => r.data.host)).toEqual(['langchain', 'langchain']);
  });
});
