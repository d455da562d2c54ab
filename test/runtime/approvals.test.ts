import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openApprovals, type AnyApprovalStore, type ApprovalAnswer } from '../../src/approvals/index.js';
import { openAuditStore, queryAudit, verifyAudit, type AuditStore } from '../../src/audit/index.js';
import { allow, ask, HookEngine, type HookInput } from '../../src/index.js';
import { scriptedProvider, type ScriptedProvider, type ScriptTurn } from '../../src/providers/scripted.js';
import { createAgent, defineTool, type AgentOptions, type RunResult, type RuntimeEvent } from '../../src/runtime/index.js';
import { approvalWaitText, Timeline } from '../../src/cli/timeline.js';
import { pgSchema } from '../audit/pg-schema.js';
import { requirePostgres } from '../support/services.js';
import { tempDir } from './helpers.js';

// Durable approvals in the runtime (docs/approvals.md), against the real store:
// SQLite in a temporary audit database; PostgreSQL for one case.

const pgBase = await requirePostgres();
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A temporary folder, removed after the test (after the stores on it are closed). */
function scratch(prefix: string): string {
  const dir = tempDir(prefix);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A tool whose every run adds a line to `ran.log`: what ran, and how often. */
function deployTool(dir: string) {
  return defineTool({
    name: 'deploy',
    description: 'Deploy the service',
    input: z.object({ target: z.string() }),
    run: ({ target }) => {
      appendFileSync(path.join(dir, 'ran.log'), `deploy ${target}\n`);
      return `deployed to ${target}`;
    },
  });
}

function ranLog(dir: string): string {
  const file = path.join(dir, 'ran.log');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

interface Setup {
  dir: string;
  db: string;
  audit: AuditStore;
  approvals: AnyApprovalStore;
  engine: HookEngine;
  notifications: HookInput[];
}

/** A temporary audit database with the approvals store on its chain, and a policy that asks before every deploy. */
async function setup(): Promise<Setup> {
  const dir = scratch('hookwise-approvals-');
  const db = path.join(dir, 'audit.db');
  const audit = openAuditStore({ path: db });
  const approvals = await openApprovals(db, { audit });
  cleanups.push(async () => {
    await approvals.close();
    await audit.close();
  });
  const engine = new HookEngine();
  const notifications: HookInput[] = [];
  engine.register({ name: 'ask-deploys', events: 'PreToolUse', matcher: { tool: 'deploy' }, handler: () => ask('deploys need a person') });
  engine.register({
    name: 'notifications',
    events: 'Notification',
    handler: (input) => {
      notifications.push(structuredClone(input));
      return undefined;
    },
  });
  return { dir, db, audit, approvals, engine, notifications };
}

interface Answered {
  result: RunResult;
  provider: ScriptedProvider;
  events: RuntimeEvent[];
  /** The approval the run waited on, if it waited. */
  approvalId: string | null;
}

/**
 * Runs the agent; when it begins to wait for an approval, `answer` is given
 * through the store (as the CLI or serve's page would), by another connection's
 * worth of code: only the store connects the two.
 */
async function runAnswering(
  s: Setup,
  turns: ScriptTurn[],
  answer: ApprovalAnswer | null,
  options: Partial<AgentOptions> = {},
): Promise<Answered> {
  const provider = scriptedProvider(turns);
  const events: RuntimeEvent[] = [];
  let approvalId: string | null = null;
  const answers: Promise<unknown>[] = [];
  const agent = createAgent({
    provider,
    tools: [deployTool(s.dir)],
    hooks: s.engine,
    cwd: s.dir,
    transcriptDir: s.dir,
    audit: s.audit,
    approvals: s.approvals,
    onEvent: (event) => {
      events.push(event);
      if (event.type === 'approval_wait' && event.waitedMs === 0) {
        approvalId = event.approvalId;
        if (answer) answers.push(s.approvals.answer(event.approvalId, answer));
      }
    },
    ...options,
  });
  const result = await agent.run('ship it');
  const given = await Promise.all(answers);
  for (const g of given) expect(g).toMatchObject({ ok: true });
  return { result, provider, events, approvalId };
}

/** The tool result the model got for the first call, in its next request. */
function toolResultSeen(provider: ScriptedProvider, request = 1) {
  return provider.requests[request]!.find((m) => m.role === 'tool');
}

const DEPLOY: ScriptTurn[] = [{ text: 'Deploying.', toolCalls: [{ name: 'deploy', input: { target: 'prod' } }] }, { text: 'Deployed.' }];

describe('an ask with an approvals store', () => {
  it('waits for the answer; approved, the tool runs once and the approver’s note reaches the model beside the result', async () => {
    const s = await setup();
    const run = await runAnswering(s, DEPLOY, { decision: 'approve', by: 'alice', note: 'go ahead, and announce it in #ops' });
    const id = run.approvalId!;
    expect(id).toMatch(/^[0-9a-z]{12}$/);
    expect(run.result).toMatchObject({ stopReason: 'end_turn', text: 'Deployed.' });
    expect(ranLog(s.dir)).toBe('deploy prod\n');
    expect(toolResultSeen(run.provider)).toEqual({
      role: 'tool',
      toolCallId: 'call_0_0',
      name: 'deploy',
      content: `deployed to prod\n\nNote from alice, who approved this deploy call (approval ${id}): go ahead, and announce it in #ops`,
    });

    const record = await s.approvals.get(id);
    expect(record).toMatchObject({
      state: 'approved',
      answeredBy: 'alice',
      key: `${run.result.sessionId}:call_0_0`,
      tool: 'deploy',
      input: { target: 'prod' },
      toolUseId: 'call_0_0',
      hook: 'ask-deploys',
      reason: 'deploys need a person',
      event: 'PreToolUse',
    });
    // Notification told a person where to answer, before the wait began.
    expect(s.notifications).toHaveLength(1);
    expect(s.notifications[0]).toMatchObject({ notification_type: 'permission_prompt', tool_name: 'deploy', approval_id: id });
    expect(s.notifications[0]!.message).toContain(`approval ${id}`);
    const seen = run.events.filter((e) => e.type === 'approval' || e.type === 'approval_wait' || e.type === 'checkpoint');
    expect(seen[0]).toMatchObject({ type: 'checkpoint', waiting: true, step: 0 });
    expect(seen[1]).toMatchObject({ type: 'approval_wait', approvalId: id, tool: 'deploy', toolUseId: 'call_0_0', waitedMs: 0 });
    expect(seen.find((e) => e.type === 'approval')).toEqual({
      type: 'approval',
      tool: 'deploy',
      toolUseId: 'call_0_0',
      approved: true,
      by: 'store',
      approvalId: id,
      answeredBy: 'alice',
      note: 'go ahead, and announce it in #ops',
    });
  });

  it('denied, the tool does not run and the refusal the model gets carries the note', async () => {
    const s = await setup();
    const run = await runAnswering(s, DEPLOY, { decision: 'deny', by: 'bob', note: 'not on a Friday; wait for Monday' });
    expect(ranLog(s.dir)).toBe('');
    expect(toolResultSeen(run.provider)).toEqual({
      role: 'tool',
      toolCallId: 'call_0_0',
      name: 'deploy',
      content: `Error: Permission denied: bob denied deploy (approval ${run.approvalId}): not on a Friday; wait for Monday. The tool was not run.`,
      isError: true,
    });
    expect(run.events).toContainEqual(expect.objectContaining({ type: 'tool_denied', tool: 'deploy' }));
    expect(run.events).toContainEqual(expect.objectContaining({ type: 'approval', approved: false, by: 'store', answeredBy: 'bob' }));
  });

  it('nobody answers: the approval expires and its default, deny, refuses the call', async () => {
    const s = await setup();
    const run = await runAnswering(s, DEPLOY, null, { approvalExpiry: { afterMs: 300 } });
    expect(ranLog(s.dir)).toBe('');
    const record = (await s.approvals.get(run.approvalId!))!;
    expect(record).toMatchObject({ state: 'expired', answeredBy: 'expiry', onExpiry: 'deny' });
    expect(toolResultSeen(run.provider)!.content).toBe(
      `Error: Permission denied: approval ${record.id} for deploy expired unanswered at ${record.expiresAt}; its default on expiry is deny. The tool was not run.`,
    );
  });

  it('an expiry whose default is approve lets the call run, and the model is told why', async () => {
    const s = await setup();
    const run = await runAnswering(s, DEPLOY, null, { approvalExpiry: { afterMs: 300, onExpiry: 'approve' } });
    expect(ranLog(s.dir)).toBe('deploy prod\n');
    const record = (await s.approvals.get(run.approvalId!))!;
    expect(record).toMatchObject({ state: 'expired', onExpiry: 'approve' });
    expect(toolResultSeen(run.provider)!.content).toBe(
      `deployed to prod\n\napproval ${record.id} for deploy expired unanswered at ${record.expiresAt}; its default on expiry, approve, let the call run`,
    );
  });

  it('an approval with scope session stands for the same call later in the session: no second question', async () => {
    const s = await setup();
    const turns: ScriptTurn[] = [
      { toolCalls: [{ name: 'deploy', input: { target: 'staging' } }] },
      { toolCalls: [{ name: 'deploy', input: { target: 'staging' } }] },
      { text: 'Deployed twice.' },
    ];
    const run = await runAnswering(s, turns, { decision: 'approve', by: 'alice', scope: 'session' });
    expect(ranLog(s.dir)).toBe('deploy staging\ndeploy staging\n');
    expect(await s.approvals.list()).toHaveLength(1);
    const approvals = run.events.filter((e) => e.type === 'approval');
    expect(approvals.map((e) => e.type === 'approval' && [e.by, e.approvalId])).toEqual([
      ['store', run.approvalId],
      ['standing', run.approvalId],
    ]);
    // The standing permission's id is on the second execution's audit record too.
    await s.audit.flush();
    const tools = queryAudit(s.db, { kind: 'tool' });
    expect(tools.map((t) => (t.data as { approval_id?: string }).approval_id)).toEqual([run.approvalId, run.approvalId]);
  });

  it('a long wait tells observers once a second, and the timeline shows it as one progress line', async () => {
    const s = await setup();
    const provider = scriptedProvider(DEPLOY);
    let log = '';
    const out = {
      isTTY: false,
      write(text: string): boolean {
        log += text;
        return true;
      },
    };
    const timeline = new Timeline({ out, width: 100 });
    const waits: Array<Extract<RuntimeEvent, { type: 'approval_wait' }>> = [];
    let answered: Promise<unknown> | undefined;
    const result = await createAgent({
      provider,
      tools: [deployTool(s.dir)],
      hooks: s.engine,
      cwd: s.dir,
      transcriptDir: s.dir,
      approvals: s.approvals,
      onEvent: (event) => {
        if (event.type !== 'approval_wait') return;
        waits.push(event);
        timeline.progress(event.approvalId, approvalWaitText(event));
        // Answered only once the wait has gone on for a second.
        if (event.waitedMs >= 1000) answered ??= s.approvals.answer(event.approvalId, { decision: 'approve', by: 'erin' });
      },
    }).run('ship it');
    expect(await answered).toMatchObject({ ok: true });
    expect(result.stopReason).toBe('end_turn');
    // One event as the wait begins, then one per second waited (the answer lands within a second or two).
    const seconds = waits.map((w) => Math.floor(w.waitedMs / 1000));
    expect(seconds.slice(0, 2)).toEqual([0, 1]);
    expect(seconds).toEqual(seconds.map((_, i) => i));
    expect(log).toBe(`    deploy waiting for approval ${waits[0]!.approvalId} (0 s)\n`);
    timeline.detach();
  });

  it('aborting the run stops the wait: run() rejects and the approval stays pending for a resume', async () => {
    const s = await setup();
    const controller = new AbortController();
    const agent = createAgent({
      provider: scriptedProvider(DEPLOY),
      tools: [deployTool(s.dir)],
      hooks: s.engine,
      cwd: s.dir,
      transcriptDir: s.dir,
      approvals: s.approvals,
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'approval_wait') controller.abort(new Error('shutting down'));
      },
    });
    await expect(agent.run('ship it')).rejects.toThrow('shutting down');
    expect(ranLog(s.dir)).toBe('');
    expect((await s.approvals.list()).map((a) => a.state)).toEqual(['pending']);
  });

  it('a PermissionRequest hook that answers leaves the store out', async () => {
    const s = await setup();
    s.engine.register({ name: 'auto-approve-staging', events: 'PermissionRequest', handler: () => allow('staging is fine') });
    const run = await runAnswering(s, DEPLOY, null);
    expect(ranLog(s.dir)).toBe('deploy prod\n');
    expect(run.approvalId).toBeNull();
    expect(await s.approvals.list()).toEqual([]);
  });

  it('the store takes precedence over the approve callback when both are given', async () => {
    const s = await setup();
    let asked = 0;
    const run = await runAnswering(
      s,
      DEPLOY,
      { decision: 'deny', by: 'carol' },
      {
        approve: () => {
          asked++;
          return true;
        },
      },
    );
    expect(asked).toBe(0);
    expect(ranLog(s.dir)).toBe('');
    expect(toolResultSeen(run.provider)!.content).toBe(
      `Error: Permission denied: carol denied deploy (approval ${run.approvalId}). The tool was not run.`,
    );
  });

  it('a store that fails refuses the call (fail closed), naming the store’s error', async () => {
    const s = await setup();
    await s.approvals.close();
    const run = await runAnswering(s, DEPLOY, null);
    expect(ranLog(s.dir)).toBe('');
    expect(toolResultSeen(run.provider)!.content).toBe(
      `Error: Permission needed to use deploy (deploys need a person), and the approval store failed (approvals store ${s.db} is closed). The tool was not run.`,
    );
  });

  it('the audit chain holds the request and the answer beside the tool record, and verifies', async () => {
    const s = await setup();
    const run = await runAnswering(s, DEPLOY, { decision: 'approve', by: 'alice', note: 'ok' });
    await s.audit.flush();
    const approvalRecords = queryAudit(s.db, { kind: 'approval' });
    expect(approvalRecords.map((r) => [(r.data as { action: string }).action, r.decision, (r.data as { id: string }).id])).toEqual([
      ['request', 'pending', run.approvalId],
      ['answer', 'approved', run.approvalId],
    ]);
    const tool = queryAudit(s.db, { kind: 'tool' });
    expect(tool).toHaveLength(1);
    expect(tool[0]!.data).toMatchObject({ tool_name: 'deploy', tool_use_id: 'call_0_0', approval_id: run.approvalId });
    // The answer is chained before the tool record: the trail shows the permission before the execution.
    expect(approvalRecords[1]!.seq).toBeLessThan(tool[0]!.seq);
    expect(verifyAudit(s.db)).toMatchObject({ ok: true });
  });
});

