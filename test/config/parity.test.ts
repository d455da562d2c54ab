import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { engineFor, loadConfig } from '../../src/config/load.js';
import { agentHandler } from '../../src/handlers/agent.js';
import { scriptedProvider } from '../../src/providers/scripted.js';
import { makeContext } from '../handlers/helpers.js';

/**
 * Claude Code 2.1.197's behaviours that hookwise reproduces for settings hooks
 * (docs/claude-code.md#parity). test/differential/ checks the same against real Claude Code.
 */
const root = mkdtempSync(path.join(tmpdir(), 'hookwise-parity-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

/** A project with .claude/settings.json and scripts in .claude/hooks/; each script logs a line per run. */
async function project(settings: Record<string, unknown>, scripts: Record<string, string> = {}) {
  const dir = path.join(root, `p${n++}`);
  mkdirSync(path.join(dir, '.claude', 'hooks'), { recursive: true });
  for (const [name, body] of Object.entries(scripts))
    writeFileSync(path.join(dir, '.claude', 'hooks', name), `cat > /dev/null\necho ${name} >> "$CLAUDE_PROJECT_DIR/hooks.log"\n${body}\n`);
  const file = path.join(dir, '.claude', 'settings.json');
  writeFileSync(file, JSON.stringify(settings));
  const engine = engineFor(await loadConfig({ files: [file], cwd: dir }));
  const log = () => {
    try {
      return readFileSync(path.join(dir, 'hooks.log'), 'utf8').split('\n').filter(Boolean);
    } catch {
      return [];
    }
  };
  return { dir, engine, log };
}

const sh = (name: string, extra: Record<string, unknown> = {}) => ({
  type: 'command',
  command: `sh "$CLAUDE_PROJECT_DIR/.claude/hooks/${name}"`,
  ...extra,
});
const json = (value: unknown) => `printf '%s' '${JSON.stringify(value)}'`;
const bash = (command: string) => ({ session_id: 's', cwd: root, tool_name: 'Bash', tool_input: { command } });

describe('1: hooks matched for one event run concurrently, each on the original input', () => {
  it("a second hook does not see the first hook's rewrite; the merge follows configuration order", async () => {
    const { engine, log } = await project(
      { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [sh('rewrite.sh'), sh('check.sh'), sh('rewrite2.sh')] }] } },
      {
        'rewrite.sh': json({
          hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'ls -rewritten' } },
        }),
        'check.sh': 'exit 0',
        'rewrite2.sh': `sleep 0.3\n${json({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'ls -second' } } })}`,
      },
    );
    const outcome = await engine.fire('PreToolUse', bash('ls'));
    expect(log().sort()).toEqual(['check.sh', 'rewrite.sh', 'rewrite2.sh']);
    // Configuration order, not completion order: rewrite2 is last in the file.
    expect(outcome).toMatchObject({ blocked: false, decision: 'allow', updatedInput: { command: 'ls -second' } });
  });

  it('a check that would deny the rewritten command does not, as in Claude Code', async () => {
    const { engine } = await project(
      {
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [sh('rewrite.sh'), { type: 'command', command: 'grep -q rewritten && { echo saw it >&2; exit 2; }; exit 0' }],
            },
          ],
        },
      },
      {
        'rewrite.sh': json({
          hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'ls -rewritten' } },
        }),
      },
    );
    expect(await engine.fire('PreToolUse', bash('ls'))).toMatchObject({ blocked: false, updatedInput: { command: 'ls -rewritten' } });
  });

  it('every matched hook runs, even after one of them answered', async () => {
    const { engine, log } = await project(
      { hooks: { PreToolUse: [{ hooks: [sh('a.sh'), sh('b.sh'), sh('c.sh')] }] } },
      { 'a.sh': 'sleep 0.4', 'b.sh': 'sleep 0.4', 'c.sh': 'sleep 0.4' },
    );
    const outcome = await engine.fire('PreToolUse', bash('ls'));
    expect(outcome.hooks.map((h) => h.status)).toEqual(['ok', 'ok', 'ok']);
    expect(log().sort()).toEqual(['a.sh', 'b.sh', 'c.sh']);
  });
});

