import { generateText, stepCountIs, streamText, tool, type ModelMessage, type StepResult, type ToolSet } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hookModel, hookRun, hookTools, HookwiseStopError, MemoryCoverage, UngovernedToolError } from '../../src/adapters/ai-sdk/index.js';
import { HookEngine, ask, block, deny, modify, replaceOutput, stop } from '../../src/index.js';
import type { HookInput } from '../../src/core/input.js';
import { MemoryAudit } from '../runtime/helpers.js';
import { scriptedModel } from './ai-sdk-helpers.js';

function makeTools(ran: string[]) {
  return {
    weather: tool({
      description: 'Weather in a city',
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        ran.push(`weather:${city}`);
        return { city, tempC: 21 };
      },
    }),
    echo: tool({
      description: 'Echo text',
      inputSchema: z.object({ text: z.string() }),
      execute: async ({ text }) => {
        ran.push(`echo:${text}`);
        return text;
      },
    }),
  };
}

const twoCalls = [
  {
    calls: [
      { id: 'c1', name: 'weather', input: { city: 'Paris' } },
      { id: 'c2', name: 'echo', input: { text: 'hi' } },
    ],
  },
  { text: 'done' },
];

function recorder(engine: HookEngine): Array<{ event: string; input: HookInput }> {
  const fired: Array<{ event: string; input: HookInput }> = [];
  engine.on('outcome', (o, meta) => fired.push({ event: o.event, input: meta.input }));
  return fired;
}

/** The two scripted tool calls (weather, echo), then the model's answer. */
/** generateText of the two scripted calls, or of the model given (to read what it was sent). */
function runAgent(tools: ToolSet, model = scriptedModel(twoCalls)) {
  return generateText({ model, tools, prompt: 'go', stopWhen: stepCountIs(5) });
}

function toolResults<T extends ToolSet>(steps: ReadonlyArray<StepResult<T>>) {
  return steps.flatMap((s) => s.toolResults.map((r) => ({ id: r.toolCallId, output: r.output })));
}

