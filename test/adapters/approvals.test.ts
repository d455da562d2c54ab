import { rmSync } from 'node:fs';
import path from 'node:path';
import { Agent, run as runOpenAI, setTracingDisabled, tool as openaiTool } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { generateText, stepCountIs, tool as aiTool } from 'ai';
import { createAgent as createLangchainAgent, tool as lcTool, ToolMessage } from 'langchain';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hookTools } from '../../src/adapters/ai-sdk/index.js';
import { hookwiseMiddleware } from '../../src/adapters/langchain/index.js';
import { hookAgent } from '../../src/adapters/openai-agents/index.js';
import { MemoryCoverage } from '../../src/adapters/shared/index.js';
import { openApprovals, type AnyApprovalStore, type ApprovalAnswer } from '../../src/approvals/index.js';
import { openAuditStore, queryAudit, verifyAudit, type AuditStore } from '../../src/audit/index.js';
import { HookEngine, allow, ask, type HookInput } from '../../src/index.js';
import { tempDir } from '../runtime/helpers.js';
import { scriptedModel } from './ai-sdk-helpers.js';
import { ScriptedChatModel } from './langchain-helpers.js';

// The adapters' ToolGate with an approvals store (docs/approvals.md): an ask
// becomes a pending record in the real SQLite store and the call waits on it,
// instead of each framework's own approval. The answer is given through the store
// while the call waits, as the CLI or serve's page would give it.

setTracingDisabled(true);

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Setup {
  db: string;
  audit: AuditStore;
  approvals: AnyApprovalStore;
  engine: HookEngine;
  /** Answers given so far; each is checked once the run is over. */
  answers: Promise<unknown>[];
  notifications: HookInput[];
}

/**
 * A policy that asks before every deploy, and a person who answers each question
 * as soon as its Notification arrives (the answer lands while the call waits).
 */
async function setup(answer: ApprovalAnswer | null): Promise<Setup> {
  const dir = tempDir('hookwise-adapter-approvals-');
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const db = path.join(dir, 'audit.db');
  const audit = openAuditStore({ path: db });
  const approvals = await openApprovals(db, { audit });
  cleanups.push(async () => {
    await approvals.close();
    await audit.close();
  });
  const answers: Promise<unknown>[] = [];
  const notifications: HookInput[] = [];
  const engine = new HookEngine();
  engine.register({ name: 'ask-deploys', events: 'PreToolUse', matcher: { tool: 'deploy' }, handler: () => ask('deploys need a person') });
  engine.register({
    name: 'pager',
    events: 'Notification',
    handler: (input) => {
      notifications.push(structuredClone(input));
      if (answer) answers.push(approvals.answer(input.approval_id!, answer));
      return undefined;
    },
  });
  return { db, audit, approvals, engine, answers, notifications };
}

async function answered(s: Setup): Promise<void> {
  for (const result of await Promise.all(s.answers)) expect(result).toMatchObject({ ok: true });
}

const APPROVE: ApprovalAnswer = { decision: 'approve', by: 'alice', note: 'go, and watch the error rate' };
const DENY: ApprovalAnswer = { decision: 'deny', by: 'bob', note: 'not during the freeze' };

