import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HookEngine } from '../../src/index.js';
import { asHook } from '../../src/core/hook.js';
import type { HookSpec } from '../../src/core/spec.js';
import { commandHandler } from '../../src/handlers/command.js';
import { isAlive, makeContext, script, waitForFile, waitGone } from './helpers.js';

const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-command-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const PRE_TOOL = { session_id: 's1', tool_name: 'Bash', tool_input: { command: 'ls' } };

/** An engine with one command hook, registered untyped as a settings file's hooks are. */
function engineWith(spec: Omit<HookSpec, 'name'> & { name?: string }): HookEngine {
  const engine = new HookEngine({ logger: silent });
  engine.register(asHook({ name: 'script', ...spec }));
  return engine;
}

describe('command handler: forms and environment', () => {
  it('exec form passes args verbatim (no shell: spaces and $ stay as they are)', async () => {
    const engine = engineWith({
      events: 'SessionStart',
      handler: commandHandler({
        command: 'python3',
        args: [script('args.py'), 'two words', '$HOME', ';rm'],
        env: { EXTRA: 'x1' },
        cwd: dir,
      }),
    });
    const o = await engine.fire('SessionStart', { session_id: 'sess-42', source: 'startup' });
    const seen = JSON.parse(o.additionalContext!);
    expect(seen).toEqual({
      argv: ['two words', '$HOME', ';rm'],
      HOOKWISE_EVENT: 'SessionStart',
      HOOKWISE_SESSION_ID: 'sess-42',
      CLAUDE_PROJECT_DIR: process.env.CLAUDE_PROJECT_DIR ?? process.cwd(),
      EXTRA: 'x1',
      cwd: dir,
    });
  });

  it('shell form runs through sh -c (pipes and variables work) in the fire cwd', async () => {
    const handler = commandHandler({ command: 'echo "$HOOKWISE_EVENT:$(pwd)" | tr a-z A-Z' });
    const result = await handler({ hook_event_name: 'UserPromptSubmit' }, makeContext({ cwd: dir }));
    expect(result).toEqual({ kind: 'context', additionalContext: `USERPROMPTSUBMIT:${dir.toUpperCase()}` });
  });

  it('options.env overrides CLAUDE_PROJECT_DIR', async () => {
    const handler = commandHandler({ command: 'printf %s "$CLAUDE_PROJECT_DIR"', env: { CLAUDE_PROJECT_DIR: '/proj' } });
    expect(await handler({ hook_event_name: 'SessionStart' }, makeContext())).toEqual({ kind: 'context', additionalContext: '/proj' });
  });

  it('a script that reads no stdin is fine even with a large input', async () => {
    const engine = engineWith({ events: 'PreToolUse', handler: commandHandler({ command: `bash ${script('no-stdin.sh')}` }) });
    const o = await engine.fire('PreToolUse', { ...PRE_TOOL, tool_input: { content: 'z'.repeat(2 * 1024 * 1024) } });
    expect(o).toMatchObject({ decision: 'allow', reason: 'did not read stdin', blocked: false });
    expect(o.hooks[0]).toMatchObject({ status: 'ok', exitCode: 0 });
  });

  it('exec form runs an executable script directly', async () => {
    const handler = commandHandler({ command: script('no-stdin.sh'), args: [] });
    expect(await handler({ hook_event_name: 'PreToolUse' }, makeContext())).toMatchObject({
      hookSpecificOutput: { permissionDecision: 'allow' },
    });
  });

  it('rejects bad options when the hook is built', () => {
    expect(() => commandHandler({ command: '  ' })).toThrow('command hook: `command` must be a non-empty string');
    expect(() => commandHandler({ command: 'x', protocol: 'nope' as never })).toThrow(
      'unknown command protocol "nope"; expected one of: claude-code, workflow, claude-agent-rs',
    );
    expect(() => commandHandler({ command: 'x', outputLimitBytes: -1 })).toThrow('`outputLimitBytes` must be a positive integer, got -1');
  });
});

