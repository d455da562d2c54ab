import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HookEngine, asHook, ask, context, deny, modify } from '../../src/index.js';
import { replaceOutput } from '../../src/core/index.js';
import { pathGuard, shellGuard } from '../../src/guards/index.js';
import { answerHost, hostNamed } from '../../src/hosts/index.js';
import { mergeHooksFile } from '../../src/hosts/hooks-file.js';
import { initTargets } from '../../src/hosts/init-targets.js';
import { entryCommand } from '../../src/hosts/entry-command.js';
import { GEMINI_INIT_EVENTS } from '../../src/hosts/gemini/events.js';
import { hasCommandSubstitution } from '../../src/hosts/gemini/shell.js';
import { repoRoot, runCli } from '../cli/run-cli.js';

/**
 * Gemini CLI 0.61.0's protocol (src/hosts/gemini), with a real engine and the real
 * guards: its input as it arrives (shapes recorded from the real CLI, test/agents), and
 * the answer in the form Gemini honours. The CLI itself runs in test/agents.
 */
const workspace = path.resolve('/tmp/hookwise-gemini-ws');
const gemini = hostNamed('gemini');

async function answer(engine: HookEngine, raw: Record<string, unknown>) {
  const inputs = gemini.inputs({ cwd: workspace, session_id: 's', timestamp: 't', transcript_path: '/t', ...raw });
  const out = await answerHost(gemini, engine, inputs[0]!.hook_event_name as string, inputs);
  return { ...out, json: out.stdout ? JSON.parse(out.stdout) : undefined };
}

/** A hook on any event named at run time: asHook, as settings-file hooks are registered. */
const spy = (seen: unknown[], events = 'PreToolUse') =>
  asHook({
    name: 'spy',
    events,
    priority: -1000,
    handler: (i: unknown) => void seen.push(i),
  });

describe('Gemini CLI events and tools as hookwise reads them', () => {
  it('BeforeTool is PreToolUse; run_shell_command is Bash {command}; Gemini names stay beside them', async () => {
    const seen: Record<string, unknown>[] = [];
    await answer(new HookEngine().register(spy(seen)), {
      hook_event_name: 'BeforeTool',
      tool_name: 'run_shell_command',
      tool_input: { command: 'ls', dir_path: 'src' },
    });
    expect(seen[0]).toMatchObject({
      hook_event_name: 'PreToolUse',
      agent_event_name: 'BeforeTool',
      tool_name: 'Bash',
      agent_tool_name: 'run_shell_command',
      tool_input: { command: 'ls', dir_path: 'src' },
    });
  });

  it('every Gemini event reaches its hookwise event', () => {
    const named = (event: string) => gemini.inputs({ hook_event_name: event })[0]!.hook_event_name;
    expect(
      [
        'BeforeTool',
        'AfterTool',
        'BeforeAgent',
        'AfterAgent',
        'SessionStart',
        'SessionEnd',
        'BeforeModel',
        'AfterModel',
        'PreCompress',
      ].map(named),
    ).toEqual([
      'PreToolUse',
      'PostToolUse',
      'UserPromptSubmit',
      'Stop',
      'SessionStart',
      'SessionEnd',
      'PreModelCall',
      'PostModelCall',
      'PreCompact',
    ]);
  });

  it("AfterAgent's prompt_response is Stop's last_assistant_message", () => {
    const [input] = gemini.inputs({ hook_event_name: 'AfterAgent', prompt: 'p', prompt_response: 'done', stop_hook_active: false });
    expect(input).toMatchObject({ hook_event_name: 'Stop', last_assistant_message: 'done', stop_hook_active: false });
  });

  it('BeforeToolSelection, which hookwise has no event for, is an error naming the settings to fix', () => {
    expect(() => gemini.inputs({ hook_event_name: 'BeforeToolSelection' })).toThrow(/hooks\.BeforeToolSelection.*\.gemini\/settings\.json/);
  });
});

