import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ask, context, deny, HookEngine, modify } from '../../src/index.js';
import { pathGuard, shellGuard } from '../../src/guards/index.js';
import { answerHost, hostNamed } from '../../src/hosts/index.js';

/**
 * OpenCode's mapping with a real engine and the real guards: what hookwise's plugin
 * sends (shapes recorded from OpenCode 1.18.33's hooks, see test/agents) and the
 * answer the plugin carries out (src/hosts/opencode/answer.ts).
 */
const workspace = path.resolve('/tmp/hookwise-opencode-ws');
const host = hostNamed('opencode');

async function answer(engine: HookEngine, call: Record<string, unknown>) {
  const inputs = host.inputs({ directory: workspace, sessionID: 'ses_1', ...call });
  const out = await answerHost(host, engine, inputs[0]!.hook_event_name as string, inputs);
  return JSON.parse(out.stdout!);
}

const toolCall = (tool: string, args: Record<string, unknown>) => ({ hook: 'tool.execute.before', tool, callID: 'call_1', args });
const guards = () => new HookEngine().register(shellGuard({ workspace })).register(pathGuard({ workspace }));
const spy = (seen: unknown[]) => ({ name: 'spy', events: '*' as const, priority: 1000, handler: (i: unknown) => void seen.push(i) });

