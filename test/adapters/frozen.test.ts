import { Agent, run, setTracingDisabled, tool as agentTool } from '@openai/agents';
import { functionCall, assistantMessage, ScriptedModel } from '@openai/agents/testing';
import { generateText, stepCountIs, tool as aiTool } from 'ai';
import { createAgent, tool as lcTool, ToolMessage } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hookTools } from '../../src/adapters/ai-sdk/index.js';
import { hookwiseMiddleware } from '../../src/adapters/langchain/index.js';
import { hookAgent } from '../../src/adapters/openai-agents/index.js';
import { HookEngine, deny } from '../../src/index.js';
import { scriptedModel } from './ai-sdk-helpers.js';
import { ScriptedChatModel } from './langchain-helpers.js';

// Governed objects are frozen: code that swaps a governed tool's function, or an agent's
// tools, for the raw one fails (TypeError: test files are strict ES modules) instead of
// running the raw tool. Each attack is first shown to work on the object hookwise did
// not govern, so the protected run cannot pass by the attack doing nothing.
setTracingDisabled(true);

const denyDanger = () =>
  new HookEngine().register({ name: 'no-danger', events: 'PreToolUse', matcher: 'danger', handler: () => deny('danger is off limits') });

describe('AI SDK: a governed tool cannot be swapped', () => {
  const make = (ran: string[]) => ({
    danger: aiTool({ inputSchema: z.object({}), execute: async () => (ran.push('governed danger'), 'ran') }),
  });
  const rawExecute = (ran: string[]) => async () => (ran.push('RAW'), 'raw ran');
  const callDanger = () => scriptedModel([{ calls: [{ id: 'c1', name: 'danger', input: {} }] }, { text: 'done' }]);

  it('unprotected: reassigning execute on an ungoverned tool runs the raw function', async () => {
    const ran: string[] = [];
    const tools = make(ran);
    tools.danger.execute = rawExecute(ran);
    await generateText({ model: callDanger(), tools, prompt: 'go', stopWhen: stepCountIs(3) });
    expect(ran).toEqual(['RAW']);
  });

  it('governed: execute, needsApproval and toModelOutput cannot be reassigned, redefined or deleted; the deny holds', async () => {
    const ran: string[] = [];
    const governed = hookTools(denyDanger(), make(ran));
    const danger = governed.danger as Record<string, unknown>;
    expect(() => {
      danger.execute = rawExecute(ran);
    }).toThrow(TypeError);
    expect(() => {
      danger.needsApproval = async () => false;
    }).toThrow(TypeError);
    expect(() => {
      danger.toModelOutput = undefined;
    }).toThrow(TypeError);
    expect(() => Object.defineProperty(danger, 'execute', { value: rawExecute(ran) })).toThrow(TypeError);
    expect(() => delete danger.execute).toThrow(TypeError);
    expect(() => {
      (governed as Record<string, unknown>).danger = make(ran).danger;
    }).toThrow(TypeError);
    const result = await generateText({ model: callDanger(), tools: governed, prompt: 'go', stopWhen: stepCountIs(3) });
    expect(ran).toEqual([]);
    expect(result.steps[0]!.toolResults[0]!.output).toBe('danger is off limits');
  });
});

describe('OpenAI Agents: a governed agent cannot be re-tooled', () => {
  const make = (ran: string[], who: string) =>
    agentTool({
      name: 'danger',
      description: 'dangerous',
      parameters: z.object({}),
      execute: async () => {
        ran.push(who);
        return 'ran';
      },
    });
  const callDanger = () => new ScriptedModel([[functionCall('danger', {}, { callId: 'c1' })], [assistantMessage('done')]]);
  // Streamed or not, a run's result lists its items the same way.
  const outputOf = (result: Pick<Awaited<ReturnType<typeof run>>, 'newItems'>) =>
    result.newItems.filter((i) => i.type === 'tool_call_output_item').map((i) => (i as { output: unknown }).output);

  it('unprotected: reassigning tools on an ungoverned agent runs the raw tool', async () => {
    const ran: string[] = [];
    const agent = new Agent({ name: 'main', model: callDanger(), tools: [make(ran, 'governed')] });
    agent.tools = [make(ran, 'RAW')];
    await run(agent, 'go');
    expect(ran).toEqual(['RAW']);
  });

  it('governed: tools, handoffs, model, mcpServers and each tool are frozen; the deny holds', async () => {
    const ran: string[] = [];
    const agent = hookAgent(denyDanger(), new Agent({ name: 'main', model: callDanger(), tools: [make(ran, 'governed')] }));
    const raw = make(ran, 'RAW');
    expect(() => {
      agent.tools = [raw];
    }).toThrow(TypeError);
    expect(() => agent.tools.push(raw)).toThrow(TypeError);
    expect(() => {
      agent.handoffs = [];
    }).toThrow(TypeError);
    expect(() => {
      agent.model = callDanger();
    }).toThrow(TypeError);
    expect(() => agent.mcpServers.push({} as never)).toThrow(TypeError);
    expect(() => Object.defineProperty(agent, 'tools', { value: [raw] })).toThrow(TypeError);
    expect(() => {
      (agent.tools[0] as { invoke: unknown }).invoke = raw.invoke;
    }).toThrow(TypeError);
    expect(() => {
      (agent.tools[0] as { needsApproval: unknown }).needsApproval = async () => false;
    }).toThrow(TypeError);
    expect(() => {
      (agent.model as { getResponse: unknown }).getResponse = async () => ({});
    }).toThrow(TypeError);
    const result = await run(agent, 'go');
    expect(ran).toEqual([]);
    expect(outputOf(result)).toEqual(['danger is off limits']);
  });

  it("governed: the agent's own clone() is governed too, raw tools given to it included, and hooks fire once", async () => {
    const ran: string[] = [];
    const engine = denyDanger();
    let pre = 0;
    engine.on('outcome', (o) => void (o.event === 'PreToolUse' && pre++));
    const agent = hookAgent(engine, new Agent({ name: 'main', model: callDanger(), tools: [make(ran, 'governed')] }));
    const swapped = agent.clone({ tools: [make(ran, 'RAW')] });
    expect(Object.isFrozen(swapped)).toBe(true);
    expect(outputOf(await run(swapped, 'go'))).toEqual(['danger is off limits']);
    const same = agent.clone({ model: callDanger() });
    expect(outputOf(await run(same, 'go'))).toEqual(['danger is off limits']);
    expect(ran).toEqual([]);
    expect(pre).toBe(2);
  });
});

describe('LangChain: the middleware cannot be defused', () => {
  it('governed: wrapToolCall cannot be replaced; the deny holds', async () => {
    const ran: string[] = [];
    const danger = lcTool(
      async () => {
        ran.push('danger');
        return 'ran';
      },
      { name: 'danger', description: 'dangerous', schema: z.object({}) },
    );
    const middleware = hookwiseMiddleware(denyDanger());
    expect(() => {
      (middleware as { wrapToolCall: unknown }).wrapToolCall = async (request: unknown, handler: (r: unknown) => unknown) =>
        handler(request);
    }).toThrow(TypeError);
    const model = new ScriptedChatModel([{ calls: [{ id: 'c1', name: 'danger', args: {} }] }, { text: 'done' }]);
    const agent = createAgent({ model, tools: [danger], middleware: [middleware] });
    const result = await agent.invoke({ messages: [{ role: 'user', content: 'go' }] });
    const message = result.messages.find((m) => ToolMessage.isInstance(m)) as ToolMessage;
    expect(ran).toEqual([]);
    expect(message.content).toBe('danger is off limits');
  });
});
