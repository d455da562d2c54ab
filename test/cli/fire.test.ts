import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const example = 'examples/hookwise.config.ts';

describe('hookwise fire', () => {
  it('prints the Outcome of the README example and exits 0 on deny', async () => {
    const r = await runCli(['fire', 'PreToolUse', '--config', example], {
      stdin: '{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}',
    });
    expect(r.code).toBe(0);
    const outcome = JSON.parse(r.stdout);
    expect(outcome).toMatchObject({ event: 'PreToolUse', decision: 'deny', blocked: true, reason: 'recursive delete refused: rm -rf /' });
    expect(outcome.hooks[0]).toMatchObject({ name: 'no-rm-rf', status: 'ok', result: 'deny' });
  });

  it('accepts aliases, --session and --cwd', async () => {
    const r = await runCli(['fire', 'PreToolCall', '--config', example, '--session', 'abc', '--cwd', '/tmp'], {
      stdin: '{"tool_name":"Bash","tool_input":{"command":"npm test"}}',
    });
    expect(JSON.parse(r.stdout)).toMatchObject({ event: 'PreToolUse', updatedInput: { command: 'npm test --silent' }, blocked: false });
  });

  it('finds hookwise.config.* in the cwd when no --config is given', async () => {
    const r = await runCli(['fire', 'SessionStart'], { cwd: path.resolve('examples'), stdin: '{}' });
    expect(JSON.parse(r.stdout).additionalContext).toBe('You are on branch main.');
  });

  it('waits for async hooks before exiting', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hookwise-fire-'));
    const auditFile = path.join(dir, 'audit.txt');
    const r = await runCli(['fire', 'PostToolUse', '--config', 'test/fixtures/modules/async.config.mjs'], {
      stdin: '{"tool_name":"Write"}',
      env: { AUDIT_FILE: auditFile },
    });
    expect(JSON.parse(r.stdout).hooks[0].status).toBe('async');
    expect(readFileSync(auditFile, 'utf8')).toBe('Write\n');
  });

  it.each([
    ['invalid JSON on stdin', ['fire', 'Stop', '--config', example], '{nope', /^hookwise failed closed: stdin: input is not valid JSON/],
    [
      'a JSON array on stdin',
      ['fire', 'Stop', '--config', example],
      '[1]',
      /^hookwise failed closed: stdin: input must be a JSON object, got an array\n$/,
    ],
    [
      'a missing config file',
      ['fire', 'Stop', '--config', 'nope.config.ts'],
      '{}',
      /^hookwise failed closed: .*nope\.config\.ts: file not found\n$/,
    ],
    [
      'an invalid matcher',
      ['fire', 'Stop', '--config', 'test/fixtures/modules/bad-matcher.config.mjs'],
      '{}',
      /bad-matcher\.config\.mjs: hook "broken" .*matcher: invalid regex "\(unclosed"/,
    ],
    [
      'a module without a default config',
      ['fire', 'Stop', '--config', 'test/fixtures/modules/no-default.config.mjs'],
      '{}',
      /no-default\.config\.mjs: default\.hooks: expected a default export of defineConfig/,
    ],
    [
      'a syntax error in a TS config',
      ['fire', 'Stop', '--config', 'test/fixtures/modules/syntax-error.config.ts'],
      '{}',
      /syntax-error\.config\.ts: could not load config module/,
    ],
  ])('%s: a blocked Outcome, one clear line on stderr, exit 2, no stack trace', async (_label, args, stdin, message) => {
    const r = await runCli(args, { stdin });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({
      event: 'Stop',
      blocked: true,
      decision: null,
      reason: expect.stringMatching(/^hookwise failed: /),
    });
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('hookwise check and --help', () => {
  it('lists hooks per event in run order with their source', async () => {
    const r = await runCli(['check', '--config', example, '--json']);
    expect(r.code).toBe(0);
    const listing = JSON.parse(r.stdout);
    const pre = listing.events.find((e: { event: string }) => e.event === 'PreToolUse');
    expect(pre.hooks.map((h: { name: string }) => h.name)).toEqual(['no-rm-rf', 'quiet-tests']);
    expect(pre.hooks[0].source).toMatch(/hookwise\.config\.ts hooks\[0\]$/);
  });

  it.each([[[]], [['fire']], [['check']]])('--help works on %j', async (args) => {
    const r = await runCli([...args, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Usage: hookwise/);
  });
});