describe('hookTools', () => {
  it('with a no-opinion policy behaves exactly as the unwrapped tools', async () => {
    const engine = new HookEngine();
    for (let i = 0; i < 3; i++) engine.register({ name: `noop${i}`, events: ['PreToolUse', 'PostToolUse'], handler: () => undefined });
    const ranA: string[] = [];
    const ranB: string[] = [];
    const bareModel = scriptedModel(twoCalls);
    const hookedModel = scriptedModel(twoCalls);
    const bare = await runAgent(makeTools(ranA), bareModel);
    const hooked = await runAgent(hookTools(engine, makeTools(ranB)), hookedModel);
    expect(hooked.text).toBe(bare.text);
    expect(ranB).toEqual(ranA);
    expect(toolResults(hooked.steps)).toEqual(toolResults(bare.steps));
    expect(toolResults(hooked.steps)[0]!.output).toEqual({ city: 'Paris', tempC: 21 });
    expect(hookedModel.doGenerateCalls.map((c) => c.prompt)).toEqual(bareModel.doGenerateCalls.map((c) => c.prompt));
    expect(hooked.response.messages).toEqual(bare.response.messages);
  });

  it('fires PreToolUse and PostToolUse exactly once per call, PostToolUse with tool_response', async () => {
    const engine = new HookEngine();
    const fired = recorder(engine);
    engine.register({ name: 'n', events: ['PreToolUse', 'PostToolUse'], handler: () => undefined });
    await runAgent(hookTools(engine, makeTools([]), { sessionId: 's1' }));
    const tool = fired.filter((f) => f.event.endsWith('ToolUse'));
    expect(tool.map((f) => `${f.event}:${f.input.tool_use_id}`).sort()).toEqual([
      'PostToolUse:c1',
      'PostToolUse:c2',
      'PreToolUse:c1',
      'PreToolUse:c2',
    ]);
    expect(tool.find((f) => f.event === 'PostToolUse' && f.input.tool_use_id === 'c1')!.input.tool_response).toEqual({
      city: 'Paris',
      tempC: 21,
    });
    expect(tool.every((f) => f.input.session_id === 's1')).toBe(true);
  });

  it('deny: the model gets the reason as the tool result, the other call of the turn still runs', async () => {
    const engine = new HookEngine().register({
      name: 'no-weather',
      events: ['PreToolUse'],
      matcher: 'weather',
      handler: () => deny('weather is off limits'),
    });
    const ran: string[] = [];
    const model = scriptedModel(twoCalls);
    const result = await runAgent(hookTools(engine, makeTools(ran)), model);
    expect(ran).toEqual(['echo:hi']);
    expect(toolResults(result.steps)).toEqual([
      { id: 'c1', output: 'weather is off limits' },
      { id: 'c2', output: 'hi' },
    ]);
    expect(result.text).toBe('done');
    expect(JSON.stringify(model.doGenerateCalls[1]!.prompt)).toContain('weather is off limits');
  });

  // needsApproval hands its plan to execute through the input object the SDK passes to both, else by call id:
  // either way each call fires PreToolUse once and runs (or not) as that one fire decided.
  it('streamText: PreToolUse once per call, and execute follows what it decided', async () => {
    const engine = new HookEngine().register({
      name: 'no-weather',
      events: ['PreToolUse'],
      matcher: 'weather',
      handler: () => deny('weather is off limits'),
    });
    const fired = recorder(engine);
    const ran: string[] = [];
    const result = streamText({
      model: scriptedModel(twoCalls),
      tools: hookTools(engine, makeTools(ran)),
      prompt: 'go',
      stopWhen: stepCountIs(5),
    });
    expect(await result.text).toBe('done');
    expect(ran).toEqual(['echo:hi']);
    expect(fired.filter((f) => f.event === 'PreToolUse').map((f) => f.input.tool_use_id)).toEqual(['c1', 'c2']);
    expect((await result.steps)[0]!.toolResults.map((r) => r.output)).toEqual(['weather is off limits', 'hi']);
  });

  it('an input that is not an object: PreToolUse once per call, and execute follows what it decided', async () => {
    const engine = new HookEngine().register({
      name: 'no-secrets',
      events: 'PreToolUse',
      // The tool's input is a bare string here, not the object the type promises: what this test is about.
      handler: (input) => ((input.tool_input as unknown) === 'secret' ? deny('not that one') : undefined),
    });
    const fired = recorder(engine);
    const ran: string[] = [];
    const say = tool({
      inputSchema: z.string(),
      execute: async (text: string) => {
        ran.push(text);
        return text;
      },
    });
    const calls = [
      { id: 'c1', name: 'say', input: 'secret' as never },
      { id: 'c2', name: 'say', input: 'hello' as never },
    ];
    const result = await generateText({
      model: scriptedModel([{ calls }, { text: 'done' }]),
      tools: hookTools(engine, { say }),
      prompt: 'go',
      stopWhen: stepCountIs(5),
    });
    expect(ran).toEqual(['hello']);
    expect(fired.filter((f) => f.event === 'PreToolUse').map((f) => f.input.tool_use_id)).toEqual(['c1', 'c2']);
    expect(toolResults(result.steps)).toEqual([
      { id: 'c1', output: 'not that one' },
      { id: 'c2', output: 'hello' },
    ]);
  });

  it('execute called without needsApproval fires PreToolUse itself, even for an input needsApproval saw for another call', async () => {
    const engine = new HookEngine().register({
      name: 'no-c2',
      events: 'PreToolUse',
      handler: (input) => (input.tool_use_id === 'c2' ? deny('not c2') : undefined),
    });
    const fired = recorder(engine);
    const ran: string[] = [];
    const echo = hookTools(engine, makeTools(ran)).echo;
    const input = { text: 'hi' };
    const options = { toolCallId: 'c1', messages: [] };
    const needsApproval = echo.needsApproval;
    if (typeof needsApproval !== 'function') throw new Error('hookTools gave echo no needsApproval function');
    expect(await needsApproval(input, options)).toBe(false);
    expect(await echo.execute!(input, { ...options, toolCallId: 'c2' })).toBe('not c2');
    expect(await echo.execute!(input, options)).toBe('hi');
    expect(ran).toEqual(['echo:hi']);
    expect(fired.filter((f) => f.event === 'PreToolUse').map((f) => f.input.tool_use_id)).toEqual(['c1', 'c2']);
  });

  it('a block without a decision is read from `blocked` and denies too', async () => {
    const engine = new HookEngine().register({ name: 'b', events: ['PreToolUse'], matcher: 'echo', handler: () => block('no echo') });
    const ran: string[] = [];
    const result = await runAgent(hookTools(engine, makeTools(ran)));
    expect(ran).toEqual(['weather:Paris']);
    expect(toolResults(result.steps)[1]).toEqual({ id: 'c2', output: 'no echo' });
  });

  it('modify: the rewritten args are validated, then used; invalid ones do not run the tool', async () => {
    const engine = new HookEngine()
      .register({ name: 'to-rome', events: ['PreToolUse'], matcher: 'weather', handler: () => modify({ city: 'Rome' }) })
      .register({ name: 'bad', events: ['PreToolUse'], matcher: 'echo', handler: () => modify({ text: 42 }) });
    const ran: string[] = [];
    const fired = recorder(engine);
    const result = await runAgent(hookTools(engine, makeTools(ran)));
    expect(ran).toEqual(['weather:Rome']);
    const results = toolResults(result.steps);
    expect(results[0]!.output).toEqual({ city: 'Rome', tempC: 21 });
    expect(String(results[1]!.output)).toMatch(/rewrote the input of echo into invalid input/);
    expect(fired.find((f) => f.event === 'PostToolUse')!.input.tool_input).toEqual({ city: 'Rome' });
  });

  it('replaced output: the model sees the replacement', async () => {
    const engine = new HookEngine().register({
      name: 'redact',
      events: ['PostToolUse'],
      matcher: 'weather',
      handler: () => replaceOutput('[redacted]'),
    });
    const model = scriptedModel(twoCalls);
    const result = await runAgent(hookTools(engine, makeTools([])), model);
    expect(toolResults(result.steps)[0]!.output).toBe('[redacted]');
    expect(JSON.stringify(model.doGenerateCalls[1]!.prompt)).toContain('[redacted]');
    expect(JSON.stringify(model.doGenerateCalls[1]!.prompt)).not.toContain('tempC');
  });

  it('async hooks decide as synchronous ones do: deny, modify, replaced output, stop after the tool', async () => {
    const later = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 1));
    const engine = new HookEngine()
      .register({ name: 'm', events: ['PreToolUse'], matcher: 'weather', handler: () => later(modify({ city: 'Rome' })) })
      .register({ name: 'd', events: ['PreToolUse'], matcher: 'echo', handler: () => later(deny('no echo')) })
      .register({ name: 'r', events: ['PostToolUse'], matcher: 'weather', handler: () => later(replaceOutput('[redacted]')) });
    const ran: string[] = [];
    const result = await runAgent(hookTools(engine, makeTools(ran)));
    expect(ran).toEqual(['weather:Rome']);
    expect(toolResults(result.steps)).toEqual([
      { id: 'c1', output: '[redacted]' },
      { id: 'c2', output: 'no echo' },
    ]);

    const halting = new HookEngine().register({
      name: 'h',
      events: ['PostToolUse'],
      matcher: 'echo',
      handler: () => later(stop('enough')),
    });
    const model = scriptedModel([...twoCalls.slice(0, 1), { text: 'never' }]);
    await expect(runAgent(hookTools(halting, makeTools([])), model)).rejects.toThrow('enough');
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('a streaming tool (an async generator) streams its parts; PostToolUse sees the last, a replacement comes last', async () => {
    const counter = () =>
      tool({
        description: 'Count to n',
        inputSchema: z.object({ n: z.number() }),
        async *execute({ n }) {
          for (let i = 1; i <= n; i++) yield i;
        },
      });
    const turns = [{ calls: [{ id: 'c1', name: 'count', input: { n: 3 } }] }, { text: 'done' }];
    const later = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 1));
    for (const [label, pre] of [
      ['synchronous hooks', () => undefined],
      ['an async PreToolUse hook', () => later(undefined)],
    ] as const) {
      const engine = new HookEngine().register({ name: 'pre', events: ['PreToolUse'], handler: pre });
      const fired = recorder(engine);
      const bare = await generateText({ model: scriptedModel(turns), tools: { count: counter() }, prompt: 'go', stopWhen: stepCountIs(3) });
      const hooked = await generateText({
        model: scriptedModel(turns),
        tools: hookTools(engine, { count: counter() }, { coverage: new MemoryCoverage() }),
        prompt: 'go',
        stopWhen: stepCountIs(3),
      });
      expect(toolResults(hooked.steps), label).toEqual(toolResults(bare.steps));
      expect(toolResults(hooked.steps), label).toEqual([{ id: 'c1', output: 3 }]);
      expect(fired.find((f) => f.event === 'PostToolUse')?.input.tool_response, label).toBe(3);
    }
    const redacting = new HookEngine().register({ name: 'r', events: ['PostToolUse'], handler: () => replaceOutput('[counted]') });
    const replaced = await generateText({
      model: scriptedModel(turns),
      tools: hookTools(redacting, { count: counter() }),
      prompt: 'go',
      stopWhen: stepCountIs(3),
    });
    expect(toolResults(replaced.steps)).toEqual([{ id: 'c1', output: '[counted]' }]);
  });

  it('stop in PreToolUse: the run rejects with the reason, no tool runs, no further model call', async () => {
    const engine = new HookEngine().register({
      name: 'halt',
      events: ['PreToolUse'],
      matcher: 'weather',
      handler: () => stop('budget exhausted'),
    });
    const ran: string[] = [];
    const model = scriptedModel(twoCalls);
    const run = runAgent(hookTools(engine, makeTools(ran)), model);
    await expect(run).rejects.toThrow(HookwiseStopError);
    await expect(run).rejects.toThrow('budget exhausted');
    expect(ran).toEqual([]);
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('stop in PostToolUse: the run rejects after the tool, with no further model call', async () => {
    const engine = new HookEngine().register({
      name: 'halt',
      events: ['PostToolUse'],
      matcher: 'echo',
      handler: () => stop('seen enough'),
    });
    const ran: string[] = [];
    const model = scriptedModel([
      ...twoCalls.slice(0, 1),
      { calls: [{ id: 'c3', name: 'echo', input: { text: 'again' } }] },
      { text: 'never' },
    ]);
    await expect(runAgent(hookTools(engine, makeTools(ran)), model)).rejects.toThrow('seen enough');
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(ran).not.toContain('echo:again');
  });

  it('stop in streamText: the stream errors with the reason, no further model call', async () => {
    const engine = new HookEngine().register({
      name: 'halt',
      events: ['PostToolUse'],
      matcher: 'echo',
      handler: () => stop('stream stop'),
    });
    const model = scriptedModel(twoCalls);
    const result = streamText({ model, tools: hookTools(engine, makeTools([])), prompt: 'go', stopWhen: stepCountIs(5) });
    const read = async () => {
      for await (const _ of result.fullStream);
    };
    await expect(read()).rejects.toThrow(HookwiseStopError);
    expect(model.doStreamCalls).toHaveLength(1);
  });

  it('stop in PreToolUse under streamText: the stream errors before any tool runs', async () => {
    const engine = new HookEngine().register({
      name: 'halt',
      events: ['PreToolUse'],
      matcher: 'weather',
      handler: () => stop('no streaming tools'),
    });
    const ran: string[] = [];
    const model = scriptedModel(twoCalls);
    const errors: unknown[] = [];
    const result = streamText({
      model,
      tools: hookTools(engine, makeTools(ran)),
      prompt: 'go',
      stopWhen: stepCountIs(5),
      onError: ({ error }) => void errors.push(error),
    });
    const parts: string[] = [];
    for await (const part of result.fullStream) parts.push(part.type);
    // streamText reports an error thrown while it prepares the tools as an error part, and ends.
    expect(parts).toContain('error');
    // One per call of the step: the stop, then the refusal of the call after it.
    expect(errors).toHaveLength(2);
    expect(errors.every((e) => e instanceof HookwiseStopError)).toBe(true);
    expect((errors[0] as Error).message).toBe('no streaming tools');
    expect(ran).toEqual([]);
    expect(model.doStreamCalls).toHaveLength(1);
  });

  it('ask with no approver: the SDK asks for approval and the tool does not run; an approval then runs it', async () => {
    const engine = new HookEngine().register({
      name: 'ask',
      events: ['PreToolUse'],
      matcher: 'weather',
      handler: () => ask('weather costs money'),
    });
    const ran: string[] = [];
    const fired = recorder(engine);
    const tools = hookTools(engine, makeTools(ran));
    const first = await runAgent(tools);
    expect(ran).toEqual(['echo:hi']);
    const request = first.content.find((c) => c.type === 'tool-approval-request');
    expect(request).toBeDefined();
    const messages: ModelMessage[] = [
      { role: 'user', content: 'go' },
      ...first.response.messages,
      {
        role: 'tool',
        content: [{ type: 'tool-approval-response', approvalId: (request as { approvalId: string }).approvalId, approved: true }],
      },
    ];
    const second = await generateText({ model: scriptedModel([{ text: 'ok' }]), tools, messages, stopWhen: stepCountIs(5) });
    expect(ran).toEqual(['echo:hi', 'weather:Paris']);
    expect(second.text).toBe('ok');
    expect(fired.filter((f) => f.event === 'PreToolUse' && f.input.tool_use_id === 'c1')).toHaveLength(1);
    expect(fired.filter((f) => f.event === 'PostToolUse' && f.input.tool_use_id === 'c1')).toHaveLength(1);
  });

  it("a tool's own needsApproval still applies: the SDK asks, and the approved call runs once, recorded as approved", async () => {
    const engine = new HookEngine().register({ name: 'noop', events: ['PreToolUse', 'PostToolUse'], handler: () => undefined });
    const fired = recorder(engine);
    const coverage = new MemoryCoverage();
    const ran: string[] = [];
    const own = makeTools(ran);
    for (const needsApproval of [true, async ({ city }: { city: string }) => city === 'Paris'] as const) {
      ran.length = 0;
      fired.length = 0;
      const tools = hookTools(engine, { ...own, weather: { ...own.weather, needsApproval } }, { coverage });
      const first = await runAgent(tools);
      expect(ran).toEqual(['echo:hi']);
      const request = first.content.find((c) => c.type === 'tool-approval-request') as { approvalId: string } | undefined;
      expect(request).toBeDefined();
      const messages: ModelMessage[] = [
        { role: 'user', content: 'go' },
        ...first.response.messages,
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request!.approvalId, approved: true }] },
      ];
      await generateText({ model: scriptedModel([{ text: 'ok' }]), tools, messages, stopWhen: stepCountIs(5) });
      expect(ran).toEqual(['echo:hi', 'weather:Paris']);
      expect(fired.filter((f) => f.event === 'PreToolUse' && f.input.tool_use_id === 'c1')).toHaveLength(1);
      expect(coverage.executions.at(-1)).toMatchObject({ toolName: 'weather', approvedBy: 'approver' });
    }
  });

  it('ask with an approver: its answer decides', async () => {
    const engine = new HookEngine().register({ name: 'ask', events: ['PreToolUse'], handler: () => ask('sure?') });
    const ran: string[] = [];
    const asked: string[] = [];
    const approve = ({ toolName }: { toolName: string }) => {
      asked.push(toolName);
      return toolName === 'echo';
    };
    const result = await runAgent(hookTools(engine, makeTools(ran), { approve }));
    expect(asked.sort()).toEqual(['echo', 'weather']);
    expect(ran).toEqual(['echo:hi']);
    expect(String(toolResults(result.steps)[0]!.output)).toMatch(/denied permission to use weather/);
  });

  it('records each execution with the PreToolUse outcome that allowed it, in memory and in the audit store', async () => {
    const engine = new HookEngine().register({ name: 'no-echo', events: ['PreToolUse'], matcher: 'echo', handler: () => deny('no') });
    const coverage = new MemoryCoverage();
    const audit = new MemoryAudit();
    await runAgent(hookTools(engine, makeTools([]), { coverage, audit, sessionId: 'cov' }));
    expect(coverage.executions.map((e) => e.toolName)).toEqual(['weather']);
    expect(coverage.executions[0]!.allowedBy!.event).toBe('PreToolUse');
    expect(coverage.uncovered()).toEqual([]);
    const executions = audit.records.filter((r) => r.kind === 'tool');
    expect(executions).toHaveLength(1);
    expect(executions[0]).toMatchObject({ kind: 'tool', tool: 'weather', sessionId: 'cov', data: { host: 'ai-sdk', tool_use_id: 'c1' } });
    // The outcomes are in the trail too, the denial included: coverage matches them by tool_use_id.
    const pre = audit.records.filter((r) => r.kind === 'outcome' && r.event === 'PreToolUse');
    expect(pre.map((r) => [(r.data.input as { tool_use_id: string }).tool_use_id, r.decision])).toEqual([
      ['c1', null],
      ['c2', 'deny'],
    ]);
  });

  it('refuses provider-executed tools and tools without execute at wrap time, and tools added later', () => {
    const engine = new HookEngine();
    const providerTool = { type: 'provider', id: 'openai.web_search', args: {}, inputSchema: z.object({}) } as never;
    expect(() => hookTools(engine, { search: providerTool })).toThrow(UngovernedToolError);
    expect(() => hookTools(engine, { client: tool({ inputSchema: z.object({}) }) as never })).toThrow(/no execute function/);
    const seen: string[] = [];
    const passed = hookTools(engine, { search: providerTool }, { ungoverned: 'report', onUngoverned: (n) => seen.push(n) });
    expect(seen).toEqual(['search']);
    expect(passed.search).toBe(providerTool);
    const tools = hookTools(engine, makeTools([])) as Record<string, unknown>;
    expect(() => {
      tools.extra = tool({ inputSchema: z.object({}), execute: async () => 1 });
    }).toThrow(TypeError);
  });
});

