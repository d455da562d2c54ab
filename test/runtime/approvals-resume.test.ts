import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { slack } from '../support/slack.js';
import { z } from 'zod';
import { openApprovals, type AnyApprovalStore, type Approval } from '../../src/approvals/index.js';
import { openAuditStore, queryAudit, verifyAudit, type AuditStore } from '../../src/audit/index.js';
import { ask, defineHook, HookEngine, type RawHookInput } from '../../src/index.js';
import { scriptedProvider } from '../../src/providers/scripted.js';
import { RunCheckpointError, createAgent, defineTool, loadCheckpoint, type RuntimeEvent } from '../../src/runtime/index.js';
import { tempDir } from './helpers.js';

// A run killed (SIGKILL) while a call waits for an approval resumes from the
// checkpoint written as the wait began: the calls without a result run, the ask
// finds its approval again by its key, and only then is the model called.
// The child imports dist/: `npm run build` first (npm test does it).

const CHILD = fileURLToPath(new URL('../fixtures/approvals-runtime/wait-child.mjs', import.meta.url));
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Killed {
  dir: string;
  db: string;
  sessionId: string;
  checkpoint: string;
  audit: AuditStore;
  approvals: AnyApprovalStore;
  /** The approval the child was waiting on when it was killed. */
  pending: Approval;
}