describe('command handler: block reasons are capped', () => {
  it('a megabyte of stderr on exit 2 becomes a reason of a few KB that says it was cut', async () => {
    const engine = engineWith({
      events: 'PreToolUse',
      handler: commandHandler({ command: `head -c 1048576 /dev/zero | tr '\\0' e >&2; exit 2` }),
    });
    const o = await engine.fire('PreToolUse', PRE_TOOL);
    expect(o.blocked).toBe(true);
    expect(o.reason).toMatch(/^e{4096}\.\.\. \[cut: 1044480 more characters\]$/);
  });

  it('so is a reason in the JSON on stdout', async () => {
    const engine = engineWith({
      events: 'PreToolUse',
      handler: commandHandler({ command: `printf '{"decision":"block","reason":"%s"}' $(head -c 100000 /dev/zero | tr '\\0' r)` }),
    });
    const o = await engine.fire('PreToolUse', PRE_TOOL);
    expect(o.blocked).toBe(true);
    expect(o.reason).toMatch(/^r{4096}\.\.\. \[cut: 95904 more characters\]$/);
  });
});

describe('command handler: failures', () => {
  it('a missing script in shell form (exit 127) is a clear failure, not a pass', async () => {
    const missing = path.join(dir, 'missing-hook.sh');
    const engine = engineWith({ events: 'PreToolUse', onError: 'continue', handler: commandHandler({ command: missing }) });
    const o = await engine.fire('PreToolUse', PRE_TOOL);
    expect(o.blocked).toBe(false);
    expect(o.hooks[0]).toMatchObject({ status: 'error', exitCode: 127 });
    expect(o.hooks[0]!.error).toMatch(new RegExp(`^command not found: "${missing}" \\(sh exited 127: .*not found\\)$`));
  });

  it('a missing script fails closed under onError block, for every protocol', async () => {
    for (const protocol of ['claude-code', 'workflow', 'claude-agent-rs'] as const) {
      const engine = engineWith({
        events: 'PreToolUse',
        onError: 'block',
        handler: commandHandler({ command: path.join(dir, 'nope.sh'), protocol }),
      });
      const o = await engine.fire('PreToolUse', PRE_TOOL);
      expect(o, protocol).toMatchObject({ blocked: true, decision: 'deny' });
      expect(o.reason).toMatch(/^hook script failed: command not found: /);
    }
  });

  it('a missing executable in exec form names the program', async () => {
    const program = path.join(dir, 'no-such-binary');
    const handler = commandHandler({ command: program, args: ['--check'] });
    await expect(handler({ hook_event_name: 'PreToolUse' }, makeContext())).rejects.toThrow(`cannot run "${program}": program not found`);
  });

  it('a non-executable file in exec form says permission denied', async () => {
    const file = path.join(dir, 'not-executable.sh');
    writeFileSync(file, '#!/bin/sh\necho hi\n', { mode: 0o644 });
    const handler = commandHandler({ command: file, args: [] });
    await expect(handler({ hook_event_name: 'PreToolUse' }, makeContext())).rejects.toThrow(/^cannot run ".*": permission denied/);
  });

  it('a missing working directory is named', async () => {
    const handler = commandHandler({ command: 'true', cwd: path.join(dir, 'gone') });
    await expect(handler({ hook_event_name: 'PreToolUse' }, makeContext())).rejects.toThrow(
      `cannot run "true": working directory ${path.join(dir, 'gone')} does not exist`,
    );
  });

  it('death by signal is a failure (exec form)', async () => {
    const engine = engineWith({
      events: 'PreToolUse',
      onError: 'block',
      handler: commandHandler({ command: 'bash', args: [script('kill-self.sh')] }),
    });
    const o = await engine.fire('PreToolUse', PRE_TOOL);
    expect(o).toMatchObject({ blocked: true, reason: 'hook script failed: "bash" was killed by signal SIGKILL' });
    expect(o.hooks[0]).toMatchObject({ status: 'error', exitCode: null, signal: 'SIGKILL' });
  });

  it('death by signal is a failure (shell form, the shell itself killed)', async () => {
    const handler = commandHandler({ command: 'kill -TERM $$' });
    const ctx = makeContext();
    await expect(handler({ hook_event_name: 'Stop' }, ctx)).rejects.toThrow('"kill -TERM $$" was killed by signal SIGTERM');
    expect(ctx.annotations).toEqual({ exitCode: null, signal: 'SIGTERM' });
  });
});

