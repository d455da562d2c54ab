import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { engineFor, loadConfig, loadSource } from '../../src/config/load.js';
import { bash, copyFixtures, fixture } from './helpers.js';

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

/** The project folder the hooks run for: SessionStart hooks write their CLAUDE_ENV_FILE under it. */
const projectDir = mkdtempSync(path.join(tmpdir(), 'hookwise-sources-'));
afterAll(() => rmSync(projectDir, { recursive: true, force: true }));

async function engineOf(...files: string[]) {
  const config = await loadConfig({ files, cwd: projectDir });
  return { config, engine: engineFor(config) };
}

describe('plugin hooks/hooks.json', () => {
  it('nested form: ${CLAUDE_PLUGIN_ROOT} substituted and passed as env; named after the plugin manifest', async () => {
    const file = fixture('plugin', 'hooks', 'hooks.json');
    const source = await loadSource(file);
    expect(source.kind).toBe('plugin');
    expect(source.hooks[0]!.name).toMatch(/^plugin:safety-plugin:PreToolUse:[^ :]+#[0-9a-f]{6}$/);
    expect(source.hooks[0]!.timeoutMs).toBe(5000);
    const { engine } = await engineOf(file);
    const outcome = await engine.fire('PreToolUse', bash('ls'));
    expect(outcome.additionalContext).toBe(`plugin-root=${fixture('plugin')}`);
  });

  it('flat form at hooks/hooks.json', async () => {
    const { config, engine } = await engineOf(fixture('flat-plugin', 'hooks', 'hooks.json'));
    expect(config.sources[0]!.kind).toBe('plugin');
    expect((await engine.fire('PreToolUse', { tool_name: 'Read', tool_input: { file_path: 'x' } })).additionalContext).toBe('flat-plugin');
    expect((await engine.fire('PreToolUse', bash('ls'))).hooks).toEqual([]);
  });

  it('flat form anywhere else is recognised by its event keys', async () => {
    const { dir, cleanup } = copyFixtures();
    cleanups.push(cleanup);
    const file = path.join(dir, 'my-hooks.json');
    writeFileSync(
      file,
      JSON.stringify({ PostToolUse: [{ hooks: [{ type: 'command', command: 'sh "$FIXTURES/say.sh" flat PostToolUse' }] }] }),
    );
    const source = await loadSource(file);
    expect(source.kind).toBe('plugin');
    expect(source.hooks[0]!.source).toBe(`${file} PostToolUse[0].hooks[0]`);
  });
});

describe('skill and agent frontmatter', () => {
  it('a skill hook with once: true runs once per session', async () => {
    const { engine, config } = await engineOf(fixture('project', '.claude', 'skills', 'formatter', 'SKILL.md'));
    expect(config.sources[0]!.kind).toBe('frontmatter');
    expect(config.hooks[0]!.name).toMatch(/^skill:formatter:PostToolUse:[^ :]+#[0-9a-f]{6}$/);
    expect(config.hooks[0]!.source).toBe(
      `${fixture('project', '.claude', 'skills', 'formatter', 'SKILL.md')} hooks.PostToolUse[0].hooks[0]`,
    );
    const write = { tool_name: 'Write', tool_input: { file_path: 'a.ts' }, session_id: 'one' };
    expect((await engine.fire('PostToolUse', write)).additionalContext).toBe('formatted');
    expect((await engine.fire('PostToolUse', write)).hooks).toEqual([]);
    expect((await engine.fire('PostToolUse', { ...write, session_id: 'two' })).additionalContext).toBe('formatted');
  });

  it('an agent file', async () => {
    const { engine, config } = await engineOf(fixture('project', '.claude', 'agents', 'reviewer.md'));
    expect(config.hooks[0]!.name).toMatch(/^agent:reviewer:Stop:[^ :]+#[0-9a-f]{6}$/);
    expect((await engine.fire('Stop', { session_id: 's' })).additionalContext).toBe('reviewed');
  });

  it('markdown without frontmatter loads nothing and says so', async () => {
    const { dir, cleanup } = copyFixtures();
    cleanups.push(cleanup);
    const file = path.join(dir, 'README.md');
    writeFileSync(file, '# just text\n');
    const source = await loadSource(file);
    expect(source.hooks).toEqual([]);
    expect(source.warnings).toEqual([`${file}: no YAML frontmatter (--- ... ---) at the top of the file; no hooks loaded`]);
  });
});

describe("seed 003's settings variants", () => {
  it('name map, string and array forms; camelCase and snake_case event keys; the key names the hook', async () => {
    const { config } = await engineOf(fixture('seed003-settings.json'));
    expect(config.warnings).toEqual([]);
    expect(config.hooks.map((h) => [h.name, h.events])).toEqual([
      ['security-check', 'PreToolUse'],
      ['audit-log', 'PostToolUse'],
      [expect.stringMatching(/^settings:SessionStart:[^ :]+#[0-9a-f]{6}$/), 'SessionStart'],
      [expect.stringMatching(/^settings:UserPromptSubmit:[^ :]+#[0-9a-f]{6}$/), 'UserPromptSubmit'],
    ]);
    expect(config.hooks[0]!.timeoutMs).toBe(30_000);
    expect(config.hooks[0]!.source).toBe(`${fixture('seed003-settings.json')} hooks.preToolUse["security-check"]`);
  });

  it('their commands speak the claude-agent-rs protocol', async () => {
    const { engine } = await engineOf(fixture('seed003-settings.json'));
    const blocked = await engine.fire('PreToolUse', bash('rm -rf /'));
    expect([blocked.decision, blocked.reason]).toEqual(['deny', 'Dangerous command blocked']);
    expect((await engine.fire('PreToolUse', bash('ls'))).blocked).toBe(false);
    // The matcher "Bash|Write" of the name-map entry applies.
    expect((await engine.fire('PreToolUse', { tool_name: 'Read', tool_input: {} })).hooks).toEqual([]);
    expect((await engine.fire('PostToolUse', bash('ls'))).additionalContext).toBe('audited');
    expect((await engine.fire('SessionStart', { source: 'startup', session_id: 'seed' })).additionalContext).toBe('started');
    expect(existsSync(path.join(projectDir, '.hookwise', 'env'))).toBe(true);
    expect((await engine.fire('UserPromptSubmit', { prompt: 'hi' })).additionalContext).toBe('prompt-seen');
  });
});

describe('"protocol" on a command entry of a settings file', () => {
  it('workflow and claude-agent-rs', async () => {
    const { engine } = await engineOf(fixture('protocols-settings.json'));
    const sudo = await engine.fire('PreToolUse', bash('sudo ls'));
    expect([sudo.decision, sudo.reason]).toEqual(['deny', 'workflow: PreToolCall refused sudo']);
    const curl = await engine.fire('PreToolUse', bash('curl x'));
    expect([curl.decision, curl.reason]).toEqual(['deny', 'rs: pre_tool_use refused curl']);
    const ls = await engine.fire('PreToolUse', bash('ls'));
    expect([ls.blocked, ls.updatedInput]).toEqual([false, { command: 'ls --dry-run' }]);
  });
});

describe('merging several sources named explicitly', () => {
  it('settings, plugin, skill and seed 003 variants all run, none overriding another', async () => {
    const { engine } = await engineOf(
      fixture('project', '.claude', 'settings.local.json'),
      fixture('plugin', 'hooks', 'hooks.json'),
      fixture('seed003-settings.json'),
    );
    const outcome = await engine.fire('PreToolUse', bash('ls'));
    expect(outcome.additionalContext).toBe(`local\nplugin-root=${fixture('plugin')}`);
    expect(outcome.hooks.map((h) => h.name)).toEqual([
      expect.stringMatching(/^settings:/),
      expect.stringMatching(/^plugin:/),
      'security-check',
    ]);
  });
});
