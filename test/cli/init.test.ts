import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { directCommand, mergeClaudeSettings, npxCommand, SERVE_URL } from '../../src/cli/init/claude-settings.js';
import { starterConfig } from '../../src/cli/init/starter-config.js';
import { bridgeProblem } from '../../src/sandbox/proxy/bridge.js';
import { privateTempRoot, sessionKey } from '../../src/sandbox/private-temp.js';
import { repoRoot, runCli, runNode, runProgram } from './run-cli.js';
import { slack } from '../support/slack.js';

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

/** A project that has hookwise installed (a link to this checkout), as after `npm install -D hookwise`. */
function project(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-init-'));
  roots.push(dir);
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(repoRoot, path.join(dir, 'node_modules', 'hookwise'), 'dir');
  return dir;
}

const bash = (command: string, cwd: string) =>
  JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd, tool_name: 'Bash', tool_input: { command } });

describe('hookwise init', () => {
  it('writes a starter policy whose guards deny rm -rf ~ and allow git status', async () => {
    const dir = project();
    const init = await runCli(['init'], { cwd: dir });
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('wrote    hookwise.config.ts');
    const check = await runCli(['check'], { cwd: dir });
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toMatch(/shell/);

    const denied = await runCli(['fire', 'PreToolUse'], { cwd: dir, stdin: bash('rm -rf ~', dir) });
    expect(JSON.parse(denied.stdout)).toMatchObject({ blocked: true, decision: 'deny' });
    const allowed = await runCli(['fire', 'PreToolUse'], { cwd: dir, stdin: bash('git status', dir) });
    expect(JSON.parse(allowed.stdout)).toMatchObject({ blocked: false });
  });

  it("chooses the sandbox's network and says which: registries where the proxy's bridge runs, else none", async () => {
    const dir = project();
    const init = await runCli(['init'], { cwd: dir });
    const config = readFileSync(path.join(dir, 'hookwise.config.ts'), 'utf8');
    if (bridgeProblem(process.platform) === undefined) {
      expect(config).toContain("shellGuard({ sandbox: { network: 'registries' } })");
      expect(init.stdout).toMatch(/network\s+sandboxed commands reach package registries and git remotes/);
    } else {
      expect(config).toMatch(/^ {4}shellGuard\(\),$/m);
      expect(init.stdout).toMatch(/network\s+sandboxed commands get no network/);
    }
    expect(starterConfig('off')).toMatch(/^ {4}shellGuard\(\),$/m);
    expect(starterConfig('registries')).toContain("network: 'registries'");
  });

  it('compiles the policy as it writes it, so the first hook call does not; a policy that does not load is named', async () => {
    const dir = project();
    const init = await runCli(['init'], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    const cache = readdirSync(path.join(dir, '.hookwise', 'cache'));
    expect(cache.filter((f) => /^hookwise\.config\.ts\..*\.mjs$/.test(f))).toHaveLength(1);
    expect(cache).toContain('hookwise.config.ts.files.json');

    const broken = project();
    writeFileSync(
      path.join(broken, 'hookwise.config.ts'),
      'export default { hooks: [ { name: "x", events: "PreToolUse", handler: ( } ] };\n',
    );
    const again = await runCli(['init'], { cwd: broken });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(
      /note {5}hookwise\.config\.ts: .*could not load config module.*; every hook call fails closed until it loads/,
    );
  });

  it('never overwrites an existing config', async () => {
    const dir = project();
    writeFileSync(path.join(dir, 'hookwise.config.mjs'), 'export default { hooks: [] };\n');
    const init = await runCli(['init'], { cwd: dir });
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('kept');
    expect(existsSync(path.join(dir, 'hookwise.config.ts'))).toBe(false);
  });

  it('claude-code: merges into settings.json and keeps everything that was there', async () => {
    const dir = project();
    mkdirSync(path.join(dir, '.claude'));
    const before = {
      model: 'sonnet',
      permissions: { allow: ['Bash(npm test)'] },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './audit.sh' }] }] },
    };
    writeFileSync(path.join(dir, '.claude', 'settings.json'), JSON.stringify(before));
    const init = await runCli(['init', 'claude-code'], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    const after = JSON.parse(readFileSync(path.join(dir, '.claude', 'settings.json'), 'utf8'));
    expect(after.model).toBe('sonnet');
    expect(after.permissions).toEqual(before.permissions);
    expect(after.hooks.PreToolUse[0]).toEqual(before.hooks.PreToolUse[0]);
    expect(after.hooks.PreToolUse[1]).toEqual({ hooks: [{ type: 'command', command: directCommand('PreToolUse') }] });
    expect(Object.keys(after.hooks)).toEqual(['PreToolUse', 'PermissionRequest', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'SessionEnd']);

    // A second run changes nothing.
    const again = await runCli(['init', 'claude-code'], { cwd: dir });
    expect(again.stdout).toContain('already answers every event');
    expect(JSON.parse(readFileSync(path.join(dir, '.claude', 'settings.json'), 'utf8'))).toEqual(after);
  });

  it('claude-code: the command it writes answers Claude Code, as Claude Code runs it (sh, CLAUDE_PROJECT_DIR)', async () => {
    const dir = project();
    expect((await runCli(['init', 'claude-code'], { cwd: dir })).code).toBe(0);
    const settings = JSON.parse(readFileSync(path.join(dir, '.claude', 'settings.json'), 'utf8'));
    const command: string = settings.hooks.PreToolUse[0].hooks[0].command;
    const run = (shellCommand: string) =>
      runNode(
        [
          '-e',
          `require('node:child_process').spawnSync('sh', ['-c', ${JSON.stringify(shellCommand)}], { stdio: 'inherit' }).status === 2 && process.exit(2)`,
        ],
        {
          cwd: dir,
          stdin: bash('rm -rf ~', dir),
          env: { CLAUDE_PROJECT_DIR: dir, HOOKWISE_CLAUDE_CODE: '' },
        },
      );
    const denied = await run(command);
    expect(denied.code, denied.stderr).toBe(0);
    expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it("claude-code: the session's own /tmp is kept between its commands and removed by the SessionEnd entry init writes", async () => {
    const dir = project();
    expect((await runCli(['init'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['init', 'claude-code'], { cwd: dir })).code).toBe(0);
    const settings = JSON.parse(readFileSync(path.join(dir, '.claude', 'settings.json'), 'utf8'));
    /** Run the entry init wrote for an event through sh, as Claude Code does. */
    const entry = (event: string, input: object) =>
      runProgram('sh', ['-c', settings.hooks[event][0].hooks[0].command], {
        cwd: dir,
        stdin: JSON.stringify({ hook_event_name: event, session_id: 'end-me', cwd: dir, ...input }),
        env: { CLAUDE_PROJECT_DIR: dir, HOOKWISE_CLAUDE_CODE: '' },
      });
    const name = `hw-end-${path.basename(dir)}`;
    const bashCall = async (command: string) => {
      const pre = await entry('PreToolUse', { tool_name: 'Bash', tool_input: { command } });
      expect(pre.code, pre.stderr).toBe(0);
      return runProgram('bash', ['-c', JSON.parse(pre.stdout).hookSpecificOutput.updatedInput.command], { cwd: dir });
    };
    expect((await bashCall(`echo kept > /tmp/${name}`)).code).toBe(0);
    expect((await bashCall(`cat /tmp/${name}`)).stdout).toBe('kept\n');
    expect(existsSync(`/tmp/${name}`)).toBe(false);
    const folder = path.join(privateTempRoot(homedir()), sessionKey('end-me', dir));
    expect(readFileSync(path.join(folder, 'tmp', name), 'utf8')).toBe('kept\n');
    const end = await entry('SessionEnd', { reason: 'exit' });
    expect(end.code, end.stderr).toBe(0);
    expect(existsSync(folder)).toBe(false);
    expect((await bashCall(`cat /tmp/${name}`)).code).not.toBe(0);
  });

  it('claude-code: without hookwise installed it writes npx and says what that costs; once installed, init switches to it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-init-'));
    roots.push(dir);
    const before = await runCli(['init', 'claude-code'], { cwd: dir });
    expect(before.stdout).toContain('about a second per call');
    const file = path.join(dir, '.claude', 'settings.json');
    const settings = JSON.parse(readFileSync(file, 'utf8'));
    // As an earlier hookwise wrote it, with a flag added by hand.
    settings.hooks.Stop[0].hooks[0].command = 'npx hookwise claude-code --fail-open';
    writeFileSync(file, JSON.stringify(settings));
    expect(settings.hooks.PreToolUse[0].hooks[0].command).toBe(npxCommand('PreToolUse'));
    mkdirSync(path.join(dir, 'node_modules'));
    symlinkSync(repoRoot, path.join(dir, 'node_modules', 'hookwise'), 'dir');
    const after = await runCli(['init', 'claude-code'], { cwd: dir });
    expect(after.stdout).toContain(
      'the installed hookwise instead of npx on PreToolUse, PermissionRequest, PostToolUse, UserPromptSubmit, Stop, SessionEnd',
    );
    const upgraded = JSON.parse(readFileSync(file, 'utf8'));
    expect(upgraded.hooks.PreToolUse[0].hooks[0].command).toBe(directCommand('PreToolUse'));
    expect(upgraded.hooks.Stop[0].hooks[0].command).toBe(directCommand('Stop', ' --fail-open'));
    expect(upgraded.hooks.Stop[0].hooks[0].command).toBe(
      'node "$CLAUDE_PROJECT_DIR/node_modules/hookwise/bin/hookwise.js" claude-code --fail-open',
    );
    expect((await runCli(['init', 'claude-code'], { cwd: dir })).stdout).toContain('already answers every event');
  });

  it('claude-code --serve --print writes nothing and prints the HTTP entries', async () => {
    const dir = project();
    const init = await runCli(['init', 'claude-code', '--serve', '--print'], { cwd: dir });
    expect(init.code).toBe(0);
    expect(existsSync(path.join(dir, '.claude'))).toBe(false);
    expect(existsSync(path.join(dir, 'hookwise.config.ts'))).toBe(false);
    const json = init.stdout.slice(init.stdout.indexOf('--- .claude/settings.json') + 26);
    const printed = JSON.parse(json);
    expect(printed.hooks.PreToolUse[0].hooks[0]).toMatchObject({ type: 'http', url: SERVE_URL, allowedEnvVars: ['HOOKWISE_TOKEN'] });
  });

  it('a settings.json it cannot read is left untouched, with the file and line named', async () => {
    const dir = project();
    mkdirSync(path.join(dir, '.claude'));
    const broken = '{\n  "hooks": {,\n}';
    writeFileSync(path.join(dir, '.claude', 'settings.json'), broken);
    const init = await runCli(['init', 'claude-code'], { cwd: dir });
    expect(init.code).toBe(1);
    expect(init.stderr).toMatch(/settings\.json: invalid JSON at line 2/);
    expect(readFileSync(path.join(dir, '.claude', 'settings.json'), 'utf8')).toBe(broken);
  });

  it('an unknown host is an error that names the one it knows', async () => {
    const init = await runCli(['init', 'cursor'], { cwd: project() });
    expect(init.code).toBe(1);
    expect(init.stderr).toContain('claude-code');
  });
});