describe('answers Gemini CLI honours', () => {
  it('a refusal is a top-level decision: deny with its reason, on exit 0', async () => {
    const engine = new HookEngine().register({
      name: 'no-rm',
      events: 'PreToolUse',
      matcher: { tool: 'Bash', command: 'rm -rf' },
      handler: () => deny('no rm'),
    });
    const r = await answer(engine, {
      hook_event_name: 'BeforeTool',
      tool_name: 'run_shell_command',
      tool_input: { command: 'rm -rf build' },
    });
    expect(r).toMatchObject({ code: 0, json: { decision: 'deny', reason: 'no rm' } });
  });

  it('the path guard refuses write_file and replace on .env.local; a harmless write says nothing', async () => {
    const guards = () => new HookEngine().register(shellGuard({ workspace })).register(pathGuard({ workspace }));
    for (const raw of [
      { tool_name: 'write_file', tool_input: { file_path: path.join(workspace, '.env.local'), content: 'TOKEN=1' } },
      { tool_name: 'replace', tool_input: { file_path: path.join(workspace, '.env.local'), old_string: 'A', new_string: 'B' } },
    ]) {
      const r = await answer(guards(), { hook_event_name: 'BeforeTool', ...raw });
      expect(r.json).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/\.env\.local/) });
    }
    const fine = await answer(guards(), {
      hook_event_name: 'BeforeTool',
      tool_name: 'write_file',
      tool_input: { file_path: path.join(workspace, 'notes.txt'), content: 'x' },
    });
    expect(fine.json?.decision).not.toBe('deny');
  });

  it("a rewrite is hookSpecificOutput.tool_input, in Gemini's own field names", async () => {
    const engine = new HookEngine().register({
      name: 'narrow',
      events: 'PreToolUse',
      matcher: { tool: 'Glob' },
      handler: (i) => modify({ ...i.tool_input, path: 'src' }),
    });
    const r = await answer(engine, { hook_event_name: 'BeforeTool', tool_name: 'list_directory', tool_input: { dir_path: '.' } });
    expect(r.json).toEqual({ decision: 'allow', hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { dir_path: 'src' } } });
  });

  it('ask is refused, saying a person must approve (Gemini waits for ever on ask in headless mode)', async () => {
    const engine = new HookEngine().register({ name: 'ask', events: 'PreToolUse', handler: () => ask('deploys need a person') });
    const r = await answer(engine, { hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'deploy' } });
    expect(r.json).toEqual({
      decision: 'deny',
      reason: 'deploys need a person (a person must approve this call, and Gemini CLI cannot ask one from a hook: refused)',
    });
  });

  it('context at SessionStart and BeforeAgent is hookSpecificOutput.additionalContext', async () => {
    const engine = new HookEngine().register({
      name: 'ctx',
      events: ['SessionStart', 'UserPromptSubmit'],
      handler: () => context('rules'),
    });
    for (const raw of [
      { hook_event_name: 'SessionStart', source: 'startup' },
      { hook_event_name: 'BeforeAgent', prompt: 'hi' },
    ]) {
      const r = await answer(engine, raw);
      expect(r.json).toEqual({ hookSpecificOutput: { hookEventName: raw.hook_event_name, additionalContext: 'rules' } });
    }
  });

  it('AfterTool: a replaced output is sent in place of the result (a deny whose reason the model reads)', async () => {
    const engine = new HookEngine().register({ name: 'redact', events: 'PostToolUse', handler: () => replaceOutput('[redacted]') });
    const r = await answer(engine, {
      hook_event_name: 'AfterTool',
      tool_name: 'run_shell_command',
      tool_input: { command: 'env' },
      tool_response: { llmContent: 'SECRET=1', returnDisplay: 'SECRET=1' },
    });
    expect(r.json).toEqual({ decision: 'deny', reason: '[redacted]' });
  });

  it('AfterAgent: a policy block sends the agent round again with the reason; a failed hook there ends the run', async () => {
    const keepGoing = new HookEngine().register({ name: 'tests', events: 'Stop', handler: () => deny('run the tests first') });
    expect((await answer(keepGoing, { hook_event_name: 'AfterAgent', prompt: 'p', prompt_response: 'r' })).json).toEqual({
      decision: 'deny',
      reason: 'run the tests first',
    });
    const crash = new HookEngine().register({
      name: 'crash',
      events: 'Stop',
      handler: () => {
        throw new Error('boom');
      },
    });
    const r = await answer(crash, { hook_event_name: 'AfterAgent', prompt: 'p', prompt_response: 'r' });
    expect(r.json).toMatchObject({ continue: false, stopReason: expect.stringMatching(/crash failed: boom/) });
  });
});

