import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HookEngine } from '../../src/index.js';
import { asHook } from '../../src/core/hook.js';
import { commandHandler } from '../../src/handlers/command.js';
import { workflowEventName, workflowProtocol } from '../../src/handlers/protocols/workflow.js';
import { makeContext, RESPONDERS, script } from './helpers.js';

const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-workflow-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const WORKFLOW = `python3 ${script('workflow.py')}`;

function engineWith(
  command: string,
  env: Record<string, string> = {},
  events: string[] = ['PreToolCall', 'PostToolCall', 'SessionStart', 'StepEnd'],
): HookEngine {
  const engine = new HookEngine({ logger: silent });
  // A command hook, registered untyped as a config file's are.
  engine.register(asHook({ name: 'wf', events, onError: 'continue', handler: commandHandler({ command, protocol: 'workflow', env }) }));
  return engine;
}

const call = (tool: string, args: Record<string, unknown> = { sql: 'SELECT * FROM users' }) => ({
  session_id: 's1',
  step_name: 'Agent',
  tool_name: tool,
  tool_input: args,
});

describe('workflow protocol (seed 000)', () => {
  it("sends {event, stepName, toolName, toolArgs} with seed 000's event name and toolArgs as a JSON string", async () => {
    const stdinFile = path.join(dir, 'stdin.json');
    const engine = engineWith(WORKFLOW, { HOOK_STDIN_FILE: stdinFile });
    await engine.fire('PreToolUse', call('run_query'));
    expect(JSON.parse(readFileSync(stdinFile, 'utf8'))).toEqual({
      event: 'PreToolCall',
      stepName: 'Agent',
      toolName: 'run_query',
      toolArgs: '{"sql":"SELECT * FROM users"}',
    });
  });

  it('maps canonical events to the names seed 000 has, and keeps the canonical name elsewhere', () => {
    expect(
      [
        'SessionStart',
        'SessionEnd',
        'PreModelCall',
        'PreToolUse',
        'PostToolUse',
        'PostToolUseFailure',
        'StepEnd',
        'SubagentStart',
        'SubagentStop',
      ].map(workflowEventName),
    ).toEqual([
      'WorkflowStarting',
      'WorkflowCompleted',
      'PreAgentPrompt',
      'PreToolCall',
      'PostToolCall',
      'PostToolCallFailure',
      'StepCompleted',
      'SubWorkflowStarting',
      'SubWorkflowCompleted',
    ]);
    expect(workflowEventName('PreCompact')).toBe('PreCompact');
    expect(workflowEventName('Stop')).toBe('Stop');
    expect(JSON.parse(workflowProtocol.stdin({ session_id: 's' }, 'SessionStart'))).toEqual({
      event: 'WorkflowStarting',
      stepName: null,
      toolName: null,
      toolArgs: null,
    });
  });

  it('Decision 0 allows with its reason', async () => {
    const o = await engineWith(WORKFLOW).fire('PreToolCall', call('run_query'));
    expect(o).toMatchObject({ blocked: false, decision: 'allow', reason: 'Query approved' });
  });

  it('Decision 1 denies', async () => {
    const o = await engineWith(WORKFLOW).fire('PreToolCall', call('delete_database'));
    expect(o).toMatchObject({ blocked: true, decision: 'deny', reason: 'delete_database is not allowed' });
  });

  it('Decision 2 modifies with ModifiedArgs given as a JSON string', async () => {
    const o = await engineWith(WORKFLOW).fire('PreToolCall', call('rewrite'));
    expect(o).toMatchObject({ blocked: false, updatedInput: { sql: 'SELECT * FROM users', limit: 10 } });
    expect(o.hooks[0]!.result).toBe('modify');
  });

  it('Decision 2 modifies with ModifiedArgs given as an object', async () => {
    const o = await engineWith(WORKFLOW).fire('PreToolCall', call('rewrite_obj'));
    expect(o).toMatchObject({ blocked: false, updatedInput: { sql: 'SELECT 1' } });
  });

  it('a non-zero exit denies with "Command exited with code N"', async () => {
    const o = await engineWith(WORKFLOW).fire('PreToolCall', call('crash'));
    expect(o).toMatchObject({ blocked: true, decision: 'deny', reason: 'Command exited with code 3' });
    expect(o.hooks[0]).toMatchObject({ status: 'ok', exitCode: 3 });
  });

  it('a non-zero exit off a permission event blocks', async () => {
    const o = await engineWith(`${RESPONDERS[0].shell}`, { HOOK_EXIT: '1' }).fire('StepCompleted', {
      session_id: 's1',
      step_name: 'build',
    });
    expect(o).toMatchObject({ blocked: true, decision: null, reason: 'Command exited with code 1' });
  });

  it('unparseable stdout lets the call through', async () => {
    const o = await engineWith(WORKFLOW).fire('PreToolCall', call('garbage'));
    expect(o).toMatchObject({ blocked: false, decision: null });
    expect(o.hooks[0]).toMatchObject({ status: 'ok', result: 'none' });
  });

  for (const responder of RESPONDERS) {
    it(`${responder.lang}: empty stdout lets the call through; a deny answer denies`, async () => {
      const empty = await engineWith(responder.shell, { HOOK_EXIT: '0' }).fire('PreToolCall', call('x'));
      expect(empty).toMatchObject({ blocked: false, decision: null });
      const denied = await engineWith(responder.shell, { HOOK_STDOUT: '  {"Decision": 1, "Reason": "no"}\n' }).fire(
        'PreToolCall',
        call('x'),
      );
      expect(denied).toMatchObject({ blocked: true, decision: 'deny', reason: 'no' });
    });
  }

  it('accepts the enum names and reports an unknown Decision as a failure', async () => {
    const handler = (stdout: string) =>
      commandHandler({ command: RESPONDERS[0].shell, protocol: 'workflow', env: { HOOK_STDOUT: stdout } });
    expect(await handler('{"Decision":"Deny","Reason":"r"}')({ hook_event_name: 'PreToolUse' }, makeContext())).toEqual({
      kind: 'deny',
      reason: 'r',
    });
    await expect(handler('{"Decision":7}')({ hook_event_name: 'PreToolUse' }, makeContext())).rejects.toThrow(
      'workflow hook answered an unknown Decision 7; expected 0 (Allow), 1 (Deny) or 2 (Modify)',
    );
    await expect(handler('{"Decision":2,"ModifiedArgs":"not json"}')({ hook_event_name: 'PreToolUse' }, makeContext())).rejects.toThrow(
      'workflow hook answered Decision 2 (Modify) without ModifiedArgs as a JSON object: "not json"',
    );
  });
});
