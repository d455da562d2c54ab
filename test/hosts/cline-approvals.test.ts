import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openApprovals } from '../../src/approvals/index.js';
import { ask, HookEngine } from '../../src/index.js';
import { answerHost, hostNamed } from '../../src/hosts/index.js';
import { runCli } from '../cli/run-cli.js';

/**
 * `ask` in a headless Cline run with durable approvals on (HOOKWISE_APPROVALS=1,
 * src/hosts/cline/approvals.ts): a pending approval, a refusal naming it and the command
 * that answers it, and the same call made again after the answer runs (once). The store is
 * the project's audit database; the answer is given with the real `hookwise approvals`.
 */
const root = mkdtempSync(path.join(tmpdir(), 'hookwise-cline-approvals-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const workspace = path.join(root, 'ws');
mkdirSync(workspace, { recursive: true });
const db = path.join(workspace, '.hookwise', 'audit.db');
const cline = hostNamed('cline');
const saved = { approvals: process.env.HOOKWISE_APPROVALS, audit: process.env.HOOKWISE_AUDIT_DB };
beforeEach(() => {
  process.env.HOOKWISE_APPROVALS = '1';
  delete process.env.HOOKWISE_AUDIT_DB;
});
afterEach(() => {
  for (const [name, value] of [
    ['HOOKWISE_APPROVALS', saved.approvals],
    ['HOOKWISE_AUDIT_DB', saved.audit],
  ] as const)
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
});

let calls = 0;
const toolCall = (taskId: string, commands: string[]) => ({
  hookName: 'tool_call',
  taskId,
  workspaceRoots: [workspace],
  tool_call: { id: `call_${++calls}`, name: 'run_commands', input: { commands } },
});
const askDeploys = () =>
  new HookEngine().register({
    name: 'ask-deploys',
    events: 'PreToolUse',
    matcher: { tool: 'Bash', command: 'deploy' },
    handler: () => ask('deploys need a person'),
  });

async function answer(engine: HookEngine, raw: Record<string, unknown>) {
  const inputs = cline.inputs(raw);
  const out = await answerHost(cline, engine, 'PreToolUse', inputs, undefined, workspace);
  expect(out.code).toBe(0);
  return out.stdout ? JSON.parse(out.stdout) : undefined;
}

/** What the refused call tells the model when Cline runs its replacement command. */
const told = (json: { overrideInput: { commands: string[] } }) =>
  spawnSync('sh', ['-c', json.overrideInput.commands[0]!], { cwd: workspace, encoding: 'utf8' }).stderr;
const approvalIdIn = (text: string) => /approval ([\w-]+): `hookwise approvals approve \1`/.exec(text)?.[1];

describe('Cline ask with durable approvals', () => {
  it('pending: refused with the id and the command; approved: the same call runs once; then it asks anew', async () => {
    const engine = askDeploys();
    const first = told(await answer(engine, toolCall('task-1', ['./deploy prod'])));
    const id = approvalIdIn(first);
    expect(id, first).toBeDefined();
    expect(first).toContain('deploys need a person');

    // Made again before anyone answered: the same record, still refused.
    expect(approvalIdIn(told(await answer(engine, toolCall('task-1', ['./deploy prod']))))).toBe(id);
    const store = await openApprovals(db);
    try {
      expect(await store.get(id!)).toMatchObject({
        state: 'pending',
        tool: 'Bash',
        input: { command: './deploy prod' },
        sessionId: 'task-1',
      });
    } finally {
      await store.close();
    }

    const approved = await runCli(['approvals', 'approve', id!, '--as', 'alice', '--note', 'go ahead'], {
      cwd: workspace,
      unset: ['HOOKWISE_AUDIT_DB'],
    });
    expect(approved.code, approved.stderr).toBe(0);

    // A re-run (a new Cline task) makes the same call: it runs, the note reaches the model.
    const rerun = await answer(engine, toolCall('task-2', ['./deploy prod']));
    expect(rerun?.overrideInput).toBeUndefined();
    expect(rerun?.context).toContain('go ahead');

    // The answer let one call through: the next identical call is a new question.
    const again = approvalIdIn(told(await answer(engine, toolCall('task-2', ['./deploy prod']))));
    expect(again).toBeDefined();
    expect(again).not.toBe(id);
  });

  it('denied: the same call is refused with the answer', async () => {
    const engine = askDeploys();
    const id = approvalIdIn(told(await answer(engine, toolCall('task-3', ['./deploy staging']))))!;
    const denied = await runCli(['approvals', 'deny', id, '--as', 'bob', '--note', 'not today'], {
      cwd: workspace,
      unset: ['HOOKWISE_AUDIT_DB'],
    });
    expect(denied.code, denied.stderr).toBe(0);
    const text = told(await answer(engine, toolCall('task-3', ['./deploy staging'])));
    expect(text).toContain(`bob denied Bash (approval ${id}): not today`);
  });

  it('a store that cannot be opened refuses the call (fail closed), naming it', async () => {
    process.env.HOOKWISE_AUDIT_DB = path.join(root, 'no-such-dir', 'sub', 'audit.db');
    rmSync(path.join(root, 'no-such-dir'), { recursive: true, force: true });
    // A file where the database's folder would be: nothing can be created there.
    spawnSync('sh', ['-c', `echo x > ${JSON.stringify(path.join(root, 'no-such-dir'))}`]);
    const text = told(await answer(askDeploys(), toolCall('task-4', ['./deploy prod'])));
    expect(text).toMatch(/deploys need a person: a person must approve this call, and the approval store .* failed/);
  });

  it('without HOOKWISE_APPROVALS an ask is refused saying a person is needed, and nothing is stored', async () => {
    delete process.env.HOOKWISE_APPROVALS;
    const text = told(await answer(askDeploys(), toolCall('task-5', ['./deploy qa'])));
    expect(text).toMatch(/a person must approve this call, and Cline cannot ask one from a hook: refused/);
    expect(approvalIdIn(text)).toBeUndefined();
  });
});