describe('hookModel', () => {
  it('fires PreModelCall and PostModelCall around generate and stream calls, unchanged when nobody has an opinion', async () => {
    const engine = new HookEngine();
    const fired = recorder(engine);
    engine.register({ name: 'n', events: ['PreModelCall', 'PostModelCall'], handler: () => undefined });
    const bare = await generateText({ model: scriptedModel([{ text: 'hello' }]), prompt: 'hi' });
    const hooked = await generateText({ model: hookModel(engine, scriptedModel([{ text: 'hello' }])), prompt: 'hi' });
    expect(hooked.text).toBe(bare.text);
    const streamed = streamText({ model: hookModel(engine, scriptedModel([{ text: 'streamed' }])), prompt: 'hi' });
    expect(await streamed.text).toBe('streamed');
    expect(fired.map((f) => f.event)).toEqual(['PreModelCall', 'PostModelCall', 'PreModelCall', 'PostModelCall']);
    expect(fired[1]!.input.response).toEqual({ text: 'hello', tool_calls: [] });
    expect(fired[3]!.input.response).toEqual({ text: 'streamed', tool_calls: [] });
  });

  it('a PreModelCall rewrite changes the prompt; a PostModelCall replacement changes the response, streaming too', async () => {
    const engine = new HookEngine()
      .register({
        name: 'p',
        events: ['PreModelCall'],
        handler: () => modify({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'rewritten' }] }] }),
      })
      .register({ name: 'o', events: ['PostModelCall'], handler: () => replaceOutput('replaced') });
    const model = scriptedModel([{ text: 'original' }, { text: 'original' }]);
    const wrapped = hookModel(engine, model);
    expect((await generateText({ model: wrapped, prompt: 'hi' })).text).toBe('replaced');
    expect(JSON.stringify(model.doGenerateCalls[0]!.prompt)).toContain('rewritten');
    expect(await streamText({ model: wrapped, prompt: 'hi' }).text).toBe('replaced');
  });

  it('a PreModelCall stop or block means no model call', async () => {
    const engine = new HookEngine().register({ name: 's', events: ['PreModelCall'], handler: () => stop('no more calls') });
    const model = scriptedModel([{ text: 'x' }]);
    await expect(generateText({ model: hookModel(engine, model), prompt: 'hi' })).rejects.toThrow('no more calls');
    expect(model.doGenerateCalls).toHaveLength(0);
    const blocking = new HookEngine().register({ name: 'b', events: ['PreModelCall'], handler: () => block('blocked call') });
    await expect(generateText({ model: hookModel(blocking, model), prompt: 'hi' })).rejects.toThrow(/blocked call/);
    expect(model.doGenerateCalls).toHaveLength(0);
  });
});

