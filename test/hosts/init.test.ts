import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENT_EVENTS, mergeHooksFile } from '../../src/hosts/hooks-file.js';
import { entryCommand, runsHookwiseFor } from '../../src/hosts/entry-command.js';
import { hostNamed } from '../../src/hosts/index.js';
import { initTargets } from '../../src/hosts/init-targets.js';
import { cliPath, runCli } from '../cli/run-cli.js';

/** `hookwise init codex|copilot|droid`: each agent's own hooks file, merged with what is there. */
const root = mkdtempSync(path.join(tmpdir(), 'hookwise-init-agents-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const shape = (wrapped: boolean, command = (event: string) => entryCommand(hostNamed('codex'), { event })) => ({
  wrapped,
  command,
  timeoutSeconds: 60,
  runsHookwise: runsHookwiseFor('codex'),
});

describe('mergeHooksFile', () => {
  it('adds one hookwise group per event and keeps every other key, group and hook', () => {
    const mine = { matcher: 'Bash', hooks: [{ type: 'command', command: './mine.sh' }] };
    const { file, added } = mergeHooksFile({ other: 1, hooks: { PreToolUse: [mine], Custom: [] } }, shape(true));
    expect(added).toEqual([...AGENT_EVENTS]);
    const hooks = file.hooks as Record<string, unknown[]>;
    expect(file.other).toBe(1);
    expect(hooks.Custom).toEqual([]);
    expect(hooks.PreToolUse).toEqual([
      mine,
      { matcher: '*', hooks: [{ type: 'command', command: entryCommand(hostNamed('codex'), { event: 'PreToolUse' }), timeout: 60 }] },
    ]);
  });

  it("run twice changes nothing; an earlier release's entry naming one install is replaced in place", () => {
    const once = mergeHooksFile({}, shape(true)).file;
    expect(mergeHooksFile(once, shape(true))).toMatchObject({ added: [], updated: [] });
    const earlier = mergeHooksFile(
      {},
      shape(true, () => 'node "/b/node_modules/hookwise/bin/hookwise.js" codex'),
    ).file;
    const repaired = mergeHooksFile(earlier, shape(true));
    expect(repaired.updated).toEqual([...AGENT_EVENTS]);
    expect(repaired.added).toEqual([]);
    expect(JSON.stringify(repaired.file)).not.toContain('/b/');
  });

  it('droid: events at the top level; a hooks wrapper (which droid ignores) is an error naming the fix', () => {
    expect(Object.keys(mergeHooksFile({}, shape(false)).file)).toEqual([...AGENT_EVENTS]);
    expect(() => mergeHooksFile({ hooks: {} }, shape(false))).toThrow(
      /top-level "hooks" key, which this agent ignores: move its events to the top level/,
    );
  });

  it('a file of the wrong shape is an error naming the field', () => {
    expect(() => mergeHooksFile({ hooks: [] }, shape(true))).toThrow(/hooks: expected an object of events, found an array/);
    expect(() => mergeHooksFile({ hooks: { Stop: {} } }, shape(true))).toThrow(/hooks\.Stop: expected an array of matcher groups/);
  });

  it("where each agent reads its hooks: the user's file, and for agents that trust folders the project's too", async () => {
    const env = { HOME: '/home/u' };
    const files = async (agent: string, e: NodeJS.ProcessEnv = env) =>
      (await initTargets(agent, '/p', e)).map((t) => `${t.scope} ${t.file}`);
    expect(await files('codex')).toEqual(['user /home/u/.codex/hooks.json']);
    expect(await files('codex', { ...env, CODEX_HOME: '/c' })).toEqual(['user /c/hooks.json']);
    expect(await files('copilot')).toEqual(['user /home/u/.copilot/hooks/hookwise.json', 'project /p/.github/hooks/hookwise.json']);
    expect((await files('copilot', { ...env, COPILOT_HOME: '/cp' }))[0]).toBe('user /cp/hooks/hookwise.json');
    expect(await files('droid')).toEqual(['user /home/u/.factory/hooks.json']);
    expect(await files('gemini')).toEqual(['user /home/u/.gemini/settings.json', 'project /p/.gemini/settings.json']);
  });

  it('no file names a machine path: every entry finds hookwise in the project it runs in', async () => {
    for (const agent of ['codex', 'copilot', 'droid', 'gemini'])
      for (const target of await initTargets(agent, '/some/project', { HOME: '/home/u' })) {
        const text = JSON.stringify(mergeHooksFile({}, target.shape).file);
        expect(text).not.toContain('/some/project');
        expect(text).not.toContain('/home/u');
        expect(text).not.toContain(process.execPath);
      }
  });
});

