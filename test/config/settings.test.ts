import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverSources, loadSource } from '../../src/config/load.js';
import { COMMAND_TIMEOUT_S, SESSION_END_BUDGET_MS, USER_PROMPT_SUBMIT_TIMEOUT_S } from '../../src/config/index.js';
import { bash, copyFixtures, discovered, fixture, FIXTURE_ROOT, withEnv } from './helpers.js';

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});
function copy() {
  const c = copyFixtures();
  cleanups.push(c.cleanup);
  return c.dir;
}

describe('discovery: what Claude Code would load', () => {
  it('finds managed (and managed-settings.d in name order), user, project and local settings', async () => {
    const files = await withEnv({ HOME: fixture('home'), HOOKWISE_MANAGED_SETTINGS_DIR: fixture('managed') }, async () =>
      discoverSources(fixture('project')),
    );
    expect(files).toEqual([
      fixture('managed', 'managed-settings.json'),
      fixture('managed', 'managed-settings.d', '10-first.json'),
      fixture('managed', 'managed-settings.d', '20-second.json'),
      fixture('home', '.claude', 'settings.json'),
      fixture('project', '.claude', 'settings.json'),
      fixture('project', '.claude', 'settings.local.json'),
    ]);
  });

  it('adds hookwise.config.* in the cwd after the settings', async () => {
    const root = copy();
    writeFileSync(path.join(root, 'project', 'hookwise.config.mjs'), 'export default { hooks: [] };\n');
    const files = await withEnv({ HOME: path.join(root, 'home'), HOOKWISE_MANAGED_SETTINGS_DIR: path.join(root, 'nowhere') }, async () =>
      discoverSources(path.join(root, 'project')),
    );
    expect(files.map((f) => path.relative(root, f))).toEqual([
      path.join('home', '.claude', 'settings.json'),
      path.join('project', '.claude', 'settings.json'),
      path.join('project', '.claude', 'settings.local.json'),
      path.join('project', 'hookwise.config.mjs'),
    ]);
  });

  it('scopes each settings file', async () => {
    const { config } = await discovered(FIXTURE_ROOT);
    expect(config.sources.map((s) => [path.basename(s.file), s.kind, s.scope])).toEqual([
      ['managed-settings.json', 'claude-settings', 'managed'],
      ['10-first.json', 'claude-settings', 'managed'],
      ['20-second.json', 'claude-settings', 'managed'],
      ['settings.json', 'claude-settings', 'user'],
      ['settings.json', 'claude-settings', 'project'],
      ['settings.local.json', 'claude-settings', 'local'],
    ]);
  });
});