describe("OpenCode's hooks and tools as hookwise's", () => {
  it("bash is Bash: a Bash rule refuses it, and the refusal is the plugin's deny", async () => {
    const engine = new HookEngine().register({
      name: 'no-rm',
      events: 'PreToolUse',
      matcher: { tool: 'Bash', command: 'rm -rf' },
      handler: () => deny('no rm'),
    });
    expect(await answer(engine, toolCall('bash', { command: 'rm -rf build', description: 'd' }))).toEqual({
      hookwise: 'opencode',
      deny: 'no rm',
    });
  });

  it('write {filePath, content} reaches the path guard and hooks as Write {file_path, content}', async () => {
    const call = toolCall('write', { filePath: path.join(workspace, '.env.local'), content: 'TOKEN=1' });
    expect((await answer(guards(), call)).deny).toMatch(/\.env\.local/);
    const seen: Record<string, unknown>[] = [];
    await answer(new HookEngine().register(spy(seen)), call);
    expect(seen[0]).toMatchObject({
      hook_event_name: 'PreToolUse',
      session_id: 'ses_1',
      cwd: workspace,
      tool_name: 'Write',
      agent_tool_name: 'write',
      tool_use_id: 'call_1',
      tool_input: { file_path: path.join(workspace, '.env.local'), content: 'TOKEN=1' },
    });
  });

  it("the path guard keeps the agent off hookwise's own plugin and OpenCode's config (they run at its next start)", async () => {
    for (const file of ['.opencode/plugins/hookwise.js', '.opencode/plugins/other.ts', 'opencode.json'])
      expect((await answer(guards(), toolCall('write', { filePath: path.join(workspace, file), content: 'x' }))).deny).toMatch(
        /a protected file/,
      );
    expect((await answer(guards(), toolCall('bash', { command: 'echo x > .opencode/plugins/evil.js' }))).deny).toMatch(/a protected file/);
  });

  it("edit's camelCase fields are hookwise's; a rewrite goes back in OpenCode's own fields", async () => {
    const engine = new HookEngine().register({
      name: 'w',
      events: 'PreToolUse',
      matcher: 'Edit',
      handler: (i) => modify({ ...i.tool_input, new_string: 'rewritten' }),
    });
    const r = await answer(engine, toolCall('edit', { filePath: 'a.ts', oldString: 'x', newString: 'y' }));
    expect(r).toEqual({ hookwise: 'opencode', args: { filePath: 'a.ts', oldString: 'x', newString: 'rewritten' } });
  });

  it('apply_patch (GPT models) is judged once per file it touches; a rewrite of it cannot be delivered', async () => {
    const patchText = '*** Begin Patch\n*** Add File: notes.txt\n+fine\n*** Update File: .env.local\n@@\n-A=1\n+A=2\n*** End Patch\n';
    expect((await answer(guards(), toolCall('apply_patch', { patchText }))).deny).toMatch(/`Edit` writing \.env\.local/);
    const rewrite = new HookEngine().register({ name: 'w', events: 'PreToolUse', handler: (i) => modify({ ...i.tool_input }) });
    expect((await answer(rewrite, toolCall('apply_patch', { patchText }))).deny).toMatch(/cannot rewrite/);
  });

  it('ask is a refusal that says a person is needed (a plugin cannot ask one)', async () => {
    const engine = new HookEngine().register({ name: 'a', events: 'PreToolUse', handler: () => ask('check with a person') });
    expect((await answer(engine, toolCall('bash', { command: 'ls' }))).deny).toMatch(
      /check with a person.*a person must approve.*OpenCode cannot ask/,
    );
  });

  it('context on a tool call is said after its output', async () => {
    const engine = new HookEngine().register({ name: 'c', events: 'PreToolUse', handler: () => context('mind the tests') });
    expect(await answer(engine, toolCall('read', { filePath: 'a' }))).toEqual({ hookwise: 'opencode', context: 'mind the tests' });
  });

  it('chat.message is UserPromptSubmit (context, or a refused prompt); session.start is SessionStart', async () => {
    const seen: Record<string, unknown>[] = [];
    const engine = new HookEngine()
      .register(spy(seen))
      .register({ name: 's', events: 'SessionStart', handler: () => context('session rules') })
      .register({
        name: 'p',
        events: 'UserPromptSubmit',
        handler: (i) => (String(i.prompt).includes('secret') ? deny('no secrets') : context('project rules')),
      });
    expect(await answer(engine, { hook: 'session.start' })).toEqual({ hookwise: 'opencode', context: 'session rules' });
    expect(await answer(engine, { hook: 'chat.message', prompt: 'hi' })).toEqual({ hookwise: 'opencode', context: 'project rules' });
    expect(await answer(engine, { hook: 'chat.message', prompt: 'the secret' })).toEqual({ hookwise: 'opencode', deny: 'no secrets' });
    expect(seen.map((i) => [i.hook_event_name, i.source ?? i.prompt])).toEqual([
      ['SessionStart', 'startup'],
      ['UserPromptSubmit', 'hi'],
      ['UserPromptSubmit', 'the secret'],
    ]);
  });

  it("tool.execute.after is PostToolUse with the tool's output: replaced, or a block's reason appended", async () => {
    const seen: Record<string, unknown>[] = [];
    const engine = new HookEngine().register(spy(seen)).register({
      name: 'post',
      events: 'PostToolUse',
      handler: (i) => ({ kind: 'block', reason: `checked ${(i.tool_response as { output: string }).output}` }),
    });
    const after = { hook: 'tool.execute.after', tool: 'bash', callID: 'c', args: { command: 'ls' }, output: 'a.txt', title: 'ls' };
    expect(await answer(engine, after)).toEqual({ hookwise: 'opencode', append: 'checked a.txt' });
    expect(seen[0]).toMatchObject({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_response: { output: 'a.txt', title: 'ls' } });
  });

  it('session.idle is Stop; a hook that asks to go on is reported, the run still ends', async () => {
    const engine = new HookEngine().register({ name: 'more', events: 'Stop', handler: () => ({ kind: 'block', reason: 'tests fail' }) });
    expect(await answer(engine, { hook: 'session.idle' })).toEqual({ hookwise: 'opencode', keepGoing: 'tests fail' });
  });

  it('an unknown hook is an error naming the ones the plugin sends', () => {
    expect(() => host.inputs({ hook: 'tool.execute.around' })).toThrow(/unknown OpenCode hook "tool.execute.around".*init opencode/);
    expect(() => host.inputs({ hook: 'tool.execute.before', args: {} })).toThrow(/without a tool name/);
  });
});

describe("hookwise's own failure, as the plugin reads it", () => {
  const json = (a: { stdout?: string }) => JSON.parse(a.stdout!);

  it('a tool call and a prompt are refused; after a tool the model is told; at Stop nothing goes on', () => {
    for (const event of ['PreToolUse', undefined, 'UserPromptSubmit'])
      expect(json(host.failure(event, 'config broken', false))).toEqual({
        hookwise: 'opencode',
        deny: 'hookwise failed closed: config broken',
      });
    expect(json(host.failure('PostToolUse', 'x', false))).toEqual({ hookwise: 'opencode', append: 'hookwise failed closed: x' });
    expect(json(host.failure('Stop', 'x', false))).toEqual({ hookwise: 'opencode' });
    expect(host.failure('PreToolUse', 'x', true)).toEqual({ stderr: 'hookwise: x', code: 0 });
    expect(host.deadlineMs).toBeLessThan(30_000);
  });
});