describe('hookwise init <agent>, spawned', () => {
  it('codex: merges into $CODEX_HOME/hooks.json, keeps what was there, writes the starter policy', async () => {
    const dir = mkdtempSync(path.join(root, 'p-'));
    const codexHome = path.join(dir, 'codex-home');
    mkdirSync(codexHome);
    const mine = { matcher: 'Bash', hooks: [{ type: 'command', command: './mine.sh' }] };
    writeFileSync(path.join(codexHome, 'hooks.json'), JSON.stringify({ hooks: { PreToolUse: [mine] } }));
    const r = await runCli(['init', 'codex'], { cwd: dir, env: { CODEX_HOME: codexHome } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/wrote +hookwise\.config\.ts/);
    const file = JSON.parse(readFileSync(path.join(codexHome, 'hooks.json'), 'utf8'));
    expect(file.hooks.PreToolUse[0]).toEqual(mine);
    expect(file.hooks.PreToolUse[1].hooks[0].command).toBe(entryCommand(hostNamed('codex'), { event: 'PreToolUse' }));
    // The hookwise this project runs, in its machine-local state (never in the user's file).
    expect(readFileSync(path.join(dir, '.hookwise', 'install'), 'utf8').trim()).toBe(cliPath);
    const again = await runCli(['init', 'codex'], { cwd: dir, env: { CODEX_HOME: codexHome } });
    expect(again.stdout).toMatch(/kept .*hooks\.json \(hookwise already answers every event\)/);
  });

  it('an unreadable hooks file is left untouched and named', async () => {
    const dir = mkdtempSync(path.join(root, 'p-'));
    mkdirSync(path.join(dir, '.github', 'hooks'), { recursive: true });
    writeFileSync(path.join(dir, '.github', 'hooks', 'hookwise.json'), '{ not json');
    const r = await runCli(['init', 'copilot'], { cwd: dir, env: { HOME: path.join(dir, 'home'), COPILOT_HOME: '' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/hookwise\.json/);
    expect(readFileSync(path.join(dir, '.github', 'hooks', 'hookwise.json'), 'utf8')).toBe('{ not json');
  });
});

describe('hookwise codex|copilot|droid, spawned, with a broken policy', () => {
  const broken = () => {
    const dir = mkdtempSync(path.join(root, 'b-'));
    writeFileSync(path.join(dir, 'hookwise.config.mjs'), `throw new Error('broken');\n`);
    return dir;
  };
  const call = (agent: string, dir: string, input: Record<string, unknown>) =>
    runCli([agent], {
      cwd: dir,
      stdin: JSON.stringify({ cwd: dir, session_id: 's', ...input }),
      env: { HOOKWISE_RESIDENT: '0', HOOKWISE_CLAUDE_CODE: '', HOOKWISE_FAIL_OPEN: '' },
      unset: ['CLAUDE_PROJECT_DIR'],
    });

  it.each(['codex', 'copilot', 'droid'])('%s: PreToolUse is a JSON deny on exit 0; Stop ends the run', async (agent) => {
    const dir = broken();
    const pre = await call(agent, dir, { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } });
    expect(pre.code).toBe(0);
    expect(JSON.parse(pre.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringMatching(/^hookwise failed closed: .*broken/),
    });
    const stop = await call(agent, dir, { hook_event_name: 'Stop', stop_hook_active: false });
    expect(stop.code).toBe(0);
    expect(JSON.parse(stop.stdout)).toEqual({ continue: false, stopReason: expect.stringMatching(/broken/) });
  });
});

// The user's file for Copilot (its entries name no project, so no project is needed here).
const [user] = await initTargets('copilot', '/p', { HOME: '/home/u' });

describe("the project's entry beside the user's (Copilot, Gemini)", () => {
  const project = mkdtempSync(path.join(root, 'defer-'));
  writeFileSync(path.join(project, 'hookwise.config.mjs'), 'export default {};\n');
  const userFile = path.join(project, 'user.json');
  const run = () =>
    spawnSync('sh', ['-c', entryCommand(hostNamed('copilot'), { event: 'PreToolUse', deferTo: '"$USER_FILE"' })], {
      cwd: project,
      input: '{}',
      encoding: 'utf8',
      env: { ...process.env, USER_FILE: userFile },
    });

  it("stays silent where the user's file wires hookwise this way, so no call is answered twice", () => {
    writeFileSync(userFile, JSON.stringify(mergeHooksFile({}, user!.shape).file));
    expect(run()).toMatchObject({ status: 0, stdout: '' });
  });

  it("answers itself when the user's file is missing, or names one install the way an earlier release did", () => {
    rmSync(userFile, { force: true });
    expect(JSON.parse(run().stdout).hookSpecificOutput.permissionDecisionReason).toMatch(/hookwise is not installed in this project/);
    writeFileSync(
      userFile,
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ command: 'node "/gone/node_modules/hookwise/bin/hookwise.js" copilot' }] }] } }),
    );
    expect(JSON.parse(run().stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });
});
