import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ask, context, deny, HookEngine, modify, replaceOutput } from '../../src/index.js';
import { pathGuard, secretGuard, shellGuard } from '../../src/guards/index.js';
import { answerHost, hostNamed } from '../../src/hosts/index.js';
import { clineHookScript, isHookFileFor } from '../../src/hosts/cline/hook-files.js';
import { runCli } from '../cli/run-cli.js';

/**
 * Cline CLI 3.0.65's mapping (src/hosts/cline) with a real engine and the real guards. The
 * payloads are the shape Cline's hook files receive (recorded from the CLI, test/agents);
 * the answer is the control JSON Cline reads: overrideInput, context, cancel.
 */
const root = mkdtempSync(path.join(tmpdir(), 'hookwise-cline-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const workspace = path.join(root, 'ws');
mkdirSync(workspace, { recursive: true });
const cline = hostNamed('cline');

const payload = (hookName: string, extra: Record<string, unknown> = {}) => ({
  clineVersion: '',
  hookName,
  timestamp: '2026-01-01T00:00:00.000Z',
  taskId: 'conv_1',
  workspaceRoots: [workspace],
  userId: 'u',
  agent_id: 'agent_1',
  parent_agent_id: null,
  ...extra,
});
const toolCall = (name: string, input: unknown) => payload('tool_call', { tool_call: { id: 'call_1', name, input } });

async function answer(engine: HookEngine, raw: Record<string, unknown>) {
  const inputs = cline.inputs(raw);
  const out = await answerHost(cline, engine, inputs[0]!.hook_event_name as string, inputs);
  expect(out.code).toBe(0);
  return out.stdout ? JSON.parse(out.stdout) : undefined;
}

const noDenied = () =>
  new HookEngine().register({
    name: 'no-denied',
    events: 'PreToolUse',
    matcher: { tool: 'Bash', command: 'denied' },
    handler: () => deny('REASON not here'),
  });

/** What a command Cline would run prints and how it exits (Cline runs commands through a POSIX shell). */
const run = (command: string) => spawnSync('sh', ['-c', command], { cwd: workspace, encoding: 'utf8' });

describe('Cline payloads as hookwise inputs', () => {
  it('names the events as hookwise does and carries the task, folder, tool and result', () => {
    const [pre] = cline.inputs(toolCall('search_codebase', { queries: ['TODO'] }));
    expect(pre).toMatchObject({
      hook_event_name: 'PreToolUse',
      session_id: 'conv_1',
      cwd: workspace,
      tool_name: 'Grep',
      tool_input: { pattern: 'TODO' },
      agent_tool_name: 'search_codebase',
      tool_use_id: 'call_1',
    });
    const [post] = cline.inputs(
      payload('tool_result', { tool_result: { id: 'c', name: 'run_commands', input: { commands: ['ls'] }, output: [{ result: 'a' }] } }),
    );
    expect(post).toMatchObject({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_response: [{ result: 'a' }] });
    expect(cline.inputs(payload('agent_end', { turn: { outputText: 'done', status: 'completed' } }))[0]).toMatchObject({
      hook_event_name: 'Stop',
      last_assistant_message: 'done',
    });
    expect(cline.inputs(payload('agent_start'))[0]).toMatchObject({ hook_event_name: 'SessionStart', source: 'startup' });
    expect(cline.inputs(payload('prompt_submit', { userPromptSubmit: { prompt: 'hi' } }))[0]).toMatchObject({
      hook_event_name: 'UserPromptSubmit',
      prompt: 'hi',
    });
  });

  it("reads the VS Code extension's shape too (hookName is the file's, parameters are strings)", () => {
    const inputs = cline.inputs({
      hookName: 'PreToolUse',
      taskId: 't',
      workspaceRoots: [workspace],
      preToolUse: { toolName: 'run_commands', parameters: { commands: '["ls","pwd"]' } },
    });
    expect(inputs.map((i) => i.tool_input?.command)).toEqual(['ls', 'pwd']);
  });

  it('an unknown hookName or a run_commands without commands cannot be read (the failure answer follows)', () => {
    expect(() => cline.inputs(payload('tool_calll'))).toThrow(/hookName "tool_calll"/);
    expect(() => cline.inputs(toolCall('run_commands', { commands: [] }))).toThrow(/no command/);
    expect(() => cline.inputs(toolCall('run_commands', { commands: [42] }))).toThrow(/command 0 is number/);
  });
});

describe('run_commands: every command judged as its own Bash call', () => {
  it('one refused command refuses the call: it becomes one command that prints the reason and fails', async () => {
    const json = await answer(noDenied(), toolCall('run_commands', { commands: ['echo ok > fine.txt', 'echo x > denied.txt'] }));
    expect(Object.keys(json)).toEqual(['overrideInput']);
    expect(json.overrideInput.commands).toHaveLength(1);
    const r = run(json.overrideInput.commands[0]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('hookwise refused the command `echo x > denied.txt`: REASON not here');
    expect(r.stderr).toContain('the 1 other command of this call did not run either');
  });

  it("a refused command's secret is masked where the refusal quotes it (the refusal is the call's output)", async () => {
    const engine = new HookEngine();
    for (const hook of secretGuard()) engine.register(hook);
    const key = ['sk-proj', 'Q7wErT9yUiOp3AsDfGhJkL2z'].join('-');
    const json = await answer(engine, toolCall('run_commands', { commands: [`echo ${key} > leaked.txt`] }));
    const r = run(json.overrideInput.commands[0]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/hookwise refused the command `echo \[REDACTED:openai-api-key\] > leaked.txt`/);
    expect(JSON.stringify(json)).not.toContain(key);
  });

  it('the reason is printed as written, never run: a reason holding shell syntax stays text', async () => {
    const engine = new HookEngine().register({
      name: 'quoting',
      events: 'PreToolUse',
      handler: () => deny(`it's $(touch pwned) \`touch pwned\``),
    });
    const json = await answer(engine, toolCall('run_commands', { commands: ['ls'] }));
    const r = run(json.overrideInput.commands[0]);
    expect(r.stderr).toContain(`it's $(touch pwned) \`touch pwned\``);
    expect(() => readFileSync(path.join(workspace, 'pwned'))).toThrow();
  });

  it('the commands run through no shell ({command, args}) are judged as the command line they amount to', async () => {
    const json = await answer(guardsEngine(), toolCall('run_commands', { commands: [{ command: 'rm', args: ['-rf', '/'] }] }));
    expect(run(json.overrideInput.commands[0]).stderr).toMatch(/hookwise refused the command `rm -rf \/`/);
  });

  it('a rewrite replaces its own command only; the others run as they were', async () => {
    const engine = new HookEngine().register({
      name: 'rewrite',
      events: 'PreToolUse',
      matcher: { tool: 'Bash', command: 'original' },
      handler: (input) => modify({ ...input.tool_input, command: 'echo rewritten' }),
    });
    const json = await answer(engine, toolCall('run_commands', { commands: ['echo a', 'echo original', 'echo b'] }));
    expect(json).toEqual({ overrideInput: { commands: ['echo a', 'echo rewritten', 'echo b'] } });
  });

  it('ask never waits for a person headless: a refusal saying one is needed', async () => {
    const engine = new HookEngine().register({ name: 'ask', events: 'PreToolUse', handler: () => ask('deploys need a person') });
    const json = await answer(engine, toolCall('run_commands', { commands: ['./deploy'] }));
    expect(run(json.overrideInput.commands[0]).stderr).toMatch(
      /deploys need a person \(a person must approve this call, and Cline cannot ask one/,
    );
  });

  it('context from any command reaches the model as context', async () => {
    const engine = new HookEngine().register({ name: 'ctx', events: 'PreToolUse', handler: () => context('CTX rules') });
    expect(await answer(engine, toolCall('run_commands', { commands: ['ls'] }))).toEqual({ context: 'CTX rules' });
  });
});

const guardsEngine = () => new HookEngine().register(shellGuard({ workspace, sandbox: 'off' })).register(pathGuard({ workspace }));

describe('file tools: a refusal is an input the tool itself rejects, the reason as context', () => {
  it('editor creating .env.local is a Write the path guard refuses', async () => {
    const json = await answer(guardsEngine(), toolCall('editor', { path: path.join(workspace, '.env.local'), new_text: 'TOKEN=1' }));
    expect(json.overrideInput).toEqual({ hookwise_refused: expect.stringMatching(/^hookwise refused this editor call: .*\.env\.local/) });
    expect(json.context).toBe(json.overrideInput.hookwise_refused);
  });

  it('editor replacing text is an Edit; a rewrite goes back in its own fields', async () => {
    const [input] = cline.inputs(toolCall('editor', { path: '/w/a.ts', old_text: 'a', new_text: 'b' }));
    expect(input).toMatchObject({ tool_name: 'Edit', tool_input: { file_path: '/w/a.ts', old_string: 'a', new_string: 'b' } });
    const engine = new HookEngine().register({
      name: 'rewrite',
      events: 'PreToolUse',
      handler: (i) => modify({ ...i.tool_input, new_string: 'c' }),
    });
    const json = await answer(engine, toolCall('editor', { path: '/w/a.ts', old_text: 'a', new_text: 'b' }));
    expect(json.overrideInput).toEqual({ path: '/w/a.ts', old_text: 'a', new_text: 'c' });
  });

  it('apply_patch is judged per file: one protected file refuses the patch', async () => {
    const patch = '*** Begin Patch\n*** Add File: notes.txt\n+ok\n*** Add File: .env.local\n+TOKEN=1\n*** End Patch\n';
    expect(cline.inputs(toolCall('apply_patch', { input: patch })).map((i) => i.tool_input?.file_path)).toEqual([
      'notes.txt',
      '.env.local',
    ]);
    const json = await answer(guardsEngine(), toolCall('apply_patch', { input: patch }));
    expect(json.overrideInput.hookwise_refused).toMatch(/apply_patch call: .*\.env\.local/);
  });

  it('read_files reads each file as a Read, in every shape Cline accepts', () => {
    const paths = (input: unknown) => cline.inputs(toolCall('read_files', input)).map((i) => [i.tool_name, i.tool_input?.file_path]);
    expect(paths({ files: [{ path: '/a' }, { path: '/b', start_line: 2 }] })).toEqual([
      ['Read', '/a'],
      ['Read', '/b'],
    ]);
    expect(paths({ file_paths: ['/c'] })).toEqual([['Read', '/c']]);
    expect(paths('/d')).toEqual([['Read', '/d']]);
  });

  it('a tool whose validation hookwise does not know (MCP) is refused by ending the run', async () => {
    const engine = new HookEngine().register({ name: 'no-mcp', events: 'PreToolUse', handler: () => deny('no mcp') });
    const json = await answer(engine, toolCall('mcp__github__merge', { pr: 1 }));
    expect(json).toEqual({ cancel: true, errorMessage: expect.stringMatching(/no mcp .*the run ends/) });
  });
});

describe('after the tool, and hookwise failing', () => {
  it('PostToolUse: a block is context for the model; an output hookwise would replace ends the run', async () => {
    const block = new HookEngine().register({ name: 'b', events: 'PostToolUse', handler: () => deny('look again') });
    const result = payload('tool_result', { tool_result: { id: 'c', name: 'run_commands', input: { commands: ['ls'] }, output: 'x' } });
    expect(await answer(block, result)).toEqual({ context: 'look again' });
    const redact = new HookEngine().register({ name: 'r', events: 'PostToolUse', handler: () => replaceOutput('redacted') });
    expect(await answer(redact, result)).toEqual({
      cancel: true,
      errorMessage: expect.stringMatching(/the run ends before the model reads it/),
    });
  });

  it('a call hookwise refused comes back to PostToolUse as its refusal, read without failing', () => {
    const [input] = cline.inputs(
      payload('tool_result', { tool_result: { id: 'c', name: 'apply_patch', input: { hookwise_refused: 'x' }, output: 'err' } }),
    );
    expect(input).toMatchObject({ hook_event_name: 'PostToolUse', tool_name: 'apply_patch' });
  });

  it('every failure is a cancel on stdout, exit 0 (Cline ignores exit codes); fail-open says nothing', () => {
    for (const event of [undefined, 'PreToolUse', 'PostToolUse', 'Stop']) {
      const f = cline.failure(event, 'boom', false);
      expect(f.code).toBe(0);
      expect(JSON.parse(f.stdout!)).toEqual({ cancel: true, errorMessage: 'hookwise failed closed: boom' });
    }
    expect(cline.failure('PreToolUse', 'boom', true).stdout).toBeUndefined();
  });

  it('hookwise cline, spawned, with a broken policy: cancel on exit 0', async () => {
    const dir = mkdtempSync(path.join(root, 'broken-'));
    writeFileSync(path.join(dir, 'hookwise.config.mjs'), `throw new Error('broken');\n`);
    const r = await runCli(['cline'], {
      cwd: dir,
      stdin: JSON.stringify({ ...toolCall('run_commands', { commands: ['ls'] }), workspaceRoots: [dir] }),
      env: { HOOKWISE_RESIDENT: '0', HOOKWISE_FAIL_OPEN: '' },
      unset: ['CLAUDE_PROJECT_DIR'],
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ cancel: true, errorMessage: expect.stringMatching(/^hookwise failed closed: .*broken/) });
  });
});

describe('the hook files', () => {
  it('a hook script whose hookwise cannot run answers cancel itself (Cline would run the tool on silence)', () => {
    const dir = mkdtempSync(path.join(root, 'script-'));
    writeFileSync(path.join(dir, 'hookwise.config.mjs'), 'export default {};\n');
    const file = path.join(dir, 'PreToolUse');
    writeFileSync(file, clineHookScript('PreToolUse'));
    chmodSync(file, 0o755);
    const run = () => spawnSync(file, { cwd: dir, input: '{}', encoding: 'utf8' });
    // A clone, or an install since deleted: nothing says where hookwise is.
    expect(JSON.parse(run().stdout)).toEqual({
      cancel: true,
      errorMessage: expect.stringMatching(/hookwise is not installed in this project/),
    });
    mkdirSync(path.join(dir, '.hookwise'));
    writeFileSync(path.join(dir, '.hookwise', 'install'), path.join(root, 'missing', 'hookwise.js'));
    expect(JSON.parse(run().stdout).errorMessage).toMatch(/hookwise is not installed in this project/);
    // One that runs and fails: its exit code, refused.
    const crashing = path.join(dir, 'crash.cjs');
    writeFileSync(crashing, 'process.exit(3);\n');
    writeFileSync(path.join(dir, '.hookwise', 'install'), crashing);
    const r = run();
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      cancel: true,
      errorMessage: 'hookwise failed closed: hookwise could not be run (exit 3): the call is refused',
    });
  });

  it('names Cline runs for an event', () => {
    expect(['PreToolUse', 'pretooluse.sh', 'PreToolUse.py'].every((n) => isHookFileFor('PreToolUse', n))).toBe(true);
    expect(['PreToolUse.txt', 'PreToolUseX', 'PostToolUse'].some((n) => isHookFileFor('PreToolUse', n))).toBe(false);
  });

  it('init cline writes executables, is idempotent, and never overwrites a hook of the user', async () => {
    const dir = mkdtempSync(path.join(root, 'init-'));
    const init = () => runCli(['init', 'cline'], { cwd: dir, env: { HOME: dir } });
    expect((await init()).code).toBe(0);
    const pre = path.join(dir, '.clinerules', 'hooks', 'PreToolUse');
    expect(readFileSync(pre, 'utf8')).toMatch(/node "\$b" cline\)\n/);
    expect(readFileSync(pre, 'utf8')).not.toContain(dir);
    expect(readFileSync(path.join(dir, '.clinerules', 'hooks', 'TaskComplete'), 'utf8')).toMatch(/cline --no-resident/);
    expect((await init()).stdout).toMatch(/kept .*\.clinerules\/hooks\/ \(hookwise already answers every event\)/);
    writeFileSync(path.join(dir, '.clinerules', 'hooks', 'PostToolUse'), '#!/bin/sh\necho mine\n');
    const refused = await init();
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/\.clinerules\/hooks\/PostToolUse is not hookwise's.*move its logic into hookwise\.config/);
    expect(readFileSync(path.join(dir, '.clinerules', 'hooks', 'PostToolUse'), 'utf8')).toBe('#!/bin/sh\necho mine\n');
  });

  it('with .clinerules as the older single rules file, init writes into .cline/hooks', async () => {
    const dir = mkdtempSync(path.join(root, 'rules-file-'));
    writeFileSync(path.join(dir, '.clinerules'), 'be nice\n');
    expect((await runCli(['init', 'cline'], { cwd: dir, env: { HOME: dir } })).code).toBe(0);
    expect(readFileSync(path.join(dir, '.cline', 'hooks', 'PreToolUse'), 'utf8')).toMatch(/hookwise/);
  });
});
