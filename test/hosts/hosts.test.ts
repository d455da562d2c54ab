import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HookEngine, deny, modify, ask, context } from '../../src/index.js';
import { pathGuard, shellGuard } from '../../src/guards/index.js';
import { answerHost, hostNamed } from '../../src/hosts/index.js';
import type { Host } from '../../src/hosts/host.js';

/**
 * Each host's mapping with a real engine and the real guards: the agent's input as it
 * arrives (shapes recorded from the real CLIs, see test/agents), and the answer in the
 * form that agent honours.
 */
const workspace = path.resolve('/tmp/hookwise-hosts-ws');

async function answer(host: Host, engine: HookEngine, raw: Record<string, unknown>) {
  const inputs = host.inputs({ cwd: workspace, session_id: 's', ...raw });
  const out = await answerHost(host, engine, inputs[0]!.hook_event_name as string, inputs);
  return { ...out, json: out.stdout ? JSON.parse(out.stdout) : undefined };
}

const guards = () => new HookEngine().register(shellGuard({ workspace })).register(pathGuard({ workspace }));

describe('normalised tools: one policy means the same in every agent', () => {
  it("droid's Execute is hookwise's Bash: a Bash rule refuses its rm -rf", async () => {
    const engine = new HookEngine().register({
      name: 'no-rm',
      events: 'PreToolUse',
      matcher: { tool: 'Bash', command: 'rm -rf' },
      handler: () => deny('no rm'),
    });
    const r = await answer(hostNamed('droid'), engine, {
      hook_event_name: 'PreToolUse',
      tool_name: 'Execute',
      tool_input: { command: 'rm -rf build' },
    });
    expect(r.json.hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: 'no rm',
    });
    expect(r.code).toBe(0);
  });

  it("Copilot's Write {path, file_text} reaches the path guard and the hook as Write {file_path, content}", async () => {
    const seen: unknown[] = [];
    const engine = guards().register({ name: 'spy', events: 'PreToolUse', priority: -1000, handler: (i) => void seen.push(i) });
    const r = await answer(hostNamed('copilot'), engine, {
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { path: path.join(workspace, '.env.local'), file_text: 'TOKEN=1' },
    });
    expect(r.json.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(r.json.hookSpecificOutput.permissionDecisionReason).toMatch(/\.env\.local/);
  });

  it("Codex's apply_patch (tool or heredoc) is judged once per file it touches", async () => {
    const text = '*** Begin Patch\n*** Add File: notes.txt\n+fine\n*** Update File: .env.local\n@@\n-A=1\n+A=2\n*** End Patch\n';
    for (const raw of [
      { tool_name: 'apply_patch', tool_input: { command: text } },
      { tool_name: 'Bash', tool_input: { command: `apply_patch <<'EOF'\n${text}EOF\n` } },
    ]) {
      const r = await answer(hostNamed('codex'), guards(), { hook_event_name: 'PreToolUse', ...raw });
      expect(r.json.hookSpecificOutput.permissionDecision).toBe('deny');
      expect(r.json.hookSpecificOutput.permissionDecisionReason).toMatch(/`Edit` writing \.env\.local/);
    }
    const fine = await answer(hostNamed('codex'), guards(), {
      hook_event_name: 'PreToolUse',
      tool_name: 'apply_patch',
      tool_input: { command: '*** Begin Patch\n*** Add File: notes.txt\n+fine\n*** End Patch' },
    });
    expect(fine.stdout).toBeUndefined();
  });

  it('a patch hookwise cannot read is refused, never let through unjudged', async () => {
    const host = hostNamed('codex');
    expect(() => host.inputs({ hook_event_name: 'PreToolUse', tool_name: 'apply_patch', tool_input: { command: 'rm -rf /' } })).toThrow(
      /Begin Patch/,
    );
  });
});