/**
 * Finding 8 of issue 23: a project that commits the settings init writes and is cloned
 * without `npm install`. The entry's exact command runs as Claude Code runs it (sh,
 * CLAUDE_PROJECT_DIR), in a project with no node_modules/hookwise.
 */
describe('a missing hookwise fails closed', () => {
  const runEntry = (command: string, dir: string, event: string, env: Record<string, string> = {}) =>
    runNode(
      [
        '-e',
        `const r = require('node:child_process').spawnSync('/bin/sh', ['-c', ${JSON.stringify(command)}], { stdio: 'inherit' }); process.exit(r.status ?? 1)`,
      ],
      {
        cwd: dir,
        stdin: JSON.stringify({
          hook_event_name: event,
          session_id: 's',
          cwd: dir,
          tool_name: 'Bash',
          tool_input: { command: 'rm -rf ~' },
        }),
        env: { CLAUDE_PROJECT_DIR: dir, HOOKWISE_CLAUDE_CODE: '', ...env },
      },
    );

  /** The settings init writes when hookwise is installed, in a clone that has not run npm install. */
  async function clone(): Promise<{ dir: string; settings: { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> } }> {
    const dir = project();
    expect((await runCli(['init', 'claude-code'], { cwd: dir })).code).toBe(0);
    const settings = JSON.parse(readFileSync(path.join(dir, '.claude', 'settings.json'), 'utf8'));
    rmSync(path.join(dir, 'node_modules'), { recursive: true });
    return { dir, settings };
  }

  it('the plain command an earlier init wrote exits 1 (Claude Code runs the tool unguarded)', async () => {
    const { dir } = await clone();
    const r = await runEntry('node "$CLAUDE_PROJECT_DIR/node_modules/hookwise/bin/hookwise.js" claude-code', dir, 'PreToolUse');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Cannot find module');
  });

  it.each(['PreToolUse', 'PermissionRequest', 'UserPromptSubmit'])('%s: exit 2 and one line naming npm install', async (event) => {
    const { dir, settings } = await clone();
    const r = await runEntry(settings.hooks[event]![0]!.hooks[0]!.command, dir, event);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toBe(
      'hookwise failed closed: hookwise is not installed in this project (node_modules/hookwise is missing): run npm install\n',
    );
  });

  it.each(['Stop', 'PostToolUse'])('%s (where exit 2 would keep the agent going or cannot block): the run ends', async (event) => {
    const { dir, settings } = await clone();
    const r = await runEntry(settings.hooks[event]![0]!.hooks[0]!.command, dir, event);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      continue: false,
      stopReason: 'hookwise failed closed: hookwise is not installed in this project (node_modules/hookwise is missing): run npm install',
    });
  });

  it('no node on the PATH: the same refusal', async () => {
    const { dir, settings } = await clone();
    mkdirSync(path.join(dir, 'node_modules'));
    symlinkSync(repoRoot, path.join(dir, 'node_modules', 'hookwise'), 'dir');
    const r = await runEntry(settings.hooks.PreToolUse![0]!.hooks[0]!.command, dir, 'PreToolUse', { PATH: '/nonexistent' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^hookwise failed closed: .*run npm install\n$/);
  });

  it(
    "the npx form: npx failing to run hookwise (offline, not installed) refuses too; hookwise's own answers pass",
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-init-'));
      roots.push(dir);
      expect((await runCli(['init', 'claude-code'], { cwd: dir })).code).toBe(0);
      const settings = JSON.parse(readFileSync(path.join(dir, '.claude', 'settings.json'), 'utf8'));
      // Offline: npx cannot fetch hookwise, and the test asks no registry.
      const offline = { npm_config_offline: 'true', npm_config_yes: 'false' };
      const pre = await runEntry(settings.hooks.PreToolUse[0].hooks[0].command, dir, 'PreToolUse', offline);
      expect([pre.code, pre.stdout]).toEqual([2, '']);
      expect(pre.stderr).toContain('hookwise failed closed: npx could not run hookwise: run npm install --save-dev hookwise\n');
      const stop = await runEntry(settings.hooks.Stop[0].hooks[0].command, dir, 'Stop', offline);
      expect(stop.code).toBe(0);
      expect(JSON.parse(stop.stdout)).toMatchObject({ continue: false });
      // Installed (npx finds it in node_modules/.bin): the same command gives hookwise's own answer.
      mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
      symlinkSync(repoRoot, path.join(dir, 'node_modules', 'hookwise'), 'dir');
      symlinkSync(path.join(repoRoot, 'bin', 'hookwise.js'), path.join(dir, 'node_modules', '.bin', 'hookwise'));
      const answered = await runEntry(settings.hooks.PreToolUse[0].hooks[0].command, dir, 'PreToolUse', offline);
      expect(answered.code, answered.stderr).toBe(0);
      expect(JSON.parse(answered.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
      // npx is slow to start, three times over, on a loaded machine.
    },
    slack(120_000),
  );

  it('init run again rewrites the entries an earlier init wrote into the form that fails closed (flags kept)', async () => {
    const dir = project();
    mkdirSync(path.join(dir, '.claude'));
    const old = (flags = '') => ({
      hooks: [{ type: 'command', command: `node "$CLAUDE_PROJECT_DIR/node_modules/hookwise/bin/hookwise.js" claude-code${flags}` }],
    });
    const hooks = {
      PreToolUse: [old(' --config policy.ts')],
      PermissionRequest: [old()],
      PostToolUse: [old()],
      UserPromptSubmit: [old()],
      Stop: [old()],
    };
    writeFileSync(path.join(dir, '.claude', 'settings.json'), JSON.stringify({ hooks }));
    const init = await runCli(['init', 'claude-code'], { cwd: dir });
    expect(init.stdout).toContain(
      'the call is refused when hookwise cannot be run, on PreToolUse, PermissionRequest, PostToolUse, UserPromptSubmit, Stop\n',
    );
    // An earlier hookwise wrote no SessionEnd entry: it is added.
    expect(init.stdout).toContain('updated  .claude/settings.json: hookwise on SessionEnd\n');
    const after = JSON.parse(readFileSync(path.join(dir, '.claude', 'settings.json'), 'utf8'));
    expect(after.hooks.PreToolUse[0].hooks[0].command).toBe(directCommand('PreToolUse', ' --config policy.ts'));
    expect(after.hooks.Stop[0].hooks[0].command).toBe(directCommand('Stop'));
    expect((await runCli(['init', 'claude-code'], { cwd: dir })).stdout).toContain('already answers every event');
  });
});

describe('docs/claude-code.md', () => {
  it('shows the settings init writes in a project that installs hookwise', () => {
    const doc = readFileSync(path.join(repoRoot, 'docs', 'claude-code.md'), 'utf8');
    const block = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes('PermissionRequest'));
    expect(JSON.parse(block!)).toEqual(mergeClaudeSettings({}, 'command', true).settings);
  });
});

describe('mergeClaudeSettings', () => {
  it('refuses a hooks block of the wrong shape instead of replacing it', () => {
    expect(() => mergeClaudeSettings({ hooks: [] }, 'command')).toThrow(/hooks: expected an object/);
    expect(() => mergeClaudeSettings({ hooks: { Stop: 'x' } }, 'command')).toThrow(/hooks\.Stop: expected an array/);
  });
});
