import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { context, HookEngine, deny } from '../../src/index.js';
import { answerHost, hostNamed } from '../../src/hosts/index.js';
import { TaskState } from '../../src/hosts/cline/task-state.js';

/**
 * Cline runs TaskStart and UserPromptSubmit detached and never reads their answers:
 * hookwise carries their context to the task's first PreToolUse, once
 * (src/hosts/cline/carried.ts). Each engine stands for one hookwise process or resident;
 * the task state is in files (HOOKWISE_STATE_DIR, test/setup/env.ts), so a new engine
 * (a resident restarted mid-task) finds what the last one did.
 */
const root = mkdtempSync(path.join(tmpdir(), 'hookwise-cline-carried-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const workspace = path.join(root, 'ws');
mkdirSync(workspace, { recursive: true });
const cline = hostNamed('cline');

const payload = (taskId: string, hookName: string, extra: Record<string, unknown> = {}) => ({
  clineVersion: '',
  hookName,
  timestamp: new Date().toISOString(),
  taskId,
  workspaceRoots: [workspace],
  agent_id: 'agent_1',
  ...extra,
});
const toolCall = (taskId: string, commands: string[]) =>
  payload(taskId, 'tool_call', { tool_call: { id: 'call_1', name: 'run_commands', input: { commands } } });

async function answer(engine: HookEngine, raw: Record<string, unknown>) {
  const inputs = cline.inputs(raw);
  const out = await answerHost(cline, engine, inputs[0]!.hook_event_name as string, inputs, undefined, workspace);
  expect(out.code).toBe(0);
  return out.stdout ? JSON.parse(out.stdout) : undefined;
}

/** An engine whose SessionStart adds context; `fired` counts the SessionStarts it ran. */
function sessionEngine() {
  const fired: string[] = [];
  const engine = new HookEngine().register({
    name: 'ctx',
    events: 'SessionStart',
    handler: (input) => {
      fired.push(String(input.source));
      return context('CTX-start session rules');
    },
  });
  return { engine, fired };
}

describe('SessionStart context in a Cline task', () => {
  it('the first PreToolUse fires SessionStart (startup) and carries its context; later ones do not', async () => {
    const { engine, fired } = sessionEngine();
    expect(await answer(engine, toolCall('task-a', ['ls']))).toEqual({ context: 'CTX-start session rules' });
    expect(await answer(engine, toolCall('task-a', ['ls']))).toBeUndefined();
    expect(fired).toEqual(['startup']);
  });

  it('a TaskStart that came first is not fired again: its recorded context goes with the first PreToolUse', async () => {
    const { engine, fired } = sessionEngine();
    // Cline does not read this answer; the record is what counts.
    await answer(engine, payload('task-b', 'agent_start', { taskStart: { taskMetadata: {} } }));
    expect(fired).toEqual(['startup']);
    const { engine: resident } = sessionEngine();
    expect(await answer(resident, toolCall('task-b', ['ls']))).toEqual({ context: 'CTX-start session rules' });
    expect(await answer(resident, toolCall('task-b', ['ls']))).toBeUndefined();
    expect(fired).toEqual(['startup']);
  });

  it('a TaskStart that comes after the first PreToolUse fired SessionStart fires nothing', async () => {
    const { engine, fired } = sessionEngine();
    expect(await answer(engine, toolCall('task-c', ['ls']))).toEqual({ context: 'CTX-start session rules' });
    expect(await answer(engine, payload('task-c', 'agent_start'))).toBeUndefined();
    expect(fired).toEqual(['startup']);
  });

  it('delivered once across processes: a restarted resident does not deliver it again', async () => {
    const first = sessionEngine();
    expect(await answer(first.engine, toolCall('task-d', ['ls']))).toEqual({ context: 'CTX-start session rules' });
    const restarted = sessionEngine();
    expect(await answer(restarted.engine, toolCall('task-d', ['ls']))).toBeUndefined();
    expect(restarted.fired).toEqual([]);
  });

  it('concurrent first calls: exactly one carries the context, SessionStart fires once', async () => {
    const { engine, fired } = sessionEngine();
    const answers = await Promise.all([1, 2, 3].map(() => answer(engine, toolCall('task-e', ['ls']))));
    expect(answers.filter((a) => a?.context === 'CTX-start session rules')).toHaveLength(1);
    expect(fired).toEqual(['startup']);
  });

  it('a TaskStart that claimed SessionStart and never recorded it (it failed): the PreToolUse fires it itself', async () => {
    TaskState.of('task:task-f').claim('session-start.fired');
    const { engine, fired } = sessionEngine();
    expect(await answer(engine, toolCall('task-f', ['ls']))).toEqual({ context: 'CTX-start session rules' });
    expect(fired).toEqual(['startup']);
  });

  it('a refused first call still carries the context, beside the refusal', async () => {
    const { engine } = sessionEngine();
    engine.register({ name: 'no', events: 'PreToolUse', handler: () => deny('REASON not here') });
    const json = await answer(engine, toolCall('task-g', ['rm -rf x']));
    expect(json.context).toBe('CTX-start session rules');
    expect(json.overrideInput.commands[0]).toContain('REASON not here');
  });
});

describe('UserPromptSubmit context in a Cline task', () => {
  it('the detached prompt hook records its context; the next PreToolUse carries it, once', async () => {
    const prompts: string[] = [];
    const engine = new HookEngine().register({
      name: 'ctx',
      events: 'UserPromptSubmit',
      handler: (input) => {
        prompts.push(String(input.prompt));
        return context(`CTX-prompt rules for: ${String(input.prompt)}`);
      },
    });
    await answer(engine, payload('task-p', 'prompt_submit', { userPromptSubmit: { prompt: 'fix the build', attachments: [] } }));
    expect(prompts).toEqual(['fix the build']);
    expect(await answer(engine, toolCall('task-p', ['ls']))).toEqual({ context: 'CTX-prompt rules for: fix the build' });
    expect(await answer(engine, toolCall('task-p', ['ls']))).toBeUndefined();
    await answer(engine, payload('task-p', 'prompt_submit', { userPromptSubmit: { prompt: 'and the tests', attachments: [] } }));
    expect(await answer(engine, toolCall('task-p', ['ls']))).toEqual({ context: 'CTX-prompt rules for: and the tests' });
  });
});