/** Runs the child until its approval is pending, kills it with SIGKILL, and opens the stores it left behind. */
async function killWhileWaiting(): Promise<Killed> {
  const dir = tempDir('hookwise-approvals-kill-');
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const db = path.join(dir, 'audit.db');
  const sessionId = 'killed-while-waiting';
  const child = spawn(process.execPath, [CHILD, dir, sessionId], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  let ended = false;
  void exited.then(() => (ended = true));

  const checkpoint = path.join(dir, `${sessionId}.checkpoint.json`);
  // The checkpoint is written as the wait begins, just before the request: from then on the database is there.
  const pending = await until(async () => {
    if (ended) throw new Error(`the child ended before its approval was pending: ${stderr}`);
    if (!existsSync(checkpoint)) return undefined;
    const store = await openApprovals(db);
    try {
      return (await store.list({ state: 'pending' }))[0];
    } finally {
      await store.close();
    }
  });
  child.kill('SIGKILL');
  expect(await exited).toEqual({ code: null, signal: 'SIGKILL' });

  const audit = openAuditStore({ path: db });
  const approvals = await openApprovals(db, { audit });
  cleanups.push(async () => {
    await approvals.close();
    await audit.close();
  });
  return { dir, db, sessionId, checkpoint, audit, approvals, pending };
}

/** Polls `probe` until it returns a value; generous, bounded. */
async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = slack(30_000)): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`nothing after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The same agent as the child's, with a provider for what comes after the killed turn. */
function resumingAgent(k: Killed, onEvent: (event: RuntimeEvent) => void = () => {}) {
  const logged = (line: string) => appendFileSync(path.join(k.dir, 'ran.log'), `${line}\n`);
  const engine = new HookEngine();
  const fired: RawHookInput[] = [];
  engine.register({ name: 'ask-deploys', events: 'PreToolUse', matcher: { tool: 'deploy' }, handler: () => ask('deploys need a person') });
  engine.register(
    defineHook({
      name: 'recorder',
      events: ['SessionStart', 'PreToolUse', 'PostToolBatch', 'StepEnd', 'Notification'],
      priority: 1_000_000,
      handler: (input) => void fired.push(structuredClone(input)),
    }),
  );
  const provider = scriptedProvider([{ text: 'All done.' }]);
  const agent = createAgent({
    provider,
    tools: [
      defineTool({
        name: 'note',
        description: 'Write a note',
        input: z.object({ text: z.string() }),
        run: ({ text }) => {
          logged(`note ${text}`);
          return 'noted';
        },
      }),
      defineTool({
        name: 'deploy',
        description: 'Deploy the service',
        input: z.object({ target: z.string() }),
        run: ({ target }) => {
          logged(`deploy ${target}`);
          return `deployed to ${target}`;
        },
      }),
    ],
    hooks: engine,
    cwd: k.dir,
    transcriptDir: k.dir,
    checkpointDir: k.dir,
    audit: k.audit,
    approvals: k.approvals,
    onEvent,
  });
  return { agent, provider, fired };
}

describe('a run killed while it waits for an approval', () => {
  it('left a version 2 checkpoint inside the step: the call that ran, the one waiting, the one not reached', async () => {
    const k = await killWhileWaiting();
    expect(k.pending).toMatchObject({ key: `${k.sessionId}:call_0_1`, tool: 'deploy', input: { target: 'prod' }, state: 'pending' });
    const saved = loadCheckpoint(k.checkpoint);
    expect(saved).toMatchObject({
      version: 2,
      session_id: k.sessionId,
      step: 0,
      batch: { results: [{ tool_use_id: 'call_0_0', status: 'ok' }] },
    });
    expect(saved.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(readFileSync(path.join(k.dir, 'ran.log'), 'utf8')).toBe('note before\n');
  });

  it('answered meanwhile: the resumed run runs the waiting call and the rest once, then the model sees every result and the note', async () => {
    const k = await killWhileWaiting();
    const answered = await k.approvals.answer(k.pending.id, { decision: 'approve', by: 'alice', note: 'approved for the 14:00 window' });
    expect(answered.ok).toBe(true);

    const { agent, provider, fired } = resumingAgent(k);
    const result = await agent.resume(k.checkpoint);

    expect(result).toMatchObject({ stopReason: 'end_turn', text: 'All done.', sessionId: k.sessionId });
    // Each tool ran exactly once across both processes.
    expect(readFileSync(path.join(k.dir, 'ran.log'), 'utf8')).toBe('note before\ndeploy prod\nnote after\n');
    // The first model call of the resumed run got the whole turn's results, the note beside the deploy's.
    expect(provider.requests[0]!.filter((m) => m.role === 'tool').map((m) => m.role === 'tool' && [m.toolCallId, m.content])).toEqual([
      ['call_0_0', 'noted'],
      [
        'call_0_1',
        `deployed to prod\n\nNote from alice, who approved this deploy call (approval ${k.pending.id}): approved for the 14:00 window`,
      ],
      ['call_0_2', 'noted'],
    ]);
    // No second question: the ask found the same record by its key, already answered (so no Notification either).
    expect(await k.approvals.list()).toHaveLength(1);
    const events = fired.map((i) => i.hook_event_name);
    expect(events).toEqual(['SessionStart', 'PreToolUse', 'PreToolUse', 'PostToolBatch', 'StepEnd', 'StepEnd']);
    expect(fired[0]).toMatchObject({ source: 'resume', session_id: k.sessionId });
    expect((fired[3]!.tool_calls as Array<{ tool_use_id: string; status: string }>).map((c) => [c.tool_use_id, c.status])).toEqual([
      ['call_0_0', 'ok'],
      ['call_0_1', 'ok'],
      ['call_0_2', 'ok'],
    ]);
    expect(fired[4]!.step).toEqual({ index: 0, name: 'tools' });
    // Back to a checkpoint between steps, readable by any version.
    expect(loadCheckpoint(k.checkpoint)).toMatchObject({ version: 1, step: 2 });

    await k.audit.flush();
    const tools = queryAudit(k.db, { kind: 'tool' }).map((r) => r.data as { tool_use_id: string; approval_id?: string });
    expect(tools.filter((t) => t.tool_use_id === 'call_0_1')).toEqual([expect.objectContaining({ approval_id: k.pending.id })]);
    expect(queryAudit(k.db, { kind: 'approval' }).map((r) => (r.data as { action: string }).action)).toEqual(['request', 'answer']);
    expect(verifyAudit(k.db)).toMatchObject({ ok: true });
  });

  it('still pending: the resumed run waits on the same approval, and a denial’s note reaches the model', async () => {
    const k = await killWhileWaiting();
    const answers: Promise<unknown>[] = [];
    const waitedOn: string[] = [];
    const { agent, provider } = resumingAgent(k, (event) => {
      if (event.type === 'approval_wait' && event.waitedMs === 0) {
        waitedOn.push(event.approvalId);
        answers.push(k.approvals.answer(event.approvalId, { decision: 'deny', by: 'bob', note: 'freeze until Monday' }));
      }
    });
    const result = await agent.resume(k.checkpoint);
    expect(await Promise.all(answers)).toEqual([expect.objectContaining({ ok: true })]);

    expect(waitedOn).toEqual([k.pending.id]);
    expect(result.stopReason).toBe('end_turn');
    expect(readFileSync(path.join(k.dir, 'ran.log'), 'utf8')).toBe('note before\nnote after\n');
    const deploy = provider.requests[0]!.find((m) => m.role === 'tool' && m.toolCallId === 'call_0_1');
    expect(deploy).toMatchObject({
      content: `Error: Permission denied: bob denied deploy (approval ${k.pending.id}): freeze until Monday. The tool was not run.`,
      isError: true,
    });
    expect(await k.approvals.list()).toHaveLength(1);
  });
});

describe('version 2 checkpoints', () => {
  const base = {
    version: 2,
    session_id: 's',
    saved_at: '2025-01-01T00:00:00.000Z',
    cwd: '/',
    transcript_path: '/t.jsonl',
    step: 0,
    usage: { inputTokens: 0, outputTokens: 0 },
    stop_hook_blocks: 0,
    subagents: 0,
  };
  const assistant = {
    role: 'assistant',
    content: '',
    toolCalls: [
      { id: 'a', name: 'note', input: {} },
      { id: 'b', name: 'deploy', input: {} },
    ],
  };

  function write(data: unknown): string {
    const dir = tempDir('hookwise-cp2-');
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'bad.checkpoint.json');
    writeFileSync(file, JSON.stringify(data));
    return file;
  }

  it('one whose batch names a call without a result is refused, naming the field', () => {
    const file = write({
      ...base,
      messages: [{ role: 'user', content: 'go' }, assistant],
      batch: { results: [{ tool_use_id: 'a', status: 'ok', tool_input: {} }] },
    });
    expect(() => loadCheckpoint(file)).toThrow(RunCheckpointError);
    expect(() => loadCheckpoint(file)).toThrow(
      /invalid checkpoint at batch\.results\.0\.tool_use_id: "a" is not a call of the last assistant message with a result/,
    );
  });

  it('one with nothing unfinished, or without its batch, is refused', () => {
    const finished = write({
      ...base,
      messages: [
        { role: 'user', content: 'go' },
        assistant,
        { role: 'tool', toolCallId: 'a', name: 'note', content: 'noted' },
        { role: 'tool', toolCallId: 'b', name: 'deploy', content: 'deployed' },
      ],
      batch: { results: [] },
    });
    expect(() => loadCheckpoint(finished)).toThrow(/invalid checkpoint at batch: every call of the last assistant message has a result/);
    const noBatch = write({ ...base, messages: [{ role: 'user', content: 'go' }, assistant] });
    expect(() => loadCheckpoint(noBatch)).toThrow(/invalid checkpoint at batch:/);
  });
});
