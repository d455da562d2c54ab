import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { queryAudit } from '../../src/audit/index.js';
import { repoRoot, runCli } from './run-cli.js';

/**
 * The fail-closed envelope (docs/claude-code.md#failures): every way the config or a
 * hook can go wrong ends in the failure answer through the real, spawned CLI. On
 * PreToolUse that is exit 2 with one line on stderr (Claude Code blocks the call).
 */
const DIST = JSON.stringify(path.join(repoRoot, 'dist', 'index.js'));
const root = mkdtempSync(path.join(tmpdir(), 'hookwise-fail-closed-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function project(config: string): string {
  const dir = mkdtempSync(path.join(root, 'p-'));
  writeFileSync(path.join(dir, 'hookwise.config.mjs'), config);
  return dir;
}

const hookConfig = (handler: string, extra = '') =>
  `import { deny, context } from ${DIST};\n${extra}\nexport default { hooks: [{ name: 'h', events: 'PreToolUse', handler: ${handler} }] };\n`;

const PRE = { hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' } };

function claudeCode(dir: string, input: Record<string, unknown> = PRE, args: string[] = [], env: Record<string, string> = {}) {
  return runCli(['claude-code', ...args], {
    cwd: dir,
    stdin: JSON.stringify({ cwd: dir, ...input }),
    env: { CLAUDE_PROJECT_DIR: dir, HOOKWISE_CLAUDE_CODE: '', HOOKWISE_FAIL_OPEN: '', ...env },
  });
}

/** The failure answer on a blockable event: exit 2, nothing on stdout, one line on stderr. */
function expectFailedClosed(r: { code: number | null; stdout: string; stderr: string }, reason: RegExp): void {
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(/^hookwise failed closed: .+\n$/);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(reason);
  expect(r.code).toBe(2);
}

describe('hookwise claude-code fails closed on PreToolUse', () => {
  it.each([
    ['a config that throws while loading', `throw new Error('boom at load');\n`, /could not load config module: boom at load/],
    ['a config without a default export', `export const hooks = [];\n`, /expected a default export of defineConfig/],
    ['a config that calls process.exit(0) while loading', `process.exit(0);\n`, /called process\.exit\(0\) before hookwise answered/],
    ['a handler that calls process.exit(0)', hookConfig('() => { process.exit(0); }'), /called process\.exit\(0\)/],
    ['a handler that calls process.reallyExit(0)', hookConfig('() => { process.reallyExit(0); }'), /called process\.reallyExit\(0\)/],
    [
      'a handler that kills its own process',
      hookConfig(`() => { process.kill(process.pid, 'SIGTERM'); }`),
      /sent SIGTERM to hookwise itself/,
    ],
    [
      'a handler whose timer throws',
      hookConfig(`() => new Promise((resolve) => { setTimeout(() => { throw new Error('timer boom'); }, 0); setTimeout(resolve, 100); })`),
      /uncaught error: Error: timer boom/,
    ],
    [
      'a handler that leaves a rejection unhandled',
      hookConfig(`() => { Promise.reject(new Error('lost')); }`),
      /unhandled promise rejection: Error: lost/,
    ],
    [
      'an answer over 1 MiB (it would be cut into invalid JSON)',
      hookConfig(`() => context('x'.repeat(3 * 1024 * 1024))`),
      /the answer is \d+ bytes, over the 1048576/,
    ],
  ])('%s', async (_label, config, reason) => {
    expectFailedClosed(await claudeCode(project(config)), reason);
  });

  it('a config whose top-level await never settles: the load timeout (--load-timeout, HOOKWISE_LOAD_TIMEOUT_MS)', async () => {
    const dir = project(`await new Promise(() => {});\nexport default { hooks: [] };\n`);
    expectFailedClosed(await claudeCode(dir, PRE, ['--load-timeout', '2000']), /loading the config did not finish within 2000 ms/);
    expectFailedClosed(await claudeCode(dir, PRE, [], { HOOKWISE_LOAD_TIMEOUT_MS: '1500' }), /within 1500 ms/);
  });

  it('a handler stuck in a synchronous loop is stopped by the watchdog (--stall-timeout)', async () => {
    const dir = project(hookConfig('() => { for (;;) {} }'));
    expectFailedClosed(
      await claudeCode(dir, PRE, ['--stall-timeout', '1500']),
      /ran synchronously for 1500 ms of CPU time without yielding; stopped/,
    );
  });

  it('a config stuck in a synchronous loop while loading is stopped too', async () => {
    const dir = project(`for (;;) {}\n`);
    expectFailedClosed(await claudeCode(dir, PRE, [], { HOOKWISE_STALL_TIMEOUT_MS: '1500' }), /ran synchronously for 1500 ms/);
  });

  it.each([
    ['an empty event name', { ...PRE, hook_event_name: '' }, /hook_event_name is missing/],
    [
      'a miscased event name',
      { ...PRE, hook_event_name: 'pretooluse' },
      /unknown hook_event_name "pretooluse" \(did you mean "PreToolUse"\?\)/,
    ],
    ['an unknown event name', { ...PRE, hook_event_name: 'Nonsense' }, /unknown hook_event_name "Nonsense"/],
  ])('%s on stdin', async (_label, input, reason) => {
    const dir = project(hookConfig(`() => deny('never reached')`));
    expectFailedClosed(await claudeCode(dir, input), reason);
  });

  it('invalid JSON on stdin', async () => {
    const dir = project(hookConfig(`() => undefined`));
    const r = await runCli(['claude-code'], {
      cwd: dir,
      stdin: '{"hook_event_name": "PreToolUse", ',
      env: { CLAUDE_PROJECT_DIR: dir, HOOKWISE_CLAUDE_CODE: '' },
    });
    expectFailedClosed(r, /stdin: input is not valid JSON/);
  });
});

describe('what config and hook code cannot do to the answer', () => {
  it('console.log while loading and process.stdout.write in a hook go to stderr; the answer stays the only stdout', async () => {
    const fake = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } });
    const dir = project(
      hookConfig(`() => { process.stdout.write(${JSON.stringify(fake)}); return deny('no'); }`, `console.log(${JSON.stringify(fake)});`),
    );
    const r = await claudeCode(dir);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' },
    });
    expect(r.stderr.split(fake)).toHaveLength(3);
  });

  it('a timed-out in-process hook does not keep the process alive for its timer', async () => {
    // The hook's own timer is 10 minutes: the test's 30 s timeout fails if the process waits for it.
    const dir = project(
      `export default { hooks: [{ name: 'slow', events: 'PreToolUse', timeoutMs: 300, handler: () => new Promise((r) => setTimeout(r, 600000)) }] };\n`,
    );
    const r = await claudeCode(dir);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: 'hook slow failed: timed out after 300 ms',
    });
  });

  it('async hooks still finish before the process exits', async () => {
    const marker = path.join(mkdtempSync(path.join(root, 'async-')), 'done');
    const dir = project(
      `import { writeFileSync } from 'node:fs';\nexport default { hooks: [{ name: 'late', events: 'PreToolUse', async: true, handler: () => new Promise((r) => setTimeout(() => { writeFileSync(${JSON.stringify(marker)}, 'ok'); r(); }, 300)) }] };\n`,
    );
    const r = await claudeCode(dir);
    expect(r.code).toBe(0);
    expect(readFileSync(marker, 'utf8')).toBe('ok');
  });
});