describe("hookwise's own failure, as Gemini fails closed on it (never exit 1, which Gemini lets through)", () => {
  it('a tool is denied, a prompt dropped, the end of a turn ends the run, an unread event does both', () => {
    const parse = (event: string | undefined) => {
      const a = gemini.failure(event, 'broken', false);
      expect(a.code).toBe(0);
      return JSON.parse(a.stdout!);
    };
    const line = 'hookwise failed closed: broken';
    expect(parse('PreToolUse')).toEqual({ decision: 'deny', reason: line });
    expect(parse('UserPromptSubmit')).toEqual({ decision: 'deny', reason: line });
    expect(parse('PostToolUse')).toEqual({ decision: 'deny', reason: line });
    expect(parse('Stop')).toEqual({ continue: false, stopReason: line });
    expect(parse(undefined)).toEqual({ continue: false, stopReason: line, decision: 'deny', reason: line });
    expect(gemini.failure('PreToolUse', 'broken', true)).toEqual({ stderr: 'hookwise: broken', code: 0 });
  });
});

const root = mkdtempSync(path.join(tmpdir(), 'hookwise-init-gemini-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('hookwise init gemini', () => {
  it("writes Gemini's events with a timeout in milliseconds; run twice changes nothing", async () => {
    const [, target] = await initTargets('gemini', '/p', { HOME: '/home/u' });
    expect(target!.file).toBe('/p/.gemini/settings.json');
    const { file, added } = mergeHooksFile({ security: { auth: { selectedType: 'gemini-api-key' } } }, target!.shape);
    expect(added).toEqual([...GEMINI_INIT_EVENTS]);
    expect(file.security).toEqual({ auth: { selectedType: 'gemini-api-key' } });
    expect((file.hooks as Record<string, unknown>).BeforeTool).toEqual([
      {
        matcher: '*',
        hooks: [
          {
            type: 'command',
            // The project's file stays silent where the user's answers (so nothing is answered twice).
            command: entryCommand(gemini, { event: 'PreToolUse', deferTo: '"$HOME/.gemini/settings.json"' }),
            timeout: 60_000,
          },
        ],
      },
    ]);
    expect(mergeHooksFile(file, target!.shape)).toMatchObject({ added: [], updated: [] });
  });

  it('spawned: merges into .gemini/settings.json, keeping what was there', async () => {
    const dir = mkdtempSync(path.join(root, 'p-'));
    mkdirSync(path.join(dir, '.gemini'));
    const mine = { matcher: 'write_file', hooks: [{ type: 'command', command: './mine.sh' }] };
    writeFileSync(path.join(dir, '.gemini', 'settings.json'), JSON.stringify({ model: { name: 'x' }, hooks: { BeforeTool: [mine] } }));
    const home = path.join(dir, 'home');
    const r = await runCli(['init', 'gemini'], { cwd: dir, env: { HOME: home } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/in every folder, trusted or not/);
    const user = JSON.parse(readFileSync(path.join(home, '.gemini', 'settings.json'), 'utf8'));
    expect(user.hooks.BeforeTool[0].hooks[0].command).toBe(entryCommand(gemini, { event: 'PreToolUse' }));
    const file = JSON.parse(readFileSync(path.join(dir, '.gemini', 'settings.json'), 'utf8'));
    expect(file.model).toEqual({ name: 'x' });
    expect(file.hooks.BeforeTool[0]).toEqual(mine);
    expect(file.hooks.BeforeTool[1].hooks[0].command).toMatch(/exec node "\$b" gemini/);
    expect(Object.keys(file.hooks)).toEqual(['BeforeTool', 'SessionStart', 'BeforeAgent', 'AfterTool', 'AfterAgent']);
  });

  it('spawned with a broken policy: BeforeTool is a JSON deny on exit 0, AfterAgent ends the run', async () => {
    const dir = mkdtempSync(path.join(root, 'b-'));
    writeFileSync(path.join(dir, 'hookwise.config.mjs'), `throw new Error('broken');\n`);
    const call = (input: Record<string, unknown>) =>
      runCli(['gemini'], {
        cwd: dir,
        stdin: JSON.stringify({ cwd: dir, session_id: 's', ...input }),
        env: { HOOKWISE_RESIDENT: '0', HOOKWISE_CLAUDE_CODE: '', HOOKWISE_FAIL_OPEN: '' },
        unset: ['CLAUDE_PROJECT_DIR'],
      });
    const pre = await call({ hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'ls' } });
    expect(pre.code).toBe(0);
    expect(JSON.parse(pre.stdout)).toEqual({ decision: 'deny', reason: expect.stringMatching(/^hookwise failed closed: .*broken/) });
    const stop = await call({ hook_event_name: 'AfterAgent', prompt: 'p', prompt_response: 'r', stop_hook_active: false });
    expect(stop.code).toBe(0);
    expect(JSON.parse(stop.stdout)).toEqual({ continue: false, stopReason: expect.stringMatching(/broken/) });
  });
});