describe('merging every settings file', () => {
  it('runs the hooks of all of them, in source order, identical handlers once', async () => {
    const { engine } = await discovered(FIXTURE_ROOT);
    const outcome = await engine.fire('PreToolUse', bash('npm test'));
    // "shared" is in the user's and the project's settings: it runs once, where it came first;
    // the copy is registered and skipped at the fire (Claude Code dedups among the hooks matched at each fire).
    expect(outcome.additionalContext).toBe(['managed', 'managed-d-10', 'managed-d-20', 'user', 'shared', 'project', 'local'].join('\n'));
    expect(outcome.blocked).toBe(false);
    expect(outcome.hooks.map((h) => h.status)).toEqual([...Array(5).fill('ok'), 'skipped', 'ok', 'ok']);
    expect(outcome.hooks[5]).toMatchObject({ duplicate: true });
  });

  it('keeps the first of two identical handlers, with its source, under a deterministic name', async () => {
    const { engine } = await discovered(FIXTURE_ROOT);
    const shared = engine
      .hooks('PreToolUse')
      .filter((h) => String(h.source).includes('hooks.PreToolUse[0].hooks[1]') && h.source!.includes('home'));
    expect(shared).toHaveLength(1);
    expect(shared[0]!.source).toBe(`${fixture('home', '.claude', 'settings.json')} hooks.PreToolUse[0].hooks[1]`);
    expect(shared[0]!.name).toMatch(/^settings:PreToolUse:[^ :]+#[0-9a-f]{6}$/);
    const again = await discovered(FIXTURE_ROOT);
    expect(again.engine.hooks('PreToolUse').map((h) => h.name)).toEqual(engine.hooks('PreToolUse').map((h) => h.name));
    // The project's copy is registered (under a numbered name) and runs only when the user's does not match.
    const copy = engine
      .hooks('PreToolUse')
      .find((h) => h.source === `${fixture('project', '.claude', 'settings.json')} hooks.PreToolUse[0].hooks[0]`);
    expect(copy?.name).toBe(`${shared[0]!.name}#2`);
    expect(copy?.dedupKey).toBe(shared[0]!.dedupKey);
  });

  it('applies the `if` rule of a handler entry together with its group matcher', async () => {
    const { engine } = await discovered(FIXTURE_ROOT);
    const outcome = await engine.fire('PreToolUse', bash('git status && git push --force origin main'));
    expect(outcome.decision).toBe('deny');
    expect(outcome.reason).toBe('no force push');
    const plain = await engine.fire('PreToolUse', bash('git push origin main'));
    expect(plain.decision).toBeNull();
  });

  it('selects by matcher: an Edit runs only the Edit|Write group', async () => {
    const { engine } = await discovered(FIXTURE_ROOT);
    const outcome = await engine.fire('PreToolUse', { tool_name: 'Edit', tool_input: { file_path: 'a.ts' } });
    expect(outcome.additionalContext).toBe('project-edit');
  });
});

describe('disableAllHooks', () => {
  it('in local settings: no hook of user, project or local settings runs; managed hooks still do', async () => {
    const root = copy();
    writeFileSync(path.join(root, 'project', '.claude', 'settings.local.json'), JSON.stringify({ disableAllHooks: true }));
    const { engine, config } = await discovered(root);
    const outcome = await engine.fire('PreToolUse', bash('npm test'));
    expect(outcome.additionalContext).toBe('managed\nmanaged-d-10\nmanaged-d-20');
    expect(config.warnings).toContain(
      `${path.join(root, 'project', '.claude', 'settings.local.json')}: disableAllHooks is true: 6 hooks from Claude Code settings, plugins and skills not loaded (managed settings and hookwise config modules still are)`,
    );
  });

  it('in managed settings: managed hooks go too', async () => {
    const root = copy();
    writeFileSync(path.join(root, 'managed', 'managed-settings.d', '30-off.json'), JSON.stringify({ disableAllHooks: true }));
    const { engine } = await discovered(root);
    const outcome = await engine.fire('PreToolUse', bash('npm test'));
    expect(outcome.hooks).toEqual([]);
  });

  it('does not touch hookwise config modules', async () => {
    const root = copy();
    writeFileSync(path.join(root, 'project', '.claude', 'settings.json'), JSON.stringify({ disableAllHooks: true }));
    writeFileSync(
      path.join(root, 'project', 'hookwise.config.mjs'),
      "export default { hooks: [{ name: 'mine', events: 'PreToolUse', handler: () => ({ kind: 'context', additionalContext: 'module' }) }] };\n",
    );
    const { engine } = await discovered(root);
    const outcome = await engine.fire('PreToolUse', bash('npm test'));
    expect(outcome.additionalContext).toBe('managed\nmanaged-d-10\nmanaged-d-20\nmodule');
  });

  it('allowManagedHooksOnly in managed settings keeps only managed hooks', async () => {
    const root = copy();
    writeFileSync(path.join(root, 'managed', 'managed-settings.d', '30-only.json'), JSON.stringify({ allowManagedHooksOnly: true }));
    const { engine } = await discovered(root);
    const outcome = await engine.fire('PreToolUse', bash('npm test'));
    expect(outcome.additionalContext).toBe('managed\nmanaged-d-10\nmanaged-d-20');
  });
});

describe('hooks built from settings entries keep Claude Code behaviour', () => {
  async function one(entry: Record<string, unknown>, event = 'PreToolUse') {
    const root = copy();
    const file = path.join(root, 'project', '.claude', 'settings.json');
    writeFileSync(file, JSON.stringify({ hooks: { [event]: [{ hooks: [entry] }] } }));
    const source = await loadSource(file, { cwd: path.join(root, 'project') });
    return { spec: source.hooks[0]!, root };
  }

  it('default timeouts: 600 s for commands, 30 s on UserPromptSubmit, a short budget on SessionEnd; `timeout` wins', async () => {
    expect((await one({ type: 'command', command: 'true' })).spec.timeoutMs).toBe(COMMAND_TIMEOUT_S * 1000);
    expect(COMMAND_TIMEOUT_S).toBe(600);
    expect((await one({ type: 'command', command: 'true' }, 'UserPromptSubmit')).spec.timeoutMs).toBe(USER_PROMPT_SUBMIT_TIMEOUT_S * 1000);
    expect((await one({ type: 'command', command: 'true' }, 'SessionEnd')).spec.timeoutMs).toBe(SESSION_END_BUDGET_MS);
    expect(SESSION_END_BUDGET_MS).toBe(1500);
    expect((await one({ type: 'command', command: 'true', timeout: 7 }, 'SessionEnd')).spec.timeoutMs).toBe(7000);
  });

  it('fail-open unless onFailure is "block"; async, once and statusMessage carried over', async () => {
    expect((await one({ type: 'command', command: 'true' })).spec.onError).toBe('continue');
    expect((await one({ type: 'command', command: 'true', onFailure: 'block' })).spec.onError).toBe('block');
    const { spec } = await one({ type: 'command', command: 'true', async: true, once: true, statusMessage: 'Checking...' });
    expect([spec.async, spec.once, spec.statusMessage]).toEqual([true, true, 'Checking...']);
    expect((await one({ type: 'command', command: 'true', asyncRewake: true })).spec.async).toBe(true);
  });

  it('a failing command is a non-blocking error by default, a block with onFailure "block"', async () => {
    const { withEngine } = await import('./engine-helper.js');
    const open = await withEngine({ type: 'command', command: 'exit 1' });
    expect(open.blocked).toBe(false);
    expect(open.hooks[0]!.status).toBe('error');
    const closed = await withEngine({ type: 'command', command: 'exit 1', onFailure: 'block' });
    expect(closed.blocked).toBe(true);
    expect(closed.reason).toMatch(/^hook settings:PreToolUse:[^ :]+#[0-9a-f]{6} failed: /);
  });

  it('CLAUDE_PROJECT_DIR is the folder holding .claude; SessionStart hooks get CLAUDE_ENV_FILE under .hookwise/', async () => {
    const root = copy();
    const file = path.join(root, 'project', '.claude', 'settings.json');
    writeFileSync(
      file,
      JSON.stringify({
        hooks: {
          PreToolUse: [{ hooks: [{ type: 'command', command: 'sh "$FIXTURES/env.sh" PreToolUse' }] }],
          SessionStart: [
            {
              hooks: [{ type: 'command', command: 'sh "$FIXTURES/env.sh" SessionStart; echo "export FROM_HOOK=1" >> "$CLAUDE_ENV_FILE"' }],
            },
          ],
        },
      }),
    );
    const { engineFor } = await import('../../src/config/load.js');
    const source = await loadSource(file, { cwd: '/somewhere/else' });
    const engine = engineFor({ sources: [source], hooks: source.hooks, warnings: [], parallel: false });
    const pre = await engine.fire('PreToolUse', { ...bash('ls'), cwd: root });
    expect(pre.additionalContext).toBe(`project=${path.join(root, 'project')} plugin= envfile=`);
    const start = await engine.fire('SessionStart', { source: 'startup', session_id: 'sess/1', cwd: root });
    const envFile = path.join(root, 'project', '.hookwise', 'env', 'sess_1.sh');
    expect(start.additionalContext?.split('\n')[0]).toBe(`project=${path.join(root, 'project')} plugin= envfile=${envFile}`);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(envFile, 'utf8')).toBe('export FROM_HOOK=1\n');
  });
});