describe('hookRun', () => {
  it('fires SessionStart, UserPromptSubmit, Stop (a block means keep going) and SessionEnd', async () => {
    const engine = new HookEngine();
    const fired = recorder(engine);
    let stops = 0;
    engine.register({ name: 'ctx', events: ['UserPromptSubmit'], handler: () => ({ kind: 'context', additionalContext: 'be brief' }) });
    engine.register({ name: 'again', events: ['Stop'], handler: () => (stops++ === 0 ? block('also say bye') : undefined) });
    const model = scriptedModel([{ text: 'hello' }, { text: 'bye' }]);
    const prompts: string[] = [];
    const result = await hookRun(engine, { prompt: 'hi', sessionId: 'run1' }, ({ prompt }) => {
      prompts.push(prompt);
      return generateText({ model, prompt });
    });
    expect(result.text).toBe('bye');
    expect(prompts).toEqual(['hi\n\nbe brief', 'also say bye']);
    expect(fired.map((f) => f.event)).toEqual(['SessionStart', 'UserPromptSubmit', 'Stop', 'Stop', 'SessionEnd']);
    expect(fired[3]!.input.stop_hook_active).toBe(true);
    expect(fired.every((f) => f.input.session_id === 'run1')).toBe(true);
  });

  it('a blocked prompt never reaches the model, and SessionEnd still fires', async () => {
    const engine = new HookEngine().register({ name: 'b', events: ['UserPromptSubmit'], handler: () => block('no secrets') });
    const fired = recorder(engine);
    const model = scriptedModel([{ text: 'x' }]);
    await expect(hookRun(engine, { prompt: 'hi' }, ({ prompt }) => generateText({ model, prompt }))).rejects.toThrow(/no secrets/);
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(fired.at(-1)!.event).toBe('SessionEnd');
  });
});