describe('AI SDK (hookTools) with an approvals store', () => {
  const deployTools = (ran: string[]) => ({
    deploy: aiTool({
      description: 'Deploy the service',
      inputSchema: z.object({ target: z.string() }),
      execute: async ({ target }) => {
        ran.push(target);
        return `deployed to ${target}`;
      },
    }),
  });
  const turns = () => [{ calls: [{ id: 'd1', name: 'deploy', input: { target: 'prod' } }] }, { text: 'done' }];

  it('approved: no SDK approval request, the tool runs once, the note reaches the model; the trail verifies', async () => {
    const s = await setup(APPROVE);
    const ran: string[] = [];
    const coverage = new MemoryCoverage();
    const model = scriptedModel(turns());
    const result = await generateText({
      model,
      tools: hookTools(s.engine, deployTools(ran), { approvals: s.approvals, audit: s.audit, coverage, sessionId: 'ai-1' }),
      prompt: 'ship it',
      stopWhen: stepCountIs(5),
    });
    await answered(s);
    expect(result.content.some((c) => c.type === 'tool-approval-request')).toBe(false);
    expect(ran).toEqual(['prod']);
    const [approval] = await s.approvals.list();
    expect(approval).toMatchObject({ key: 'ai-1:d1', state: 'approved', tool: 'deploy', hook: 'ask-deploys', answeredBy: 'alice' });
    expect(JSON.stringify(model.doGenerateCalls[1]!.prompt)).toContain(
      `deployed to prod\\n\\nNote from alice, who approved this deploy call (approval ${approval!.id}): go, and watch the error rate`,
    );
    expect(s.notifications[0]).toMatchObject({ notification_type: 'permission_prompt', tool_name: 'deploy', approval_id: approval!.id });
    expect(coverage.executions).toEqual([expect.objectContaining({ toolUseId: 'd1', approvedBy: 'approval', approvalId: approval!.id })]);

    await s.audit.flush();
    expect(queryAudit(s.db, { kind: 'tool' }).map((r) => r.data)).toEqual([
      expect.objectContaining({ host: 'ai-sdk', tool_use_id: 'd1', approval_id: approval!.id }),
    ]);
    expect(queryAudit(s.db, { kind: 'approval' }).map((r) => r.decision)).toEqual(['pending', 'approved']);
    expect(verifyAudit(s.db)).toMatchObject({ ok: true });
  });

  it('denied: the tool does not run and the model gets the refusal with the note', async () => {
    const s = await setup(DENY);
    const ran: string[] = [];
    const model = scriptedModel(turns());
    await generateText({
      model,
      tools: hookTools(s.engine, deployTools(ran), { approvals: s.approvals, sessionId: 'ai-2' }),
      prompt: 'ship it',
      stopWhen: stepCountIs(5),
    });
    await answered(s);
    expect(ran).toEqual([]);
    const [approval] = await s.approvals.list();
    expect(JSON.stringify(model.doGenerateCalls[1]!.prompt)).toContain(
      `Permission denied: bob denied deploy (approval ${approval!.id}): not during the freeze. The tool was not run.`,
    );
  });
});

describe('OpenAI Agents (hookAgent) with an approvals store', () => {
  const agentWith = (ran: string[], turns: ConstructorParameters<typeof ScriptedModel>[0]) => {
    const model = new ScriptedModel(turns);
    const deploy = openaiTool({
      name: 'deploy',
      description: 'Deploy the service',
      parameters: z.object({ target: z.string() }),
      execute: async ({ target }) => {
        ran.push(target);
        return `deployed to ${target}`;
      },
    });
    return { model, agent: new Agent({ name: 'main', instructions: 'ship', model, tools: [deploy] }) };
  };
  const turns = () => [[functionCall('deploy', { target: 'prod' }, { callId: 'd1' })], [assistantMessage('done')]];

  it('approved: no interruption, the tool runs, the note reaches the model', async () => {
    const s = await setup(APPROVE);
    const ran: string[] = [];
    const { model, agent } = agentWith(ran, turns());
    const result = await runOpenAI(hookAgent(s.engine, agent, { approvals: s.approvals, sessionId: 'oa-1' }), 'ship it');
    await answered(s);
    expect(result.interruptions).toEqual([]);
    expect(result.finalOutput).toBe('done');
    expect(ran).toEqual(['prod']);
    const [approval] = await s.approvals.list();
    expect(approval).toMatchObject({ key: 'oa-1:d1', state: 'approved' });
    expect(JSON.stringify(model.calls[1]!.request.input)).toContain(
      `Note from alice, who approved this deploy call (approval ${approval!.id}): go, and watch the error rate`,
    );
  });

  it('denied: the tool does not run and the refusal with the note is its output', async () => {
    const s = await setup(DENY);
    const ran: string[] = [];
    const { model, agent } = agentWith(ran, turns());
    const result = await runOpenAI(hookAgent(s.engine, agent, { approvals: s.approvals, sessionId: 'oa-2' }), 'ship it');
    await answered(s);
    expect(result.interruptions).toEqual([]);
    expect(ran).toEqual([]);
    expect(JSON.stringify(model.calls[1]!.request.input)).toContain('bob denied deploy');
    expect(JSON.stringify(model.calls[1]!.request.input)).toContain('not during the freeze');
  });
});

