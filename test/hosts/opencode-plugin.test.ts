import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openCodePlugin } from '../../src/hosts/opencode/plugin.js';
import { cliPath, runCli } from '../cli/run-cli.js';

/**
 * hookwise's OpenCode plugin as `hookwise init opencode` writes it, loaded as OpenCode
 * loads it and called with the objects OpenCode 1.18.33 hands its hooks, against the
 * built CLI (`npm run build`). What it does inside the real OpenCode is test/agents.
 */
const root = mkdtempSync(path.join(tmpdir(), 'hookwise-opencode-plugin-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const POLICY = `import { defineConfig, deny, modify, context } from ${JSON.stringify(pathToFileURL(path.resolve('dist/index.js')).href)};
export default defineConfig({ hooks: [
  { name: 'no-rm', events: 'PreToolUse', matcher: { tool: 'Bash', command: 'rm ' }, handler: () => deny('REASON no rm') },
  { name: 'quiet', events: 'PreToolUse', matcher: { tool: 'Bash', command: 'npm test' }, handler: (i) => modify({ ...i.tool_input, command: 'npm test --silent' }) },
  { name: 'start', events: 'SessionStart', handler: () => context('CTX session') },
  { name: 'prompt', events: 'UserPromptSubmit', handler: () => context('CTX prompt') },
  { name: 'post', events: 'PostToolUse', handler: () => context('CTX after') },
] });
`;

let n = 0;
/** The plugin in a project whose machine-local state names `bin` as its hookwise (as init writes it); none when null. */
async function pluginIn(project: string, bin: string | null = cliPath) {
  if (bin !== null) {
    mkdirSync(path.join(project, '.hookwise'), { recursive: true });
    writeFileSync(path.join(project, '.hookwise', 'install'), `${bin}\n`);
  }
  const file = path.join(root, `plugin-${n++}.mjs`);
  writeFileSync(file, openCodePlugin());
  const { Hookwise } = await import(pathToFileURL(file).href);
  return Hookwise({ directory: project });
}

function project(policy = POLICY) {
  const dir = mkdtempSync(path.join(root, 'p-'));
  writeFileSync(path.join(dir, 'hookwise.config.mjs'), policy);
  return dir;
}

process.env.HOOKWISE_RESIDENT = '0';
const call = (tool: string, args: Record<string, unknown>) => [{ tool, sessionID: 'ses_1', callID: 'call_1' }, { args }] as const;

describe('the plugin inside OpenCode', () => {
  it('a refused tool call throws its reason (OpenCode hands it to the model); an allowed one passes unchanged', async () => {
    const hooks = await pluginIn(project());
    await expect(hooks['tool.execute.before'](...call('bash', { command: 'rm -rf build' }))).rejects.toThrow('REASON no rm');
    const [input, output] = call('bash', { command: 'ls', description: 'd' });
    await hooks['tool.execute.before'](input, output);
    expect(output.args).toEqual({ command: 'ls', description: 'd' });
  });

  it('a rewrite changes the very args object OpenCode runs the tool with', async () => {
    const hooks = await pluginIn(project());
    const [input, output] = call('bash', { command: 'npm test', description: 'd' });
    const args = output.args;
    await hooks['tool.execute.before'](input, output);
    expect(output.args).toBe(args);
    expect(args).toEqual({ command: 'npm test --silent', description: 'd' });
  });

  it("a session's first prompt gets SessionStart's and UserPromptSubmit's context as synthetic parts; later prompts only the latter", async () => {
    const hooks = await pluginIn(project());
    const prompt = () => ({ message: { id: 'msg_1' }, parts: [{ id: 'prt_0', type: 'text', text: 'hi' }] as Record<string, unknown>[] });
    const first = prompt();
    await hooks['chat.message']({ sessionID: 'ses_1' }, first);
    expect(first.parts.slice(1)).toEqual([
      {
        id: expect.stringMatching(/^prt_[0-9a-f]{12}[0-9A-Za-z]{14}$/),
        messageID: 'msg_1',
        sessionID: 'ses_1',
        type: 'text',
        text: 'CTX session',
        synthetic: true,
      },
      expect.objectContaining({ text: 'CTX prompt', synthetic: true }),
    ]);
    const second = prompt();
    await hooks['chat.message']({ sessionID: 'ses_1' }, second);
    expect(second.parts.slice(1).map((p) => p.text)).toEqual(['CTX prompt']);
  });

  it('context after a tool is appended to the output the model sees', async () => {
    const hooks = await pluginIn(project());
    const output = { title: 'ls', output: 'a.txt', metadata: {} };
    await hooks['tool.execute.after']({ tool: 'bash', sessionID: 'ses_1', callID: 'call_1', args: { command: 'ls' } }, output);
    expect(output.output).toBe('a.txt\n\nCTX after');
  });

  it('a broken policy refuses the call and the prompt, saying why', async () => {
    const hooks = await pluginIn(project(`throw new Error('policy broken');\n`));
    await expect(hooks['tool.execute.before'](...call('bash', { command: 'ls' }))).rejects.toThrow(
      /hookwise failed closed: .*policy broken/,
    );
    await expect(hooks['chat.message']({ sessionID: 's' }, { message: { id: 'm' }, parts: [] })).rejects.toThrow(/failed closed/);
  });

  it('a hookwise that cannot run, or answers what the plugin cannot read, refuses', async () => {
    const missing = await pluginIn(project(), path.join(root, 'no-such', 'hookwise.js'));
    await expect(missing['tool.execute.before'](...call('bash', { command: 'ls' }))).rejects.toThrow(
      /hookwise failed closed: hookwise is not installed in this project/,
    );
    // A clone: the committed plugin and policy, no machine-local state.
    const clone = await pluginIn(project(), null);
    await expect(clone['tool.execute.before'](...call('bash', { command: 'ls' }))).rejects.toThrow(
      /hookwise is not installed in this project/,
    );
    const noise = path.join(root, 'noise.cjs');
    writeFileSync(noise, `process.stdout.write('{"hookSpecificOutput":{"permissionDecision":"allow"}}\\n');\n`);
    const wrong = await pluginIn(project(), noise);
    await expect(wrong['tool.execute.before'](...call('bash', { command: 'ls' }))).rejects.toThrow(
      /an answer OpenCode's plugin cannot read/,
    );
  });

  it('in a folder with no hookwise.config.*, nothing to run: the call passes', async () => {
    const hooks = await pluginIn(mkdtempSync(path.join(root, 'plain-')), null);
    const [input, output] = call('bash', { command: 'rm -rf build', description: 'd' });
    await hooks['tool.execute.before'](input, output);
    expect(output.args).toEqual({ command: 'rm -rf build', description: 'd' });
  });
});

describe('hookwise init opencode', () => {
  const plugin = (dir: string) => path.join(dir, '.opencode', 'plugins', 'hookwise.js');

  it("writes the plugin next to the user's own, again changes nothing, and never overwrites a hookwise.js it did not write", async () => {
    const dir = mkdtempSync(path.join(root, 'init-'));
    mkdirSync(path.join(dir, '.opencode', 'plugins'), { recursive: true });
    writeFileSync(path.join(dir, '.opencode', 'plugins', 'mine.js'), 'export const Mine = async () => ({});\n');
    const r = await runCli(['init', 'opencode'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/wrote +\.opencode\/plugins\/hookwise\.js/);
    // The plugin (committed with the project) names no machine's hookwise; this machine's is in .hookwise/.
    expect(readFileSync(plugin(dir), 'utf8')).not.toContain(cliPath);
    expect(readFileSync(path.join(dir, '.hookwise', 'install'), 'utf8').trim()).toBe(cliPath);
    expect(readFileSync(path.join(dir, '.opencode', 'plugins', 'mine.js'), 'utf8')).toBe('export const Mine = async () => ({});\n');
    expect(existsSync(path.join(dir, 'hookwise.config.ts'))).toBe(true);
    expect((await runCli(['init', 'opencode'], { cwd: dir })).stdout).toMatch(/kept +\.opencode\/plugins\/hookwise\.js/);

    writeFileSync(plugin(dir), 'export const Theirs = async () => ({});\n');
    const refused = await runCli(['init', 'opencode'], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/hookwise\.js: a plugin hookwise did not write is there; move it aside/);
    expect(readFileSync(plugin(dir), 'utf8')).toBe('export const Theirs = async () => ({});\n');
  });
});
