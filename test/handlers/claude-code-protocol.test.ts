import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HookEngine } from '../../src/core/engine.js';
import type { Outcome } from '../../src/core/outcome.js';
import { commandHandler } from '../../src/handlers/command.js';
import { makeContext, RESPONDERS } from './helpers.js';

const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-cc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const BASH_INPUT = { session_id: 's1', cwd: process.cwd(), tool_name: 'Bash', tool_input: { command: 'rm -rf /' } };
const DENY_JSON = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'rm -rf is not allowed' } });
const ALLOW_JSON = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'fine' } });

interface Reply {
  stdout?: string;
  stderr?: string;
  exit?: number;
}

const envOf = (reply: Reply): Record<string, string> => ({
  HOOK_STDOUT: reply.stdout ?? '',
  HOOK_STDERR: reply.stderr ?? '',
  HOOK_EXIT: String(reply.exit ?? 0),
});

async function fire(
  responder: (typeof RESPONDERS)[number],
  event: string,
  reply: Reply,
  input: Record<string, unknown> = BASH_INPUT,
  onError: 'block' | 'continue' = 'continue',
): Promise<Outcome> {
  const engine = new HookEngine({ logger: silent });
  engine.register({ name: 'script', events: event, onError, handler: commandHandler({ command: responder.shell, env: envOf(reply) }) });
  return engine.fire(event, input);
}

for (const responder of RESPONDERS) {
  describe(`claude-code protocol, ${responder.lang} script through the engine`, () => {
    it('exit 0 with no output: no opinion', async () => {
      const o = await fire(responder, 'PreToolUse', {});
      expect(o).toMatchObject({ blocked: false, decision: null, reason: null });
      expect(o.hooks[0]).toMatchObject({ status: 'ok', result: 'none', exitCode: 0 });
    });

    it('exit 0 with a deny object: denied with its reason', async () => {
      const o = await fire(responder, 'PreToolUse', { stdout: DENY_JSON });
      expect(o).toMatchObject({ blocked: true, decision: 'deny', reason: 'rm -rf is not allowed' });
    });

    it('exit 1 with a deny object: the JSON still decides', async () => {
      const o = await fire(responder, 'PreToolUse', { stdout: DENY_JSON, stderr: 'ignored', exit: 1 });
      expect(o).toMatchObject({ blocked: true, decision: 'deny', reason: 'rm -rf is not allowed' });
      expect(o.hooks[0]).toMatchObject({ status: 'ok', result: 'deny', exitCode: 1 });
    });

    it('exit 2 with an allow object: blocks with stderr as the reason', async () => {
      const o = await fire(responder, 'PreToolUse', { stdout: ALLOW_JSON, stderr: 'destructive command\n', exit: 2 });
      expect(o).toMatchObject({ blocked: true, decision: 'deny', reason: 'destructive command' });
      expect(o.hooks[0]).toMatchObject({ status: 'ok', result: 'deny', exitCode: 2 });
    });

    it('exit 2 on Stop: block (the agent keeps going), no permission decision', async () => {
      const o = await fire(responder, 'Stop', { stderr: 'tests are failing, fix them', exit: 2 }, { session_id: 's1' });
      expect(o).toMatchObject({ blocked: true, decision: null, reason: 'tests are failing, fix them', stop: false });
      expect(o.hooks[0]!.result).toBe('block');
    });

    it('exit 1 without JSON: a non-blocking error', async () => {
      const o = await fire(responder, 'PreToolUse', { stdout: 'some log line', stderr: 'boom\n', exit: 1 });
      expect(o).toMatchObject({ blocked: false, decision: null });
      expect(o.hooks[0]).toMatchObject({ status: 'error', exitCode: 1, error: 'exited with code 1: boom' });
    });

    it('exit 1 without JSON under onFailure block: fail-closed with the hook named', async () => {
      const o = await fire(responder, 'PreToolUse', { stderr: 'boom', exit: 1 }, BASH_INPUT, 'block');
      expect(o).toMatchObject({ blocked: true, decision: 'deny', reason: 'hook script failed: exited with code 1: boom' });
    });

    it('another exit code (3): a non-blocking error', async () => {
      const o = await fire(responder, 'PreToolUse', { exit: 3 });
      expect(o).toMatchObject({ blocked: false });
      expect(o.hooks[0]).toMatchObject({ status: 'error', exitCode: 3, error: 'exited with code 3' });
    });

    it('JSON after leading whitespace is read as JSON (legacy decision: block)', async () => {
      const stdout = `\n\n   \t${JSON.stringify({ decision: 'block', reason: 'lint errors' })}\n`;
      const o = await fire(responder, 'PostToolUse', { stdout }, { ...BASH_INPUT, tool_response: 'ok' });
      expect(o).toMatchObject({ blocked: true, reason: 'lint errors' });
    });

    it('plain stdout on SessionStart becomes context', async () => {
      const o = await fire(responder, 'SessionStart', { stdout: 'Branch: main\nOpen issues: 3\n' }, { session_id: 's1', source: 'startup' });
      expect(o).toMatchObject({ blocked: false, additionalContext: 'Branch: main\nOpen issues: 3' });
    });

    it('plain stdout on UserPromptSubmit becomes context', async () => {
      const o = await fire(responder, 'UserPromptSubmit', { stdout: 'Current time: noon' }, { session_id: 's1', prompt: 'hi' });
      expect(o).toMatchObject({ blocked: false, additionalContext: 'Current time: noon' });
    });

    it('plain stdout elsewhere is ignored', async () => {
      const o = await fire(responder, 'PreToolUse', { stdout: 'checked 3 rules' });
      expect(o).toMatchObject({ blocked: false, decision: null, additionalContext: null });
      expect(o.hooks[0]).toMatchObject({ status: 'ok', result: 'none' });
    });

    it('stdout that starts with { but is not JSON: plain text, as Claude Code reads it (no opinion on PreToolUse)', async () => {
      const o = await fire(responder, 'PreToolUse', { stdout: '{ "decision": "block", oops' });
      expect(o).toMatchObject({ blocked: false, decision: null });
      expect(o.hooks[0]).toMatchObject({ status: 'ok', result: 'none' });
    });

    it('continue:false ends the turn after the tool (stop, not blocked)', async () => {
      const o = await fire(responder, 'PostToolUse', { stdout: JSON.stringify({ continue: false, stopReason: 'budget spent' }) });
      expect(o).toMatchObject({ stop: true, stopReason: 'budget spent', blocked: false });
      const pre = await fire(responder, 'PreToolUse', { stdout: JSON.stringify({ continue: false, stopReason: 'last one' }) });
      expect(pre).toMatchObject({ stop: true, stopReason: 'last one', blocked: false, decision: null });
    });

    it('updatedInput rewrites the tool input', async () => {
      const stdout = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'ls' } } });
      const o = await fire(responder, 'PreToolUse', { stdout });
      expect(o).toMatchObject({ blocked: false, decision: 'allow', updatedInput: { command: 'ls' } });
    });
  });
}