describe('LangChain (hookwiseMiddleware) with an approvals store', () => {
  const deploy = (ran: string[]) =>
    lcTool(
      async ({ target }: { target: string }) => {
        ran.push(target);
        return `deployed to ${target}`;
      },
      { name: 'deploy', description: 'Deploy the service', schema: z.object({ target: z.string() }) },
    );

  async function invoke(s: Setup, ran: string[], turns: ConstructorParameters<typeof ScriptedChatModel>[0], sessionId: string) {
    const model = new ScriptedChatModel(turns);
    const agent = createLangchainAgent({
      model,
      tools: [deploy(ran)],
      middleware: [hookwiseMiddleware(s.engine, { approvals: s.approvals, sessionId })],
    });
    const result = await agent.invoke({ messages: [{ role: 'user', content: 'ship it' }] });
    return { model, tools: result.messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m)) };
  }

  it('approved once for the session: the same call later runs on the standing permission, with no second question', async () => {
    const s = await setup({ ...APPROVE, scope: 'session' });
    const ran: string[] = [];
    const { model, tools } = await invoke(
      s,
      ran,
      [
        { calls: [{ id: 'd1', name: 'deploy', args: { target: 'staging' } }] },
        { calls: [{ id: 'd2', name: 'deploy', args: { target: 'staging' } }] },
        { text: 'done' },
      ],
      'lc-1',
    );
    await answered(s);
    expect(ran).toEqual(['staging', 'staging']);
    const all = await s.approvals.list();
    expect(all).toHaveLength(1);
    expect(s.notifications).toHaveLength(1);
    expect(tools.map((t) => t.content)).toEqual([
      `deployed to staging\n\nNote from alice, who approved this deploy call (approval ${all[0]!.id}): go, and watch the error rate`,
      'deployed to staging',
    ]);
    expect(model.seen[1]!.at(-1)!.content).toBe(tools[0]!.content);
  });

  it('denied: the ToolMessage is the refusal with the note, status error', async () => {
    const s = await setup(DENY);
    const ran: string[] = [];
    const { model, tools } = await invoke(
      s,
      ran,
      [{ calls: [{ id: 'd1', name: 'deploy', args: { target: 'prod' } }] }, { text: 'ok' }],
      'lc-2',
    );
    await answered(s);
    expect(ran).toEqual([]);
    expect(tools[0]).toMatchObject({ status: 'error' });
    expect(String(tools[0]!.content)).toMatch(
      /^Permission denied: bob denied deploy \(approval \w+\): not during the freeze\. The tool was not run\.$/,
    );
    expect(model.seen[1]!.at(-1)!.content).toBe(tools[0]!.content);
  });

  it('a PermissionRequest hook that answers leaves the store out; a store that fails refuses the call', async () => {
    const s = await setup(null);
    s.engine.register({ name: 'staging-is-fine', events: 'PermissionRequest', matcher: { tool: 'deploy' }, handler: () => allow() });
    const ran: string[] = [];
    await invoke(s, ran, [{ calls: [{ id: 'd1', name: 'deploy', args: { target: 'staging' } }] }, { text: 'ok' }], 'lc-3');
    expect(ran).toEqual(['staging']);
    expect(await s.approvals.list()).toEqual([]);

    s.engine.unregister('staging-is-fine');
    await s.approvals.close();
    const { tools } = await invoke(s, ran, [{ calls: [{ id: 'd2', name: 'deploy', args: { target: 'prod' } }] }, { text: 'ok' }], 'lc-4');
    expect(ran).toEqual(['staging']);
    expect(tools[0]!.content).toBe(
      `Permission needed to use deploy (deploys need a person), and the approval store failed (approvals store ${s.db} is closed). The tool was not run.`,
    );
  });
});
