import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { untrustedKeys, withHookTrust } from '../../src/hosts/codex/config-toml.js';
import { hookHash, hookwiseTrust } from '../../src/hosts/codex/trust.js';
import { entryCommand, runsHookwiseFor } from '../../src/hosts/entry-command.js';
import { hostNamed } from '../../src/hosts/index.js';
import { runCli } from '../cli/run-cli.js';

/**
 * Codex runs a hook of the user's hooks.json only once it is trusted (its hash recorded in
 * config.toml); `hookwise init codex` records that trust for hookwise's own entries.
 */
describe("Codex's hook hash", () => {
  // Each hash as Codex 0.169.0 reported it (`codex app-server`, hooks/list: currentHash) for this hooks.json.
  it.each([
    ['PreToolUse', 'Bash', { type: 'command', command: './mine.sh' }, 'ef2df9b1be9db71a98d5f636d53f703deb9d86cdbe4f12539dceb718f066727b'],
    [
      'PreToolUse',
      '*',
      { type: 'command', command: 'echo a', timeout: 60 },
      'e755801d10cf271367355512fa3c7dda0e7dfc6a2dbee5a748440b06c5dded22',
    ],
    [
      'SessionStart',
      ' ',
      { type: 'command', command: 'echo d', timeout: 5, async: true },
      '10e34f452bf77e633b2db8d963275ccbe922dccecb60c5532ed05f0d1ab7f6eb',
    ],
    // No matcher for a prompt or a stop; a timeout of 0 is 1 s; a status message is part of the hook.
    ['UserPromptSubmit', '*', { type: 'command', command: 'echo b' }, 'bdef6506925608d9411a1093c1077a65d50ecc9914be7ea660f73dcca4bf6d6f'],
    [
      'Stop',
      undefined,
      { type: 'command', command: 'echo c', timeout: 0, statusMessage: 's' },
      '45397b0ef1e18e47dcd315169643490d989a162b1f573e9b080ca1746a0ce1bf',
    ],
  ])('%s (matcher %j): %j is the hash Codex computes', (event, matcher, handler, hex) => {
    expect(hookHash(event, matcher, handler)).toBe(`sha256:${hex}`);
  });

  it("keys hookwise's handlers only, by Codex's position of each (file, event, group, handler)", () => {
    const hookwise = (event: string) => ({ type: 'command', command: entryCommand(hostNamed('codex'), { event }), timeout: 60 });
    const content = {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: './mine.sh' }] },
          { matcher: '*', hooks: [hookwise('PreToolUse')] },
        ],
        Stop: [{ hooks: [hookwise('Stop')] }],
      },
    };
    const trust = hookwiseTrust('/h/hooks.json', content, runsHookwiseFor('codex'));
    expect(trust.map((t) => t.key)).toEqual(['/h/hooks.json:pre_tool_use:1:0', '/h/hooks.json:stop:0:0']);
    expect(trust[0]!.hash).toBe(hookHash('PreToolUse', '*', content.hooks.PreToolUse[1]!.hooks[0]!));
  });
});

describe('the trust in config.toml', () => {
  const trust = [
    { key: '/h/hooks.json:pre_tool_use:0:0', hash: 'sha256:aa' },
    { key: '/h/hooks.json:stop:0:0', hash: 'sha256:bb' },
  ];

  it('adds a table per hook as Codex writes it, keeping every other line', () => {
    const before = 'model = "m" # mine\n\n[projects."/p"]\ntrust_level = "trusted"\n';
    const edit = withHookTrust(before, trust);
    expect(edit).toEqual({
      changed: true,
      text: `${before}\n[hooks.state."/h/hooks.json:pre_tool_use:0:0"]\ntrusted_hash = "sha256:aa"\n\n[hooks.state."/h/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:bb"\n`,
    });
    if (!('text' in edit)) throw new Error('unreachable');
    expect(untrustedKeys(edit.text, trust)).toEqual([]);
    expect(withHookTrust(edit.text, trust)).toEqual({ text: edit.text, changed: false });
  });

  it("replaces a stale hash in place, and keeps the table's other keys (a hook the person disabled stays so)", () => {
    const before = '[hooks.state]\n\n[hooks.state.\'/h/hooks.json:stop:0:0\']\nenabled = false\ntrusted_hash = "sha256:old"\n';
    expect(untrustedKeys(before, trust)).toEqual(['/h/hooks.json:pre_tool_use:0:0', '/h/hooks.json:stop:0:0']);
    const edit = withHookTrust(before, trust.slice(1));
    expect(edit).toEqual({ changed: true, text: before.replace('sha256:old', 'sha256:bb') });
  });

  it('a new file starts with its first table', () => {
    expect(withHookTrust('', trust.slice(0, 1))).toEqual({
      changed: true,
      text: '[hooks.state."/h/hooks.json:pre_tool_use:0:0"]\ntrusted_hash = "sha256:aa"\n',
    });
  });

  it('a line inside a multi-line string is not a table', () => {
    const before = 'developer_instructions = """\n[hooks.state."/h/hooks.json:stop:0:0"]\n"""\n';
    const edit = withHookTrust(before, trust.slice(1));
    expect(edit).toMatchObject({ changed: true });
    expect('text' in edit && edit.text.startsWith(`${before}\n[hooks.state.`)).toBe(true);
  });

  it.each([
    ['an inline table', 'hooks = { state = {} }\n'],
    ['dotted keys', 'hooks.state."/h/hooks.json:stop:0:0".trusted_hash = "x"\n'],
    ['a key of [hooks.state]', '[hooks.state]\n"/h/hooks.json:stop:0:0" = { trusted_hash = "x" }\n'],
    ['a header it cannot read', '[hooks.state."\\e"]\n'],
  ])('hooks.state as %s: left alone, saying why (a table added would define it twice)', (_form, before) => {
    expect(withHookTrust(before, trust)).toEqual({ unsupported: expect.stringMatching(/^line \d\b/) });
  });
});