describe.skipIf(pgBase === undefined)('an ask with the PostgreSQL approvals store', () => {
  it('waits for the answer given through another connection; the note reaches the model', async () => {
    const schema = pgSchema(pgBase ?? 'postgres://unused', 'approvals_rt');
    cleanups.push(() => schema.drop());
    const dir = scratch('hookwise-approvals-pg-');
    // Approvals are signed with the audit key; PostgreSQL has no default one.
    const key = 'runtime-approvals-pg-key-0123456789';
    const approvals = await openApprovals(schema.url, { key });
    const answering = await openApprovals(schema.url, { key });
    cleanups.push(async () => {
      await approvals.close();
      await answering.close();
    });
    const engine = new HookEngine();
    engine.register({
      name: 'ask-deploys',
      events: 'PreToolUse',
      matcher: { tool: 'deploy' },
      handler: () => ask('deploys need a person'),
    });
    const provider = scriptedProvider(DEPLOY);
    let answered: Promise<unknown> | undefined;
    const result = await createAgent({
      provider,
      tools: [deployTool(dir)],
      hooks: engine,
      cwd: dir,
      transcriptDir: dir,
      approvals,
      tenant: 'team-a',
      onEvent: (event) => {
        if (event.type === 'approval_wait' && event.waitedMs === 0)
          answered = answering.answer(event.approvalId, { decision: 'approve', by: 'dana', note: 'watch the error rate' });
      },
    }).run('ship it');
    expect(await answered).toMatchObject({ ok: true, approval: { tenant: 'team-a', state: 'approved' } });
    expect(result.stopReason).toBe('end_turn');
    expect(ranLog(dir)).toBe('deploy prod\n');
    expect(toolResultSeen(provider)!.content).toMatch(
      /^deployed to prod\n\nNote from dana, who approved this deploy call \(approval \w+\): watch the error rate$/,
    );
  });
});