describe('2: duplicates are removed among the hooks matched at each fire, by command, not matcher', () => {
  it('one command under two matchers runs once; a different `if` makes it another hook', async () => {
    const { engine, log } = await project(
      {
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [sh('h.sh')] },
            { matcher: 'Ba.*', hooks: [sh('h.sh')] },
            { matcher: 'Bash', hooks: [sh('h.sh', { if: 'Bash(ls *)' })] },
          ],
        },
      },
      { 'h.sh': 'exit 0' },
    );
    const outcome = await engine.fire('PreToolUse', bash('ls -l'));
    expect(log()).toEqual(['h.sh', 'h.sh']);
    expect(outcome.hooks.map((h) => h.status)).toEqual(['ok', 'skipped', 'ok']);
    expect(outcome.hooks[1]).toMatchObject({ duplicate: true });
  });

  it('when only the second group matches, its copy runs (no dedup at load time)', async () => {
    const { engine, log } = await project(
      {
        hooks: {
          PreToolUse: [
            { matcher: 'Read', hooks: [sh('h.sh')] },
            { matcher: 'Bash', hooks: [sh('h.sh')] },
          ],
        },
      },
      { 'h.sh': 'exit 0' },
    );
    await engine.fire('PreToolUse', bash('ls'));
    expect(log()).toEqual(['h.sh']);
  });
});

describe('3 to 6: what each event does with an answer', () => {
  it('continue:false on PreToolUse: not blocked, stop (the tool runs, then the turn ends)', async () => {
    const { engine } = await project(
      { hooks: { PreToolUse: [{ hooks: [sh('h.sh')] }] } },
      { 'h.sh': json({ continue: false, stopReason: 'enough' }) },
    );
    expect(await engine.fire('PreToolUse', bash('ls'))).toMatchObject({ blocked: false, decision: null, stop: true, stopReason: 'enough' });
  });

  it('continue:false with a deny on PreToolUse: refused, and the turn goes on (no stop)', async () => {
    const { engine } = await project(
      { hooks: { PreToolUse: [{ hooks: [sh('h.sh')] }] } },
      {
        'h.sh': json({
          continue: false,
          stopReason: 'enough',
          hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' },
        }),
      },
    );
    expect(await engine.fire('PreToolUse', bash('ls'))).toMatchObject({
      blocked: true,
      decision: 'deny',
      reason: 'no',
      stop: false,
      stopReason: null,
    });
  });

  it('hookSpecificOutput without hookEventName, or naming another event: a non-blocking error, the whole output ignored', async () => {
    const { engine } = await project(
      { hooks: { PreToolUse: [{ hooks: [sh('none.sh'), sh('other.sh')] }] } },
      {
        'none.sh': json({ systemMessage: 'm', hookSpecificOutput: { permissionDecision: 'deny' } }),
        'other.sh': json({ decision: 'block', reason: 'r', hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'c' } }),
      },
    );
    const outcome = await engine.fire('PreToolUse', bash('ls'));
    expect(outcome).toMatchObject({ blocked: false, systemMessage: null, additionalContext: null });
    expect(outcome.hooks[0]!.error).toBe('invalid Claude Code hook output: hookSpecificOutput is missing required field "hookEventName"');
    expect(outcome.hooks[1]!.error).toBe(
      "invalid Claude Code hook output: hook returned incorrect event name: expected 'PreToolUse' but got 'PostToolUse'",
    );
  });

  it('SessionStart: exit 2 and decision block do not block; the session goes on', async () => {
    const { engine } = await project(
      { hooks: { SessionStart: [{ hooks: [sh('exit2.sh'), sh('block.sh')] }] } },
      {
        'exit2.sh': 'echo no >&2; exit 2',
        'block.sh': json({
          decision: 'block',
          reason: 'no',
          hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'kept' },
        }),
      },
    );
    const outcome = await engine.fire('SessionStart', { session_id: 's', source: 'startup' });
    expect(outcome).toMatchObject({ blocked: false, additionalContext: 'kept' });
    expect(outcome.hooks[0]).toMatchObject({ status: 'error' });
    expect(outcome.hooks[0]!.error).toMatch(/exited with code 2 on SessionStart, where Claude Code ignores blocking errors: no/);
  });

  it('Stop, SubagentStop, TaskCompleted, TeammateIdle: exit 2 with "No such file"/"can\'t open" and no stdout is a missing script', async () => {
    for (const event of ['Stop', 'SubagentStop', 'TaskCompleted', 'TeammateIdle']) {
      const { engine } = await project({ hooks: { [event]: [{ hooks: [{ type: 'command', command: 'sh /nonexistent/hook.sh' }] }] } });
      const outcome = await engine.fire(event, { session_id: 's' });
      expect(outcome.blocked).toBe(false);
      expect(outcome.hooks[0]!.error).toMatch(/^hook script appears to be missing/);
    }
    const { engine } = await project({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo "tests fail" >&2; exit 2' }] }] } });
    expect(await engine.fire('Stop', { session_id: 's' })).toMatchObject({ blocked: true, reason: 'tests fail' });
  });

  it('7: updatedMCPToolOutput counts for MCP tools only; updatedToolOutput must fit the tool output', async () => {
    const { engine } = await project(
      { hooks: { PostToolUse: [{ hooks: [sh('h.sh')] }] } },
      { 'h.sh': json({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: 'clean' } }) },
    );
    const response = { stdout: 'secret', stderr: '', interrupted: false, isImage: false, noOutputExpected: false };
    expect((await engine.fire('PostToolUse', { ...bash('ls'), tool_response: response })).updatedOutput).toBe(null);
    expect(
      (await engine.fire('PostToolUse', { session_id: 's', tool_name: 'mcp__db__query', tool_input: {}, tool_response: 'rows' }))
        .updatedOutput,
    ).toBe('clean');
    const shaped = await project(
      { hooks: { PostToolUse: [{ hooks: [sh('string.sh'), sh('shaped.sh')] }] } },
      {
        'string.sh': json({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: 'clean' } }),
        'shaped.sh': json({
          hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: { ...response, stdout: '[redacted]' } },
        }),
      },
    );
    expect((await shaped.engine.fire('PostToolUse', { ...bash('ls'), tool_response: response })).updatedOutput).toEqual({
      ...response,
      stdout: '[redacted]',
    });
  });
});

