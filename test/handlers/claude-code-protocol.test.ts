import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HookEngine } from '../../src/index.js';
import { asHook } from '../../src/core/hook.js';
import type { Outcome } from '../../src/core/outcome.js';
import { commandHandler } from '../../src/handlers/command.js';
import { claudeCodeProtocol } from '../../src/handlers/protocols/claude-code.js';
import { makeContext, RESPONDERS } from './helpers.js';

const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-cc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const BASH_INPUT = { session_id: 's1', cwd: process.cwd(), tool_name: 'Bash', tool_input: { command: 'rm -rf /' } };
const DENY_JSON = JSON.stringify({
  hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'rm -rf is not allowed' },
});
const ALLOW_JSON = JSON.stringify({
  hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'fine' },
});

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
  // A command hook, registered untyped as a settings file's are.
  engine.register(
    asHook({ name: 'script', events: event, onError, handler: commandHandler({ command: responder.shell, env: envOf(reply) }) }),
  );
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
      const o = await fire(
        responder,
        'SessionStart',
        { stdout: 'Branch: main\nOpen issues: 3\n' },
        { session_id: 's1', source: 'startup' },
      );
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
      const stdout = JSON.stringify({
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'ls' } },
      });
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

describe('writing an Outcome as Claude Code output (src/compat/claude-code.ts)', async () => {
  const { toClaudeCodeOutput } = await import('../../src/compat/claude-code.js');
  const { emptyOutcome } = await import('../../src/core/outcome.js');
  const outcome = (event: string, fields: Partial<Outcome>): Outcome => ({ ...emptyOutcome(event), ...fields });

  it('a replaced output is updatedToolOutput, and updatedMCPToolOutput for MCP tools only', () => {
    const replaced = { stdout: '[redacted]', stderr: '' };
    expect(toClaudeCodeOutput(outcome('PostToolUse', { updatedOutput: replaced }), 'Bash')).toEqual({
      hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: replaced },
    });
    expect(toClaudeCodeOutput(outcome('PostToolUse', { updatedOutput: 'rows' }), 'mcp__db__query')).toEqual({
      hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: 'rows' },
    });
  });

  it('Stop context, PermissionDenied retry, Elicitation action/content and WorktreeCreate path reach the output', () => {
    expect(toClaudeCodeOutput(outcome('Stop', { additionalContext: 'one more check' }))).toEqual({
      hookSpecificOutput: { hookEventName: 'Stop', additionalContext: 'one more check' },
    });
    expect(toClaudeCodeOutput(outcome('PermissionDenied', { retry: { delayMs: 0 } }))).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionDenied', retry: true },
    });
    expect(toClaudeCodeOutput(outcome('Elicitation', { elicitation: { action: 'accept', content: { name: 'x' } } }))).toEqual({
      hookSpecificOutput: { hookEventName: 'Elicitation', action: 'accept', content: { name: 'x' } },
    });
    expect(toClaudeCodeOutput(outcome('WorktreeCreate', { worktreePath: '/w/feature' }))).toEqual({
      hookSpecificOutput: { hookEventName: 'WorktreeCreate', worktreePath: '/w/feature' },
    });
  });

  it('what it writes reads back to the same Outcome fields', async () => {
    for (const [event, fields, tool] of [
      ['PreToolUse', { decision: 'deny', blocked: true, reason: 'no' }, 'Bash'],
      ['PostToolUse', { updatedOutput: { stdout: 'x' } }, 'Bash'],
      ['Elicitation', { elicitation: { action: 'decline' }, blocked: true, reason: 'no thanks' }, undefined],
      ['WorktreeCreate', { worktreePath: '/w' }, undefined],
      ['PermissionDenied', { retry: { delayMs: 0 } }, 'Bash'],
    ] as Array<[string, Partial<Outcome>, string | undefined]>) {
      const engine = new HookEngine({ logger: silent });
      const written = toClaudeCodeOutput(outcome(event, fields), tool);
      engine.register(asHook({ name: 'h', events: event, handler: () => written }));
      expect(await engine.fire(event, { session_id: 's', tool_name: tool })).toMatchObject(fields);
    }
  });
});

describe('reading: Claude Code output from command hooks', () => {
  const read = (stdout: string, event: string, exitCode = 0, input: Record<string, unknown> = {}) =>
    claudeCodeProtocol.read({ exitCode, stdout, stderr: 'why', stdoutTruncated: false }, event, { input });

  it('PermissionDenied retry, Elicitation action and content, WorktreeCreate path (JSON or plain stdout)', async () => {
    const engine = new HookEngine({ logger: silent });
    // Untyped: the input carries the hook's stdout in a field of this test's own, `out`.
    engine.register(
      asHook({
        name: 'h',
        events: ['PermissionDenied', 'Elicitation', 'WorktreeCreate'],
        handler: (i) => read(String(i.out), String(i.hook_event_name)),
      }),
    );
    const fire = (event: string, out: unknown) =>
      engine.fire(event, { session_id: 's', out: typeof out === 'string' ? out : JSON.stringify(out) });
    expect((await fire('PermissionDenied', { hookSpecificOutput: { hookEventName: 'PermissionDenied', retry: true } })).retry).toEqual({
      delayMs: 0,
    });
    expect(
      await fire('Elicitation', { hookSpecificOutput: { hookEventName: 'Elicitation', action: 'accept', content: { a: 1 } } }),
    ).toMatchObject({ elicitation: { action: 'accept', content: { a: 1 } }, blocked: false });
    expect(
      await fire('Elicitation', { reason: 'not now', hookSpecificOutput: { hookEventName: 'Elicitation', action: 'decline' } }),
    ).toMatchObject({ blocked: true, reason: 'not now' });
    expect((await fire('WorktreeCreate', '/tmp/wt-1\n')).worktreePath).toBe('/tmp/wt-1');
  });

  it('a cut JSON answer is a failure; broken JSON that was not cut is plain text', () => {
    expect(() =>
      claudeCodeProtocol.read({ exitCode: 0, stdout: '{"decision": "bl', stderr: '', stdoutTruncated: true }, 'PreToolUse'),
    ).toThrow(/the answer was cut/);
    expect(read('{"decision": "bl', 'PreToolUse')).toBeUndefined();
    expect(read('{"decision": "bl', 'UserPromptSubmit')).toEqual({ kind: 'context', additionalContext: '{"decision": "bl' });
  });

  it('JSON with exit 2: the JSON applies and stderr blocks where blocking errors count', () => {
    expect(read(JSON.stringify({ systemMessage: 'm' }), 'PreToolUse', 2)).toEqual({ systemMessage: 'm', decision: 'block', reason: 'why' });
    expect(read(JSON.stringify({ systemMessage: 'm' }), 'SessionStart', 2)).toEqual({ systemMessage: 'm' });
  });
});
