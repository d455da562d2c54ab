import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENT_EVENTS, mergeHooksFile } from '../../src/hosts/hooks-file.js';
import { initTarget } from '../../src/hosts/init-targets.js';
import { cliPath, runCli } from '../cli/run-cli.js';

/** `hookwise init codex|copilot|droid`: each agent's own hooks file, merged with what is there. */
const root = mkdtempSync(path.join(tmpdir(), 'hookwise-init-agents-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const shape = (wrapped: boolean) => ({
  wrapped,
  command: 'node "/x/hookwise.js" codex',
  timeoutSeconds: 60,
  runsHookwise: /\bhookwise(\.js")?\s+codex\b/,
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
      { matcher: '*', hooks: [{ type: 'command', command: 'node "/x/hookwise.js" codex', timeout: 60 }] },
    ]);
  });

  it('run twice changes nothing; a moved hookwise is updated in place', () => {
    const once = mergeHooksFile({}, shape(true)).file;
    expect(mergeHooksFile(once, shape(true))).toMatchObject({ added: [], updated: [] });
    const moved = mergeHooksFile(once, { ...shape(true), command: 'node "/y/hookwise.js" codex' });
    expect(moved.updated).toEqual([...AGENT_EVENTS]);
    expect(JSON.stringify(moved.file)).not.toContain('/x/');
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

  it('where each agent reads its hooks', () => {
    const env = { HOME: '/home/u' };
    expect(initTarget('codex', '/p', '/b.js', env).file).toBe('/home/u/.codex/hooks.json');
    expect(initTarget('codex', '/p', '/b.js', { ...env, CODEX_HOME: '/c' }).file).toBe('/c/hooks.json');
    expect(initTarget('copilot', '/p', '/b.js', env).file).toBe('/p/.github/hooks/hookwise.json');
    expect(initTarget('droid', '/p', '/b.js', env).file).toBe('/home/u/.factory/hooks.json');
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
    expect(file.hooks.PreToolUse[1].hooks[0].command).toBe(`node ${JSON.stringify(cliPath)} codex`);
    const again = await runCli(['init', 'codex'], { cwd: dir, env: { CODEX_HOME: codexHome } });
    expect(again.stdout).toMatch(/kept .*hooks\.json \(hookwise already answers every event\)/);
  });

  it('an unreadable hooks file is left untouched and named', async () => {
    const dir = mkdtempSync(path.join(root, 'p-'));
    mkdirSync(path.join(dir, '.github', 'hooks'), { recursive: true });
    writeFileSync(path.join(dir, '.github', 'hooks', 'hookwise.json'), '{ not json');
    const r = await runCli(['init', 'copilot'], { cwd: dir });
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