describe('command handler: output cap', () => {
  it('5 MiB of output is truncated to the cap and the Outcome entry says so', async () => {
    const engine = engineWith({ events: 'UserPromptSubmit', handler: commandHandler({ command: `python3 ${script('flood.py')}` }) });
    const o = await engine.fire('UserPromptSubmit', { session_id: 's1', prompt: 'hi' });
    expect(o.hooks[0]).toMatchObject({ status: 'ok', exitCode: 0, truncated: true, truncatedStreams: ['stdout', 'stderr'] });
    // Plain text on UserPromptSubmit becomes context: exactly the first MiB.
    expect(o.additionalContext).toHaveLength(1024 * 1024);
  });

  it('a smaller cap applies to each stream', async () => {
    const handler = commandHandler({ command: 'printf 0123456789; printf abcdefghij >&2; exit 1', outputLimitBytes: 4 });
    const ctx = makeContext();
    await expect(handler({ hook_event_name: 'PreToolUse' }, ctx)).rejects.toThrow('exited with code 1: abcd');
    expect(ctx.annotations).toEqual({ exitCode: 1, truncated: true, truncatedStreams: ['stdout', 'stderr'] });
  });
});

describe('command handler: timeout and abort kill the whole process group', () => {
  const hangers = [
    { lang: 'bash (grandchild ignores SIGTERM)', command: `bash ${script('fork-and-hang.sh')}` },
    { lang: 'python3', command: `python3 ${script('fork-and-hang.py')}` },
    { lang: 'node', command: `node ${script('fork-and-hang.mjs')}` },
  ];
  for (const [i, hanger] of hangers.entries()) {
    it(`timeout: ${hanger.lang} hook and its grandchild are gone`, async () => {
      const pidFile = path.join(dir, `pids-${i}`);
      const engine = engineWith({
        events: 'PreToolUse',
        timeoutMs: 8000,
        onError: 'block',
        handler: commandHandler({ command: hanger.command, env: { PID_FILE: pidFile } }),
      });
      const outcome = engine.fire('PreToolUse', PRE_TOOL);
      const [grandchild, child] = (await waitForFile(pidFile)).trim().split(' ').map(Number) as [number, number];
      expect(isAlive(grandchild, true)).toBe(true);
      const o = await outcome;
      expect(o).toMatchObject({ blocked: true, decision: 'deny', reason: 'hook script failed: timed out after 8000 ms' });
      expect(o.hooks[0]).toMatchObject({ status: 'timeout' });
      expect(await waitGone(child)).toBe(true);
      expect(await waitGone(grandchild, true)).toBe(true);
    });
  }

  it('aborting the fire kills the group too', async () => {
    const pidFile = path.join(dir, 'pids-abort');
    const engine = engineWith({
      events: 'PreToolUse',
      onError: 'continue',
      handler: commandHandler({ command: `python3 ${script('fork-and-hang.py')}`, env: { PID_FILE: pidFile } }),
    });
    const controller = new AbortController();
    const outcome = engine.fire('PreToolUse', PRE_TOOL, { signal: controller.signal });
    const [grandchild, child] = (await waitForFile(pidFile)).trim().split(' ').map(Number) as [number, number];
    controller.abort();
    const o = await outcome;
    expect(o.hooks[0]).toMatchObject({ status: 'error', error: 'aborted' });
    expect(await waitGone(child)).toBe(true);
    expect(await waitGone(grandchild, true)).toBe(true);
  });
});

describe('command handler: async and asyncRewake', () => {
  it('an async hook with asyncRewake that exits 2 delivers stderr as context with the next outcome', async () => {
    const engine = engineWith({
      events: ['PostToolUse', 'UserPromptSubmit'],
      async: true,
      handler: commandHandler({ command: 'cat > /dev/null; echo "3 tests failed" >&2; exit 2', asyncRewake: true }),
    });
    const first = await engine.fire('PostToolUse', { ...PRE_TOOL, tool_response: 'ok' });
    expect(first).toMatchObject({ blocked: false, additionalContext: null });
    expect(first.hooks[0]!.status).toBe('async');
    await engine.drain();
    engine.unregister('script');
    const next = await engine.fire('UserPromptSubmit', { session_id: 's1', prompt: 'next' });
    expect(next).toMatchObject({ blocked: false, additionalContext: '3 tests failed' });
  });

  it('without asyncRewake an async exit 2 changes nothing', async () => {
    const engine = engineWith({
      events: ['PostToolUse', 'UserPromptSubmit'],
      async: true,
      handler: commandHandler({ command: 'echo nope >&2; exit 2' }),
    });
    await engine.fire('PostToolUse', PRE_TOOL);
    await engine.drain();
    engine.unregister('script');
    const next = await engine.fire('UserPromptSubmit', { session_id: 's1', prompt: 'next' });
    expect(next).toMatchObject({ blocked: false, additionalContext: null });
  });
});