describe('8: settings features', () => {
  it('FileChanged matches the base name of file_path; PreModelSwitch matches to_model', async () => {
    const { engine, log } = await project(
      {
        hooks: { FileChanged: [{ matcher: '^\\.env$', hooks: [sh('h.sh')] }], PreModelSwitch: [{ matcher: 'opus', hooks: [sh('m.sh')] }] },
      },
      { 'h.sh': 'exit 0', 'm.sh': 'exit 0' },
    );
    await engine.fire('FileChanged', { session_id: 's', file_path: '/p/.env', event: 'change' });
    await engine.fire('FileChanged', { session_id: 's', file_path: '/p/.envrc', event: 'change' });
    await engine.fire('PreModelSwitch', { session_id: 's', from_model: 'sonnet', to_model: 'opus' });
    expect(log()).toEqual(['h.sh', 'm.sh']);
  });

  it('allowedHttpHookUrls keeps HTTP hooks to other URLs from running (a non-blocking error)', async () => {
    const { engine } = await project({
      allowedHttpHookUrls: ['https://hooks.example.com/*'],
      hooks: { PreToolUse: [{ hooks: [{ type: 'http', url: 'http://127.0.0.1:9/deny' }] }] },
    });
    const outcome = await engine.fire('PreToolUse', bash('ls'));
    expect(outcome.blocked).toBe(false);
    expect(outcome.hooks[0]!.error).toBe('http hook url http://127.0.0.1:9/deny is not in allowedUrls (https://hooks.example.com/*)');
  });

  it('mcp_tool hooks call a tool of a configured MCP server (a real stdio server) and read its answer', async () => {
    const server = { command: process.execPath, args: [path.resolve('test/fixtures/mcp/check-server.mjs')] };
    const { engine } = await project({
      mcpServers: { checker: server },
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'mcp_tool', server: 'checker', tool: 'check', input: { command: '${tool_input.command}' } }] },
        ],
      },
    });
    expect(await engine.fire('PreToolUse', bash('rm -rf build'))).toMatchObject({
      blocked: true,
      decision: 'deny',
      reason: 'mcp says no to rm -rf build',
    });
    expect(await engine.fire('PreToolUse', bash('ls'))).toMatchObject({ blocked: false, decision: null });
    const failed = await engine.fire('PreToolUse', bash('explode'));
    expect(failed.blocked).toBe(false);
    expect(failed.hooks[0]!.error).toBe('MCP tool checker/check returned an error: checker exploded');
  });

  it('HTTP hooks do not run on SessionStart and Setup, as in Claude Code', async () => {
    const { engine } = await project({ hooks: { SessionStart: [{ hooks: [{ type: 'http', url: 'http://127.0.0.1:9/never' }] }] } });
    const outcome = await engine.fire('SessionStart', { session_id: 's', source: 'startup' });
    expect(outcome.hooks[0]).toMatchObject({
      status: 'ok',
      result: 'none',
      skippedBecause: 'HTTP hooks do not run on SessionStart (as in Claude Code)',
    });
  });

  it('an mcp_tool hook naming a server that is not configured is a non-blocking error', async () => {
    const { engine } = await project({ hooks: { PreToolUse: [{ hooks: [{ type: 'mcp_tool', server: 'nowhere', tool: 'x' }] }] } });
    const outcome = await engine.fire('PreToolUse', bash('ls'));
    expect(outcome.blocked).toBe(false);
    expect(outcome.hooks[0]!.error).toMatch(/^MCP server 'nowhere' is not configured/);
  });

  it('agent hooks: a model with read-only tools checks the condition and answers through hook_result', async () => {
    writeFileSync(path.join(root, 'NOTES.md'), 'release frozen until Monday\n');
    const provider = scriptedProvider([
      { toolCalls: [{ name: 'Read', input: { file_path: 'NOTES.md' } }] },
      { expect: { toolResultContains: 'release frozen' }, toolCalls: [{ name: 'Read', input: { file_path: '/etc/passwd' } }] },
      { expect: { toolResultIsError: true }, toolCalls: [{ name: 'hook_result', input: { ok: false, reason: 'the release is frozen' } }] },
    ]);
    const handler = agentHandler({ prompt: 'Is deploying allowed? $ARGUMENTS', provider, root });
    expect(await handler({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'deploy' } }, makeContext())).toEqual({
      kind: 'deny',
      reason: 'Agent hook condition was not met: the release is frozen',
    });
    const yes = agentHandler({
      prompt: 'ok?',
      provider: scriptedProvider([{ toolCalls: [{ name: 'hook_result', input: { ok: true } }] }]),
      root,
    });
    expect(await yes({ hook_event_name: 'Stop' }, makeContext())).toBeUndefined();
    const silentModel = agentHandler({ prompt: 'ok?', provider: scriptedProvider([{ text: 'looks fine' }]), root });
    await expect(silentModel({ hook_event_name: 'Stop' }, makeContext())).rejects.toThrow(
      'agent hook: the model ended without calling hook_result',
    );
  });

  it('agent and mcp_tool entries load (no warning), and so do shell and continueOnBlock', async () => {
    const dir = path.join(root, `p${n++}`);
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'settings.json');
    writeFileSync(
      file,
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              hooks: [
                { type: 'agent', prompt: 'check', model: 'claude-haiku-4-5' },
                { type: 'mcp_tool', server: 's', tool: 't', input: { a: '${tool_name}' } },
                { type: 'command', command: 'true', shell: 'bash' },
                { type: 'prompt', prompt: 'p', continueOnBlock: true },
              ],
            },
          ],
        },
      }),
    );
    const config = await loadConfig({ files: [file], cwd: dir });
    expect(config.warnings).toEqual([]);
    expect(config.hooks).toHaveLength(4);
  });
});