describe('hookwise init codex', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'hookwise-codex-trust-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("records Codex's trust of its entries in $CODEX_HOME/config.toml, once, keeping the person's settings", async () => {
    const project = path.join(root, 'project');
    const codexHome = path.join(root, 'codex-home');
    mkdirSync(project);
    mkdirSync(codexHome);
    writeFileSync(path.join(codexHome, 'config.toml'), 'model = "m"\n');
    const r = await runCli(['init', 'codex'], { cwd: project, env: { CODEX_HOME: codexHome } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${path.join(codexHome, 'config.toml')}: Codex trusts hookwise's hooks`);
    const config = readFileSync(path.join(codexHome, 'config.toml'), 'utf8');
    const hooks = JSON.parse(readFileSync(path.join(codexHome, 'hooks.json'), 'utf8'));
    const trust = hookwiseTrust(path.join(codexHome, 'hooks.json'), hooks, runsHookwiseFor('codex'));
    expect(trust).toHaveLength(5);
    expect(config.startsWith('model = "m"\n')).toBe(true);
    expect(untrustedKeys(config, trust)).toEqual([]);
    const again = await runCli(['init', 'codex'], { cwd: project, env: { CODEX_HOME: codexHome } });
    expect(again.stdout).toContain("(Codex trusts hookwise's hooks)");
    expect(readFileSync(path.join(codexHome, 'config.toml'), 'utf8')).toBe(config);
  });

  it('names hooks.json in the key as Codex does: $CODEX_HOME with its symlinks resolved (checked against Codex 0.169.0)', async () => {
    const project = path.join(root, 'linked');
    const codexHome = path.join(root, 'linked-home');
    mkdirSync(project);
    mkdirSync(codexHome);
    symlinkSync(codexHome, path.join(root, 'link'));
    await runCli(['init', 'codex'], { cwd: project, env: { CODEX_HOME: path.join(root, 'link') } });
    const config = readFileSync(path.join(codexHome, 'config.toml'), 'utf8');
    expect(config).toContain(`[hooks.state.${JSON.stringify(`${realpathSync(codexHome)}/hooks.json:pre_tool_use:0:0`)}]`);
  });

  it('hookwise check --strict fails while Codex would skip them (a hooks.json edited since init), and passes once init ran again', async () => {
    const project = path.join(root, 'checked');
    const codexHome = path.join(root, 'checked-home');
    mkdirSync(project);
    mkdirSync(codexHome);
    const env = { CODEX_HOME: codexHome };
    await runCli(['init', 'codex'], { cwd: project, env });
    const clean = await runCli(['check', '--strict'], { cwd: project, env });
    expect(clean.stdout).not.toContain('wiring');
    expect(clean.code).toBe(0);
    const hooksFile = path.join(codexHome, 'hooks.json');
    writeFileSync(hooksFile, readFileSync(hooksFile, 'utf8').replace('"timeout": 60', '"timeout": 61'));
    const stale = await runCli(['check', '--strict'], { cwd: project, env });
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain("codex: Codex skips hookwise's hooks on session_start: ");
    expect(stale.stdout).toContain('run `hookwise init codex` again');
    await runCli(['init', 'codex'], { cwd: project, env });
    expect((await runCli(['check', '--strict'], { cwd: project, env })).code).toBe(0);
  });

  it('leaves a config.toml holding hooks.state in another form as it is, and says how to trust', async () => {
    const project = path.join(root, 'other');
    const codexHome = path.join(root, 'other-home');
    mkdirSync(project);
    mkdirSync(codexHome);
    const before = 'hooks = { state = {} }\n';
    writeFileSync(path.join(codexHome, 'config.toml'), before);
    const r = await runCli(['init', 'codex'], { cwd: project, env: { CODEX_HOME: codexHome } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /Codex runs a hook only once it is trusted, and .*line 1 sets hooks in a form hookwise does not edit.*\/hooks/,
    );
    expect(readFileSync(path.join(codexHome, 'config.toml'), 'utf8')).toBe(before);
  });
});
