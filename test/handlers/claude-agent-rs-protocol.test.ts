import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HookEngine } from '../../src/index.js';
import { commandHandler } from '../../src/handlers/command.js';
import { snakeCaseEvent } from '../../src/handlers/protocols/claude-agent-rs.js';
import { makeContext, RESPONDERS, script } from './helpers.js';

const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-agent-rs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const AGENT_RS = `node ${script('agent-rs.mjs')}`;

function engineWith(command: string, env: Record<string, string> = {}): HookEngine {
  const engine = new HookEngine({ logger: silent });
  engine.register({
    name: 'rs',
    events: ['PreToolUse', 'PermissionRequest', 'UserPromptSubmit'],
    onError: 'continue',
    handler: commandHandler({ command, protocol: 'claude-agent-rs', env }),
  });
  return engine;
}

const bash = (command: string) => ({ session_id: 'abc-123', tool_name: 'Bash', tool_input: { command } });

describe('claude-agent-rs protocol (seed 003)', () => {
  it('sends {event: snake_case, session_id, tool_name, tool_input}', async () => {
    const stdinFile = path.join(dir, 'stdin.json');
    await engineWith(AGENT_RS, { HOOK_STDIN_FILE: stdinFile }).fire('pre_tool_use', bash('rm -rf /'));
    expect(JSON.parse(readFileSync(stdinFile, 'utf8'))).toEqual({
      event: 'pre_tool_use',
      session_id: 'abc-123',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf /' },
    });
    expect(['PreToolUse', 'UserPromptSubmit', 'SessionStart', 'PostToolUseFailure', 'pre_compact'].map(snakeCaseEvent)).toEqual([
      'pre_tool_use',
      'user_prompt_submit',
      'session_start',
      'post_tool_use_failure',
      'pre_compact',
    ]);
  });

  it('continue_execution:false blocks the operation (deny on PreToolUse), not the agent', async () => {
    const o = await engineWith(AGENT_RS).fire('PreToolUse', bash('rm -rf /'));
    expect(o).toMatchObject({ blocked: true, decision: 'deny', reason: 'Dangerous command blocked', stop: false });
  });

  it('continue_execution:false on UserPromptSubmit is a block', async () => {
    const o = await engineWith(RESPONDERS[1].shell, { HOOK_STDOUT: '{"continue_execution": false, "stop_reason": "off topic"}' }).fire(
      'UserPromptSubmit',
      { session_id: 's', prompt: 'x' },
    );
    expect(o).toMatchObject({ blocked: true, decision: null, reason: 'off topic', stop: false });
    expect(o.hooks[0]!.result).toBe('block');
  });

  it('updated_input rewrites the tool input; suppress_logging maps to suppressOutput', async () => {
    const o = await engineWith(AGENT_RS).fire('PreToolUse', bash('ls'));
    expect(o).toMatchObject({ blocked: false, decision: null, updatedInput: { command: 'ls -la' }, suppressOutput: true });
  });

  it('system_message and additional_context pass through', async () => {
    const o = await engineWith(AGENT_RS).fire('PreToolUse', bash('say'));
    expect(o).toMatchObject({ blocked: false, systemMessage: 'heads up', additionalContext: 'repo is clean' });
  });

  it('a non-zero exit blocks, with stderr as the reason', async () => {
    const o = await engineWith(AGENT_RS).fire('PermissionRequest', bash('fail'));
    expect(o).toMatchObject({ blocked: true, decision: 'deny', reason: 'policy engine unavailable' });
    expect(o.hooks[0]).toMatchObject({ status: 'ok', exitCode: 1 });
  });

  it('a non-zero exit with empty stderr names the code', async () => {
    const handler = commandHandler({ command: 'exit 4', protocol: 'claude-agent-rs' });
    expect(await handler({ hook_event_name: 'PreToolUse' }, makeContext())).toEqual({ kind: 'deny', reason: 'Command exited with code 4' });
  });

  it('empty or unparseable stdout lets it go on', async () => {
    const garbage = await engineWith(AGENT_RS).fire('PreToolUse', bash('garbage'));
    expect(garbage).toMatchObject({ blocked: false, decision: null });
    const empty = await engineWith(AGENT_RS).fire('PreToolUse', bash('echo'));
    expect(empty).toMatchObject({ blocked: false, decision: null });
    expect(empty.hooks[0]).toMatchObject({ status: 'ok', result: 'none' });
  });

  for (const responder of RESPONDERS) {
    it(`${responder.lang}: a HookOutput with leading whitespace is read`, async () => {
      const o = await engineWith(responder.shell, { HOOK_STDOUT: '\n  {"continue_execution": false, "stop_reason": "nope"}' }).fire(
        'PreToolUse',
        bash('x'),
      );
      expect(o).toMatchObject({ blocked: true, decision: 'deny', reason: 'nope' });
    });
  }
});