describe('the audit trail of the drop-in', () => {
  it('with HOOKWISE_AUDIT_DB every Outcome is recorded before the answer, and the database verifies', async () => {
    const dir = project(hookConfig(`() => deny('no')`));
    const db = path.join(dir, 'audit.db');
    for (let i = 0; i < 2; i++) {
      const r = await claudeCode(dir, PRE, [], { HOOKWISE_AUDIT_DB: 'audit.db' });
      expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    }
    const rows = queryAudit(db);
    expect(rows.map((row) => [row.event, row.decision, row.tool])).toEqual([
      ['PreToolUse', 'deny', 'Bash'],
      ['PreToolUse', 'deny', 'Bash'],
    ]);
    expect((await runCli(['audit', 'verify', '--db', db])).code).toBe(0);
  });

  it('an audit database that cannot be written fails closed', async () => {
    const dir = project(hookConfig(`() => deny('no')`));
    writeFileSync(path.join(dir, 'not-a-db'), 'plain text, not SQLite');
    expectFailedClosed(await claudeCode(dir, PRE, [], { HOOKWISE_AUDIT_DB: 'not-a-db' }), /.+/);
  });
});

describe('the opt-out, and events where exit 2 cannot block', () => {
  const broken = () => project(`throw new Error('broken');\n`);

  it('HOOKWISE_FAIL_OPEN=1 or --fail-open: exit 1 (a non-blocking error), one line', async () => {
    const dir = broken();
    for (const r of [await claudeCode(dir, PRE, [], { HOOKWISE_FAIL_OPEN: '1' }), await claudeCode(dir, PRE, ['--fail-open'])]) {
      expect([r.code, r.stdout]).toEqual([1, '']);
      expect(r.stderr).toMatch(/^hookwise: .*broken\n$/);
    }
  });

  it.each(['UserPromptSubmit', 'PermissionRequest', 'PreCompact', 'ConfigChange', 'PostToolBatch'])('exit 2 on %s', async (event) => {
    expectFailedClosed(await claudeCode(broken(), { hook_event_name: event, session_id: 's' }), /broken/);
  });

  // Exit 2 there would keep the agent going (for ever, while the config stays broken): failing closed ends the run.
  it.each(['Stop', 'SubagentStop', 'TaskCompleted', 'TeammateIdle'])('on %s the run ends: continue false, exit 0', async (event) => {
    const r = await claudeCode(broken(), { hook_event_name: event, session_id: 's' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ continue: false, stopReason: expect.stringMatching(/^hookwise failed closed: .*broken/) });
    expect(r.stderr).toMatch(/^hookwise failed closed: .*broken\n$/);
  });

  it.each(['PostToolUse', 'SessionStart', 'Notification', 'SessionEnd'])('exit 1 on %s (exit 2 would not block there)', async (event) => {
    const r = await claudeCode(broken(), { hook_event_name: event, session_id: 's' });
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(/^hookwise: .*broken\n$/);
  });
});