describe('hookwise gemini when hookwise cannot even load (a broken install)', () => {
  it("answers in Gemini's form on exit 0: nothing runs and the run ends, whatever the event", () => {
    const bin = path.join(mkdtempSync(path.join(root, 'install-')), 'bin');
    mkdirSync(bin);
    // The launcher without dist/ beside it: its require of the resident client fails.
    for (const f of ['hookwise.js', 'agents.cjs', 'package.json']) copyFileSync(path.join(repoRoot, 'bin', f), path.join(bin, f));
    const r = spawnSync(process.execPath, [path.join(bin, 'hookwise.js'), 'gemini'], {
      input: JSON.stringify({ hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'ls' } }),
      encoding: 'utf8',
      env: { ...process.env, HOOKWISE_FAIL_OPEN: '' },
    });
    expect(r.status).toBe(0);
    const reason = expect.stringMatching(/^hookwise failed closed: /);
    expect(JSON.parse(r.stdout)).toEqual({ continue: false, stopReason: reason, decision: 'deny', reason });
  });
});

describe("a rewritten shell command Gemini's injection check would refuse", () => {
  const rewrite = (to: string) =>
    new HookEngine().register({ name: 'rewrite', events: 'PreToolUse', handler: (i) => modify({ ...i.tool_input, command: to }) });
  const call = (command: string) => ({ hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command } });

  it('reads substitution as Gemini does: outside single quotes only', () => {
    expect(['echo $(id)', 'echo `id`', 'diff <(a) b', 'echo "$(id)"'].map(hasCommandSubstitution)).toEqual([true, true, true, true]);
    expect(["echo '$(id)'", 'echo \\$(id)', 'echo $HOME', 'echo "a>(b)"'].map(hasCommandSubstitution)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it("is delivered as eval '…', which passes the check and runs the same line", async () => {
    const line = `d=$(printf '%s' "it's"); echo "$d" \`echo ok\``;
    const r = await answer(rewrite(line), call('echo plain'));
    const delivered = r.json.hookSpecificOutput.tool_input.command as string;
    expect(delivered.startsWith("eval '")).toBe(true);
    expect(hasCommandSubstitution(delivered)).toBe(false);
    const run = (c: string) => spawnSync('bash', ['-c', c], { encoding: 'utf8' }).stdout;
    expect(run(delivered)).toBe("it's ok\n");
    expect(run(delivered)).toBe(run(line));
  });

  it("a model's command Gemini would refuse stays refused, never wrapped past Gemini's check", async () => {
    const r = await answer(rewrite('sandboxed $(x)'), call('cat $(ls)'));
    expect(r.json).toEqual({ decision: 'deny', reason: expect.stringMatching(/refuses command substitution/) });
  });
});
