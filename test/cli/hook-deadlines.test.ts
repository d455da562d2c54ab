import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isAlive, script, waitGone } from '../handlers/helpers.js';
import { queryAudit, verifyAudit } from '../../src/audit/index.js';
import { alive } from '../support/processes.js';
import { repoRoot, runCli } from './run-cli.js';
import { slack } from '../support/slack.js';

/**
 * Hooks end when their time is up (docs/security.md#containment), through the real,
 * spawned CLI: a command hook whose whole tree survives SIGTERM is SIGKILLed after the
 * grace, whether the call is answered by its own process (which exits right after the
 * answer) or by a resident; a hook stuck in synchronous code is stopped at its own
 * timeoutMs, not at the process's stall timeout.
 */
const HANDLERS = JSON.stringify(path.join(repoRoot, 'dist', 'handlers', 'index.js'));
const TREE = script('term-proof-tree.sh');
const root = mkdtempSync(path.join(tmpdir(), 'hookwise-deadlines-'));
const residentsDir = path.join(root, 'residents');
const started: number[] = [];
afterAll(() => {
  for (const pid of started) if (isAlive(pid, true)) process.kill(pid, 'SIGKILL');
  rmSync(root, { recursive: true, force: true });
});
afterEach(async () => {
  await runCli(['residents', '--stop', '--all'], { env: { HOOKWISE_RESIDENT_DIR: residentsDir } });
});

function project(config: string): string {
  const dir = mkdtempSync(path.join(root, 'p-'));
  writeFileSync(path.join(dir, 'hookwise.config.mjs'), config);
  return dir;
}

const pre = (dir: string, command = 'ls') =>
  JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's1', cwd: dir, tool_name: 'Bash', tool_input: { command } });

const call = (dir: string, env: Record<string, string>, command = 'ls') =>
  runCli(['claude-code'], {
    cwd: dir,
    stdin: pre(dir, command),
    env: { HOOKWISE_RESIDENT_DIR: residentsDir, HOOKWISE_CLAUDE_CODE: '', HOOKWISE_FAIL_OPEN: '', CLAUDE_PROJECT_DIR: dir, ...env },
  });

