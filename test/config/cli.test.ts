import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/core/outcome.js';
import { fixture, REPO } from './helpers.js';

/** These spawn the built CLI: run `npm run build` first (npm test does). */
const BIN = path.join(REPO, 'bin', 'hookwise.js');
const tmp = mkdtempSync(path.join(tmpdir(), 'hookwise-cli-config-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function hookwise(args: string[], input: unknown = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    input: JSON.stringify(input),
    encoding: 'utf8',
    cwd: tmp,
    env: {
      ...process.env,
      FIXTURES: fixture('scripts'),
      HOME: path.join(tmp, 'no-home'),
      HOOKWISE_MANAGED_SETTINGS_DIR: path.join(tmp, 'no-managed'),
    },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function fire(event: string, configs: string[], input: Record<string, unknown>): Outcome {
  const r = hookwise(['fire', event, ...configs.flatMap((c) => ['--config', c])], { session_id: 'cli', ...input });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Outcome;
}

const bash = (command: string) => ({ tool_name: 'Bash', tool_input: { command } });

describe('hookwise fire --config accepts every source kind, detected from the file', () => {
  it('a Claude Code settings file', () => {
    const o = fire('PreToolUse', [fixture('project', '.claude', 'settings.json')], bash('git push --force'));
    expect([o.decision, o.reason, o.additionalContext]).toEqual(['deny', 'no force push', 'shared\nproject']);
  });

  it('a plugin hooks.json (nested and flat)', () => {
    expect(fire('PreToolUse', [fixture('plugin', 'hooks', 'hooks.json')], bash('ls')).additionalContext).toBe(
      `plugin-root=${fixture('plugin')}`,
    );
    expect(
      fire('PreToolUse', [fixture('flat-plugin', 'hooks', 'hooks.json')], { tool_name: 'Read', tool_input: {} }).additionalContext,
    ).toBe('flat-plugin');
  });

  it('a markdown file with hooks frontmatter', () => {
    const o = fire('PostToolUse', [fixture('project', '.claude', 'skills', 'formatter', 'SKILL.md')], {
      tool_name: 'Edit',
      tool_input: {},
    });
    expect(o.additionalContext).toBe('formatted');
  });

  it('a config module (.mjs) and a TypeScript one', () => {
    expect(fire('PreToolUse', [fixture('hookwise.config.mjs')], bash('sudo ls')).reason).toBe('no sudo');
    const ts = path.join(tmp, 'hookwise.config.ts');
    writeFileSync(
      ts,
      `import { defineConfig, ask } from '${path.join(REPO, 'dist', 'index.js')}';\nconst why: string = 'typed';\nexport default defineConfig({ hooks: [{ name: 't', events: 'PreToolUse', handler: () => ask(why) }] });\n`,
    );
    expect(fire('PreToolUse', [ts], bash('ls')).decision).toBe('ask');
  });

  it('seed 003 variants', () => {
    expect(fire('PreToolUse', [fixture('seed003-settings.json')], bash('rm -rf /')).reason).toBe('Dangerous command blocked');
  });

  it('--config repeated merges the sources; identical settings handlers run once', () => {
    const o = fire(
      'PreToolUse',
      [
        fixture('home', '.claude', 'settings.json'),
        fixture('project', '.claude', 'settings.json'),
        fixture('plugin', 'hooks', 'hooks.json'),
        fixture('hookwise.config.mjs'),
      ],
      bash('ls'),
    );
    expect(o.additionalContext).toBe(`user\nshared\nproject\nplugin-root=${fixture('plugin')}\nmodule`);
    expect(o.hooks.map((h: { status: string }) => h.status)).toEqual(['ok', 'ok', 'skipped', 'ok', 'ok', 'ok']);
  });
});

describe("Outcomes reproduce Claude Code's documented decisions", () => {
  const examples = fixture('documented-examples.json');

  it('PreToolUse deny via JSON (exit 0)', () => {
    const o = fire('PreToolUse', [examples], bash('rm -rf build'));
    expect([o.decision, o.blocked, o.reason]).toEqual(['deny', true, 'Destructive command blocked']);
  });

  it('exit 2 blocks with stderr as the reason, even when stdout says allow', () => {
    const o = fire('PreToolUse', [examples], { tool_name: 'Write', tool_input: { file_path: '/etc/hosts' } });
    expect([o.decision, o.blocked, o.reason]).toEqual(['deny', true, 'Writes to /etc are not allowed']);
  });

  it('UserPromptSubmit: plain stdout becomes context', () => {
    const o = fire('UserPromptSubmit', [examples], { prompt: 'what next?' });
    expect([o.blocked, o.additionalContext]).toEqual([false, 'Current sprint: hooks']);
  });

  it('Stop: decision "block" keeps the agent going with the reason', () => {
    const o = fire('Stop', [examples], { stop_hook_active: false });
    expect([o.blocked, o.reason, o.stop]).toEqual([true, 'Tests have not been run yet.', false]);
  });

  it('PostToolUse: decision "block" carries its reason to the model', () => {
    const o = fire('PostToolUse', [examples], { tool_name: 'Edit', tool_input: { file_path: 'a.ts' }, tool_response: {} });
    expect([o.blocked, o.reason]).toEqual([true, 'Lint failed: missing semicolon']);
  });

  it('continue: false halts the agent with stopReason', () => {
    const o = fire('PreCompact', [examples], { trigger: 'auto' });
    expect([o.stop, o.stopReason, o.blocked]).toEqual([true, 'Build failed, fix it first', true]);
  });
});

describe('hookwise check', () => {
  it('lists every source with its kind and every hook with where it came from, and prints the warnings', () => {
    const r = hookwise(['check', '--config', fixture('errors', 'bad-timeout.json'), '--config', fixture('plugin', 'hooks', 'hooks.json')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${fixture('errors', 'bad-timeout.json')}  claude-settings (project), 1 hook`);
    expect(r.stdout).toContain(`${fixture('plugin', 'hooks', 'hooks.json')}  plugin, 1 hook`);
    expect(r.stdout).toMatch(
      /1\. settings:PreToolUse:[^ :]+#[0-9a-f]{6} {2}priority 0 {2}.*bad-timeout\.json hooks\.PreToolUse\[0\]\.hooks\[0\]/,
    );
    expect(r.stdout).toContain(
      `${fixture('errors', 'bad-timeout.json')}: hooks.PreToolUse[0].hooks[1].timeout: expected number (entry hooks.PreToolUse[0].hooks[1] skipped)`,
    );
    expect(r.stdout).toContain('ok: 2 hooks valid');
  });

  it('--strict fails on a warning (a settings entry skipped is a check that will not run)', () => {
    const warned = hookwise(['check', '--strict', '--config', fixture('errors', 'bad-timeout.json')]);
    expect(warned.code).toBe(1);
    expect(warned.stdout).toContain('not ok (--strict): 1 warning');
    const clean = hookwise(['check', '--strict', '--config', fixture('plugin', 'hooks', 'hooks.json')]);
    expect(clean.code).toBe(0);
  });

  it('--json carries sources, hooks and warnings', () => {
    const r = hookwise(['check', '--json', '--config', fixture('errors', 'custom-event.json')]);
    const json = JSON.parse(r.stdout) as { sources: unknown[]; events: Array<{ event: string }>; warnings: string[] };
    expect(json.sources).toEqual([{ file: fixture('errors', 'custom-event.json'), kind: 'claude-settings', scope: 'project', hooks: 1 }]);
    expect(json.events.map((e) => e.event)).toEqual(['DeployFinished']);
    expect(json.warnings).toHaveLength(1);
  });

  it('a configuration error: one line on stderr, exit 2 (check found what it is for; 1 is check failing)', () => {
    const r = hookwise(['check', '--config', fixture('errors', 'bad-regex.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `hookwise: ${fixture('errors', 'bad-regex.json')}: hooks.PreToolUse[1].matcher: invalid regex "mcp__(github": error parsing regexp: missing closing ): \`mcp__(github\`\n`,
    );
  });
});