describe('hookwise fire has the same envelope', () => {
  it('a failure prints a blocked Outcome (a deny on PreToolUse) and exits 2', async () => {
    const dir = project(hookConfig('() => { process.exit(0); }'));
    const r = await runCli(['fire', 'PreToolUse', '--config', path.join(dir, 'hookwise.config.mjs')], {
      cwd: dir,
      stdin: JSON.stringify(PRE),
    });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({
      event: 'PreToolUse',
      decision: 'deny',
      blocked: true,
      reason: expect.stringMatching(/^hookwise failed: .*process\.exit\(0\)/),
    });
    expect(r.stderr).toMatch(/^hookwise failed closed: .*process\.exit\(0\).*\n$/);
  });

  it('a stuck hook and a miscased event name', async () => {
    const dir = project(hookConfig('() => { for (;;) {} }'));
    const config = path.join(dir, 'hookwise.config.mjs');
    const stuck = await runCli(['fire', 'PreToolUse', '--config', config, '--stall-timeout', '1500'], { cwd: dir, stdin: '{}' });
    expect([stuck.code, JSON.parse(stuck.stdout).blocked]).toEqual([2, true]);
    const miscased = await runCli(['fire', 'pretooluse', '--config', config], { cwd: dir, stdin: '{}' });
    expect(miscased.code).toBe(2);
    expect(miscased.stderr).toMatch(/unknown event "pretooluse"; did you mean "PreToolUse"\?/);
  });
});

mkdirSync(root, { recursive: true });