describe('claude-code protocol, direct calls', () => {
  const [bash] = RESPONDERS;

  it('sends the input JSON on stdin, exactly', async () => {
    const stdinFile = path.join(dir, 'stdin.json');
    const handler = commandHandler({ command: bash.shell, env: { HOOK_STDIN_FILE: stdinFile } });
    const input = { ...BASH_INPUT, hook_event_name: 'PreToolUse' };
    expect(await handler(input, makeContext())).toBeUndefined();
    expect(JSON.parse(readFileSync(stdinFile, 'utf8'))).toEqual(input);
  });

  it('returns the parsed object as Claude Code output', async () => {
    const handler = commandHandler({ command: bash.shell, env: envOf({ stdout: `  ${DENY_JSON}`, exit: 1 }) });
    expect(await handler({ ...BASH_INPUT, hook_event_name: 'PreToolUse' }, makeContext())).toEqual(JSON.parse(DENY_JSON));
  });

  it('exit 2 is deny on PermissionRequest and block on UserPromptSubmit', async () => {
    const handler = commandHandler({ command: bash.shell, env: envOf({ stderr: 'no', exit: 2 }) });
    expect(await handler({ hook_event_name: 'PermissionRequest' }, makeContext())).toEqual({ kind: 'deny', reason: 'no' });
    expect(await handler({ hook_event_name: 'UserPromptSubmit' }, makeContext())).toEqual({ kind: 'block', reason: 'no' });
  });

  it('exit 2 with empty stderr still blocks, with a reason that says why', async () => {
    const handler = commandHandler({ command: bash.shell, env: envOf({ exit: 2 }) });
    expect(await handler({ hook_event_name: 'PreToolUse' }, makeContext())).toEqual({ kind: 'deny', reason: 'No stderr output' });
  });

  it('an alias event name is read as its canonical event (PreToolCall = PreToolUse)', async () => {
    const handler = commandHandler({ command: bash.shell, env: envOf({ stderr: 'no', exit: 2 }) });
    expect(await handler({ hook_event_name: 'PreToolCall' }, makeContext())).toEqual({ kind: 'deny', reason: 'no' });
  });
});