describe('answers in the form each agent honours', () => {
  const rewrite = () =>
    new HookEngine().register({
      name: 'sandbox',
      events: 'PreToolUse',
      matcher: 'Bash',
      handler: (i) => modify({ ...i.tool_input, command: `sandboxed ${i.tool_input?.command}` }),
    });

  it('Codex: a rewrite comes with permissionDecision allow (Codex ignores updatedInput without it)', async () => {
    const r = await answer(hostNamed('codex'), rewrite(), {
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
    });
    expect(r.json.hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      updatedInput: { command: 'sandboxed ls' },
    });
  });

  it("droid: a rewrite of Bash goes back as Execute's own fields", async () => {
    const r = await answer(hostNamed('droid'), rewrite(), {
      hook_event_name: 'PreToolUse',
      tool_name: 'Execute',
      tool_input: { command: 'ls', summary: 's' },
    });
    expect(r.json.hookSpecificOutput.updatedInput).toEqual({ command: 'sandboxed ls', summary: 's' });
  });

  it("Copilot: a rewrite of a file tool goes back in Copilot's fields (path, file_text)", async () => {
    const engine = new HookEngine().register({
      name: 'w',
      events: 'PreToolUse',
      matcher: 'Write',
      handler: (i) => modify({ ...i.tool_input, content: 'rewritten' }),
    });
    const r = await answer(hostNamed('copilot'), engine, {
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { path: 'a.txt', file_text: 'x' },
    });
    expect(r.json.hookSpecificOutput.updatedInput).toEqual({ path: 'a.txt', file_text: 'rewritten' });
  });

  it('Codex: ask is a deny naming why (ask would let the tool run there); Copilot and droid keep ask', async () => {
    const engine = () => new HookEngine().register({ name: 'a', events: 'PreToolUse', handler: () => ask('check with a person') });
    const input = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } };
    const codex = await answer(hostNamed('codex'), engine(), input);
    expect(codex.json.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(codex.json.hookSpecificOutput.permissionDecisionReason).toMatch(/check with a person.*a person must approve.*Codex cannot ask/);
    expect((await answer(hostNamed('copilot'), engine(), input)).json.hookSpecificOutput.permissionDecision).toBe('ask');
  });

  it('Codex: a rewrite of a patch judged file by file cannot be delivered, so it is a deny', async () => {
    const engine = new HookEngine().register({
      name: 'w',
      events: 'PreToolUse',
      matcher: 'Write',
      handler: (i) => modify({ ...i.tool_input, content: 'x' }),
    });
    const r = await answer(hostNamed('codex'), engine, {
      hook_event_name: 'PreToolUse',
      tool_name: 'apply_patch',
      tool_input: { command: '*** Begin Patch\n*** Add File: a\n+b\n*** End Patch' },
    });
    expect(r.json.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(r.json.hookSpecificOutput.permissionDecisionReason).toMatch(/cannot rewrite/);
  });

  it('Copilot: context goes at the top level too (the only place Copilot reads it)', async () => {
    const engine = new HookEngine().register({ name: 'c', events: 'UserPromptSubmit', handler: () => context('rules') });
    const r = await answer(hostNamed('copilot'), engine, { hook_event_name: 'UserPromptSubmit', prompt: 'hi' });
    expect(r.json.additionalContext).toBe('rules');
  });
});

describe("hookwise's own failure, per agent: the tool does not run, the run ends at Stop", () => {
  it.each(['codex', 'copilot', 'droid'])(
    '%s: a JSON deny on PreToolUse and continue:false on Stop, exit 0 (exit codes are not honoured there)',
    (name) => {
      const host = hostNamed(name);
      const pre = host.failure('PreToolUse', 'config broken', false);
      expect(pre.code).toBe(0);
      expect(JSON.parse(pre.stdout!).hookSpecificOutput).toMatchObject({
        permissionDecision: 'deny',
        permissionDecisionReason: 'hookwise failed closed: config broken',
      });
      expect(JSON.parse(host.failure(undefined, 'bad stdin', false).stdout!).hookSpecificOutput.permissionDecision).toBe('deny');
      const stop = host.failure('Stop', 'config broken', false);
      expect([stop.code, JSON.parse(stop.stdout!)]).toEqual([0, { continue: false, stopReason: 'hookwise failed closed: config broken' }]);
      expect(JSON.parse(host.failure('UserPromptSubmit', 'x', false).stdout!)).toMatchObject({ decision: 'block' });
      expect(host.deadlineMs).toBeLessThan(60_000);
    },
  );

  it('Claude Code: exit 2 where it blocks, but on Stop the run ends (exit 2 would keep it going)', () => {
    const host = hostNamed('claude-code');
    expect(host.failure('PreToolUse', 'x', false)).toEqual({ stderr: 'hookwise failed closed: x', code: 2 });
    expect(host.failure('Stop', 'x', false)).toMatchObject({
      code: 0,
      stdout: `${JSON.stringify({ continue: false, stopReason: 'hookwise failed closed: x' })}\n`,
    });
    expect(host.failure('Stop', 'x', true)).toEqual({ stderr: 'hookwise: x', code: 1 });
  });

  it('an unknown agent is named with the known ones', () => {
    expect(() => hostNamed('cursor')).toThrow(/unknown agent "cursor"; hookwise answers claude-code, codex, copilot, droid/);
  });
});