/** The pids the tree wrote, once all three levels have. */
async function treePids(pidFile: string): Promise<number[]> {
  for (let i = 0; i < 500; i++) {
    const pids = existsSync(pidFile) ? readFileSync(pidFile, 'utf8').trim().split('\n').filter(Boolean).map(Number) : [];
    if (pids.length === 3) {
      started.push(...pids);
      return pids;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the tree did not write three pids to ${pidFile}`);
}

const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map(Number) : []);

describe('a command hook tree that ignores SIGTERM', { timeout: slack(120_000) }, () => {
  it('survives SIGTERM on its own (the attack works without hookwise)', async () => {
    const pidFile = path.join(root, 'bare-pids');
    const termLog = path.join(root, 'bare-term');
    const tree = spawn('bash', [TREE], { detached: true, stdio: 'ignore', env: { ...process.env, PID_FILE: pidFile, TERM_LOG: termLog } });
    const pids = await treePids(pidFile);
    process.kill(-tree.pid!, 'SIGTERM');
    // Every level noted the signal (so it arrived) and is still running after it.
    for (let i = 0; i < 500 && lines(termLog).length < 3; i++) await new Promise((r) => setTimeout(r, 20));
    expect(lines(termLog).sort()).toEqual([...pids].sort());
    for (const pid of pids) expect(isAlive(pid, true)).toBe(true);
    process.kill(-tree.pid!, 'SIGKILL');
    for (const pid of pids) if (isAlive(pid, true)) process.kill(pid, 'SIGKILL');
    for (const pid of pids) expect(await waitGone(pid, true)).toBe(true);
  });

  it.each([
    ['answered by its own process, which exits right after the answer', { HOOKWISE_RESIDENT: '0' }],
    ['answered by a resident, which goes on running', { HOOKWISE_RESIDENT: '1' }],
  ])('%s: SIGTERM, then SIGKILL after the grace, for all three levels (checked by pid)', async (what, env) => {
    const tag = what.includes('resident') ? 'resident' : 'own';
    const pidFile = path.join(root, `${tag}-pids`);
    const termLog = path.join(root, `${tag}-term`);
    const dir = project(
      `import { commandHandler } from ${HANDLERS};\nexport default { hooks: [{ name: 'tree', events: 'PreToolUse', timeoutMs: 4000, handler: (i, ctx) => i.tool_input.command === 'tree' ? commandHandler({ command: ${JSON.stringify(`PID_FILE=${pidFile} TERM_LOG=${termLog} bash ${TREE}`)} })(i, ctx) : undefined }] };\n`,
    );
    if (tag === 'resident') {
      expect((await call(dir, env)).code).toBe(0);
      await until(() => readdirSync(residentsDir).some((n) => n.endsWith('.sock')));
    }
    const r = await call(dir, env, 'tree');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: 'hook tree failed: timed out after 4000 ms',
    });
    const pids = await treePids(pidFile);
    for (const pid of pids) expect(await waitGone(pid, true, slack(10_000)), `pid ${pid} outlived the hook`).toBe(true);
  });
});

describe('a hook stuck in synchronous code', { timeout: slack(120_000) }, () => {
  const looping = `export default { hooks: [{ name: 'spin', events: 'PreToolUse', timeoutMs: 500, handler: (i) => { if (i.tool_input.command === 'spin') for (;;) {} } }] };\n`;
  // A stall timeout far beyond the test's own: only the hook's timeoutMs can end the call in time.
  const patient = { HOOKWISE_STALL_TIMEOUT_MS: '600000' };

  it('is stopped at its own timeoutMs, with the failure answer and the audit record saying it timed out', async () => {
    const dir = project(looping);
    const db = path.join(dir, 'audit.db');
    const r = await call(dir, { ...patient, HOOKWISE_RESIDENT: '0', HOOKWISE_AUDIT_DB: db }, 'spin');
    expect([r.code, r.stdout]).toEqual([2, '']);
    const reason =
      'hook spin timed out: ran synchronously for 1000 ms of CPU time without yielding (timeoutMs 500; at least 1000 ms of CPU time is allowed); stopped';
    expect(r.stderr).toBe(`hookwise failed closed: ${reason}\n`);
    const rows = queryAudit(db);
    expect(rows.map((row) => [row.kind, row.event, row.decision, row.tool])).toEqual([['outcome', 'PreToolUse', 'deny', 'Bash']]);
    expect(rows[0]!.data).toMatchObject({ blocked: true, reason, hooks: [{ name: 'spin', status: 'timeout', error: reason }] });
    expect(verifyAudit(db).ok).toBe(true);
  });

  it('in a resident: the call fails closed and the resident goes, saying which hook', async () => {
    const dir = project(looping);
    const env = { ...patient, HOOKWISE_RESIDENT: '1' };
    expect((await call(dir, env)).code).toBe(0);
    await until(() => readdirSync(residentsDir).some((n) => n.endsWith('.sock')));
    const pid = await residentPid();
    const r = await call(dir, env, 'spin');
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(/^hookwise failed closed: /);
    await until(() => !alive(pid));
    const logs = readdirSync(residentsDir).filter((n) => n.endsWith('.log'));
    expect(logs.map((n) => readFileSync(path.join(residentsDir, n), 'utf8')).join('')).toContain(
      'hook spin timed out: ran synchronously for 1000 ms of CPU time without yielding (timeoutMs 500',
    );
  });

  it('a sync hook that finishes within the floor is answered as before', async () => {
    const dir = project(
      `export default { hooks: [{ name: 'busy', events: 'PreToolUse', timeoutMs: 100, handler: () => { const end = Date.now() + 300; while (Date.now() < end) {} return { decision: 'deny', reason: 'worked hard' }; } }] };\n`,
    );
    const r = await call(dir, { HOOKWISE_RESIDENT: '0' });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason).toBe('worked hard');
  });
});

async function until(ready: () => boolean, ms = slack(30_000)): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function residentPid(): Promise<number> {
  const r = await runCli(['residents', '--json'], { env: { HOOKWISE_RESIDENT_DIR: residentsDir } });
  const listed = JSON.parse(r.stdout) as Array<{ pid: number }>;
  expect(listed).toHaveLength(1);
  return listed[0]!.pid;
}

mkdirSync(residentsDir, { recursive: true, mode: 0o700 });
