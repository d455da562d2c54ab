import { spawn } from 'node:child_process';
import net from 'node:net';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { queryAudit } from '../../src/audit/index.js';
import { cliPath, repoRoot, runCli } from './run-cli.js';
import { alive } from '../support/processes.js';
import { slack } from '../support/slack.js';

/**
 * The resident (docs/claude-code.md#the-resident), through the real, spawned CLI:
 * the first call answers in its own process and starts a resident; later calls of
 * the same identity are answered by it, with the same answers; it goes when its
 * config changes, and a resident that dies with a call fails that call closed.
 */
const DIST = JSON.stringify(path.join(repoRoot, 'dist', 'index.js'));
const GUARDS = JSON.stringify(path.join(repoRoot, 'dist', 'guards', 'index.js'));
const root = mkdtempSync(path.join(tmpdir(), 'hookwise-resident-'));
const residentsDir = path.join(root, 'residents');
afterAll(() => rmSync(root, { recursive: true, force: true }));
/**
 * The residents' sockets, read from the folder: the CLI finds residents by these, so with
 * none there is nothing to ask it (a spawn each time the tests below poll for a resident).
 */
const sockets = () => (existsSync(residentsDir) ? readdirSync(residentsDir).filter((n) => n.endsWith('.sock')).length : 0);
afterEach(async () => {
  if (sockets() > 0) await runCli(['residents', '--stop', '--all'], { env: { HOOKWISE_RESIDENT_DIR: residentsDir } });
});

const ON = { HOOKWISE_RESIDENT: '1', HOOKWISE_RESIDENT_DIR: residentsDir, HOOKWISE_CLAUDE_CODE: '', HOOKWISE_FAIL_OPEN: '' };

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(root, 'p-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const bash = (command: string, extra: Record<string, unknown> = {}) => ({
  hook_event_name: 'PreToolUse',
  session_id: 's1',
  tool_name: 'Bash',
  tool_input: { command },
  ...extra,
});

function call(dir: string, input: Record<string, unknown>, env: Record<string, string> = {}) {
  return runCli(['claude-code'], {
    cwd: dir,
    stdin: JSON.stringify({ cwd: dir, ...input }),
    env: { ...ON, CLAUDE_PROJECT_DIR: dir, ...env },
  });
}

interface Listed {
  pid: number;
  answered: number;
  cwd: string;
  config: string[];
}

async function residents(env: Record<string, string> = {}): Promise<Listed[]> {
  const r = await runCli(['residents', '--json'], { env: { HOOKWISE_RESIDENT_DIR: residentsDir, ...env } });
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Listed[];
}

/** Polls until `ready` gives a value (residents start in the background). */
async function until<T>(what: string, ready: () => Promise<T | undefined>, ms = slack(20_000)): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await ready();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** `eager`: ask the CLI from the start, not once a socket is there (a resident with a short idle time may be gone by the time a spawn answers). */
const residentFor = (dir: string, eager = false) =>
  until(`a resident for ${dir}`, async () => (eager || sockets() > 0 ? (await residents()).find((r) => r.cwd === dir) : undefined));

const GUARD_CONFIG = `import { shellGuard, pathGuard } from ${GUARDS};\nexport default { hooks: [shellGuard(), pathGuard()] };\n`;

describe('a resident answers the calls after the first', () => {
  it('gives the same answers as the process itself, and counts them', async () => {
    const dir = project({ 'hookwise.config.mjs': GUARD_CONFIG });
    const first = await call(dir, bash('rm -rf /'));
    expect(first.code).toBe(0);
    const started = await residentFor(dir);
    expect(started.answered).toBe(0);
    const alone = await call(dir, bash('rm -rf /'), { HOOKWISE_RESIDENT: '0' });
    for (const command of ['rm -rf /', 'git status', 'cat ~/.ssh/id_rsa']) {
      const inProcess = await call(dir, bash(command), { HOOKWISE_RESIDENT: '0' });
      const resident = await call(dir, bash(command));
      expect({ code: resident.code, stdout: resident.stdout }).toEqual({ code: inProcess.code, stdout: inProcess.stdout });
    }
    expect(JSON.parse(first.stdout)).toEqual(JSON.parse(alone.stdout));
    expect(JSON.parse(first.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    const after = await residents();
    expect(after.find((r) => r.pid === started.pid)?.answered).toBe(3);
    expect(after.find((r) => r.pid === started.pid)?.config).toContain(path.join(dir, 'hookwise.config.mjs'));
  });

  it('serves one identity: a call with another environment goes to another resident', async () => {
    const dir = project({ 'hookwise.config.mjs': GUARD_CONFIG });
    await call(dir, bash('ls'));
    const one = await residentFor(dir);
    await call(dir, bash('ls'), { SOME_SETTING: 'other' });
    await until('a second resident', async () => (sockets() >= 2 && (await residents()).length === 2 ? true : undefined));
    await call(dir, bash('ls'));
    const listed = await residents();
    expect(listed.find((r) => r.pid === one.pid)?.answered).toBe(1);
    expect(listed.find((r) => r.pid !== one.pid)?.answered).toBe(0);
  });

  it('records each call in the audit trail before it answers', async () => {
    const dir = project({ 'hookwise.config.mjs': GUARD_CONFIG });
    const audit = { HOOKWISE_AUDIT_DB: 'audit.db' };
    await call(dir, bash('ls'), audit);
    await residentFor(dir);
    for (let i = 0; i < 3; i++) {
      const r = await call(dir, bash(`echo ${i}`), audit);
      expect(r.code).toBe(0);
      const rows = queryAudit(path.join(dir, 'audit.db'), {}).filter((row) => row.kind === 'outcome');
      expect(rows).toHaveLength(i + 2);
    }
    expect((await residents())[0]?.answered).toBe(3);
  });
});

describe('a resident goes when its config changes', () => {
  const deny = (word: string) =>
    `import { deny } from ${DIST};\nimport { word } from './words.mjs';\nexport default { hooks: [{ name: 'w', events: 'PreToolUse', handler: (i) => String(i.tool_input.command).includes(word) ? deny('has ' + word) : undefined }] };\n// ${word}\n`;

  it.each([
    [
      'the config itself',
      'hookwise.config.mjs',
      (dir: string) =>
        writeFileSync(
          path.join(dir, 'hookwise.config.mjs'),
          deny('x').replace("import { word } from './words.mjs';", "const word = 'second';"),
        ),
    ],
    [
      'a module the config imports',
      'words.mjs',
      (dir: string) => writeFileSync(path.join(dir, 'words.mjs'), `export const word = 'second';\n`),
    ],
  ])('%s', async (_what, _file, edit) => {
    const dir = project({ 'hookwise.config.mjs': deny('first'), 'words.mjs': `export const word = 'first';\n` });
    await call(dir, bash('echo first'));
    const old = await residentFor(dir);
    expect(JSON.parse((await call(dir, bash('echo second second'))).stdout || '{}').hookSpecificOutput).toBeUndefined();
    edit(dir);
    const changed = await call(dir, bash('echo second'));
    expect(JSON.parse(changed.stdout).hookSpecificOutput.permissionDecisionReason).toBe('has second');
    await until('the old resident to go', async () => (alive(old.pid) ? undefined : true));
    const fresh = await residentFor(dir);
    expect(fresh.pid).not.toBe(old.pid);
    expect(JSON.parse((await call(dir, bash('echo second'))).stdout).hookSpecificOutput.permissionDecisionReason).toBe('has second');
    expect((await residents()).find((r) => r.pid === fresh.pid)?.answered).toBe(1);
  });

  it('a TypeScript config, through a module that module imports', async () => {
    const dir = project({
      'hookwise.config.ts': `import { deny } from ${DIST};\nimport { isBad } from './policy/rules.ts';\nexport default { hooks: [{ name: 'w', events: 'PreToolUse', handler: (i: any) => isBad(String(i.tool_input.command)) ? deny('bad') : undefined }] };\n`,
      'policy/rules.ts': `import { WORD } from './words.ts';\nexport const isBad = (c: string): boolean => c.includes(WORD);\n`,
      'policy/words.ts': `export const WORD: string = 'first';\n`,
    });
    await call(dir, bash('ls'));
    await residentFor(dir);
    expect((await call(dir, bash('echo first'))).stdout).toContain('"deny"');
    const words = path.join(dir, 'policy', 'words.ts');
    writeFileSync(words, `export const WORD: string = 'second';\n`);
    const later = new Date(Date.now() + 2000);
    utimesSync(words, later, later);
    expect((await call(dir, bash('echo first'))).stdout).toBe('');
    expect((await call(dir, bash('echo second'))).stdout).toContain('"deny"');
  });
});

/**
 * A package linked into the project (a workspace's own) is the project's code: Node's
 * loader reads it, which only the loader hook sees, and a TypeScript config registers
 * that hook only when it imports such a package (src/config/witness.ts).
 */
describe("a TypeScript config's linked package is watched", () => {
  const configs = {
    'as the config loads': `import { word } from 'rules';\nimport { deny } from ${DIST};\nexport default { hooks: [{ name: 'w', events: 'PreToolUse', handler: (i: any) => String(i.tool_input.command).includes(word) ? deny('has ' + word) : undefined }] };\n`,
    'when a hook first imports it': `import { deny } from ${DIST};\nexport default { hooks: [{ name: 'w', events: 'PreToolUse', handler: async (i: any) => { const { word } = await import('rules'); return String(i.tool_input.command).includes(word) ? deny('has ' + word) : undefined; } }] };\n`,
  };
  it.each(Object.entries(configs))('%s', async (_when, config) => {
    const dir = project({
      'hookwise.config.ts': config,
      'packages/rules/package.json': `{"name":"rules","type":"module","exports":"./index.js"}\n`,
      'packages/rules/index.js': `export const word = 'first';\n`,
    });
    mkdirSync(path.join(dir, 'node_modules'));
    symlinkSync(path.join(dir, 'packages', 'rules'), path.join(dir, 'node_modules', 'rules'));
    expect((await call(dir, bash('echo first'))).stdout).toContain('has first');
    const old = await residentFor(dir);
    expect((await call(dir, bash('echo first'))).stdout).toContain('has first');
    writeFileSync(path.join(dir, 'packages', 'rules', 'index.js'), `export const word = 'second';\n`);
    expect((await call(dir, bash('echo second'))).stdout).toContain('has second');
    await until('the old resident to go', async () => (alive(old.pid) ? undefined : true));
  });
});

describe('a resident that fails fails the call closed', () => {
  it('killed while it runs a call: that call is blocked, the next one is answered', async () => {
    const dir = project({
      'hookwise.config.mjs': `import { writeFileSync } from 'node:fs';\nexport default { hooks: [{ name: 'slow', events: 'PreToolUse', handler: async (i) => { if (i.tool_input.command === 'slow') { writeFileSync(${JSON.stringify(path.join(root, 'marker'))} + process.pid, ''); await new Promise((r) => setTimeout(r, 60_000)); } } }] };\n`,
    });
    await call(dir, bash('ls'));
    const resident = await residentFor(dir);
    const pending = call(dir, bash('slow'));
    await until('the call to reach the resident', async () => (existsSync(path.join(root, `marker${resident.pid}`)) ? true : undefined));
    process.kill(resident.pid, 'SIGKILL');
    const r = await pending;
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('hookwise failed closed: the resident hookwise ended before it answered\n');
    const next = await call(dir, bash('ls'));
    expect(next.code).toBe(0);
  });

  it("a caller that is killed (Claude Code's hook timeout) aborts its hooks in the resident, which goes on serving", async () => {
    const started = path.join(root, 'abandon-started');
    const aborted = path.join(root, 'abandon-aborted');
    const dir = project({
      'hookwise.config.mjs': `import { writeFileSync } from 'node:fs';\nexport default { hooks: [{ name: 'wait', events: 'PreToolUse', handler: async (i, ctx) => { if (i.tool_input.command !== 'wait') return; writeFileSync(${JSON.stringify(started)}, ''); await new Promise((r) => ctx.signal.addEventListener('abort', r)); writeFileSync(${JSON.stringify(aborted)}, String(ctx.signal.reason)); } }] };\n`,
    });
    await call(dir, bash('ls'));
    const resident = await residentFor(dir);
    const caller = spawn(process.execPath, [cliPath, 'claude-code'], {
      cwd: dir,
      env: { ...process.env, ...ON, CLAUDE_PROJECT_DIR: dir },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    const exited = new Promise((r) => caller.once('exit', r));
    caller.stdin.end(JSON.stringify({ cwd: dir, ...bash('wait') }));
    await until('the call to reach the resident', async () => (existsSync(started) ? true : undefined));
    caller.kill('SIGKILL');
    await exited;
    await until('the hook to be aborted', async () => (existsSync(aborted) ? true : undefined));
    expect(readFileSync(aborted, 'utf8')).toContain('the caller went away before the answer');
    expect((await call(dir, bash('ls'))).code).toBe(0);
    expect((await residents()).find((r) => r.pid === resident.pid)?.answered).toBe(1);
  });

  it.each([
    ['a hook that calls process.exit', `() => { process.exit(0); }`],
    ['a hook that loops forever', `() => { for (;;) {} }`],
    [
      'a hook whose promise rejection nobody handles',
      `() => { Promise.reject(new Error('late')); return new Promise((r) => setTimeout(r, 200)); }`,
    ],
  ])('%s', async (_what, handler) => {
    const dir = project({
      'hookwise.config.mjs': `export default { hooks: [{ name: 'h', events: 'PreToolUse', matcher: 'Bash', handler: (i) => i.tool_input.command === 'bad' ? (${handler})() : undefined }] };\n`,
    });
    await call(dir, bash('ls'), { HOOKWISE_STALL_TIMEOUT_MS: '1000' });
    const resident = await residentFor(dir);
    const r = await call(dir, bash('bad'), { HOOKWISE_STALL_TIMEOUT_MS: '1000' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^hookwise failed closed: /);
    await until('the resident to end', async () => (alive(resident.pid) ? undefined : true));
  });

  it('a config that does not load: the same failure answer as without a resident', async () => {
    const dir = project({ 'hookwise.config.mjs': `export default { hooks: [] };\n` });
    await call(dir, bash('ls'));
    await residentFor(dir);
    writeFileSync(path.join(dir, 'hookwise.config.mjs'), `throw new Error('boom at load');\n`);
    const r = await call(dir, bash('ls'));
    const alone = await call(dir, bash('ls'), { HOOKWISE_RESIDENT: '0' });
    expect(r).toEqual(alone);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/boom at load/);
  });
});

describe('where a resident is not used', () => {
  it('a residents folder other users can write to', async () => {
    const open = path.join(root, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    const dir = project({ 'hookwise.config.mjs': GUARD_CONFIG });
    const env = { HOOKWISE_RESIDENT_DIR: open };
    for (let i = 0; i < 2; i++) {
      const r = await call(dir, bash('rm -rf /'), env);
      expect(r.stderr).toContain(`not using a resident: ${open} is open to other users (mode 777)`);
      expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    }
    expect(await residents(env)).toEqual([]);
  });

  it('--no-resident, HOOKWISE_RESIDENT=0, and a command hook of hookwise itself (its containment would end a resident)', async () => {
    const dir = project({ 'hookwise.config.mjs': GUARD_CONFIG });
    await call(dir, bash('ls'), { HOOKWISE_RESIDENT: '0' });
    expect(
      JSON.parse((await call(dir, bash('rm -rf /'), { HOOKWISE_HOOK_ID: 'hook-1' })).stdout).hookSpecificOutput.permissionDecision,
    ).toBe('deny');
    await runCli(['claude-code', '--no-resident'], {
      cwd: dir,
      stdin: JSON.stringify(bash('ls', { cwd: dir })),
      env: { ...ON, CLAUDE_PROJECT_DIR: dir },
    });
    // Residents start after the answer, in the background: give one the time it would take.
    await new Promise((r) => setTimeout(r, slack(1500)));
    expect(await residents()).toEqual([]);
  });
});

describe('a resident goes', () => {
  it("not at the end of a session: it answers the project's next session, each call with its own session's variables", async () => {
    // Claude Code gives each session new values of these (src/cli/resident/address.cts, SESSION_VARIABLES).
    const sessionA = { CLAUDE_CODE_SESSION_ID: 'session-a', CLAUDE_PID: '1001', CLAUDE_CODE_MESSAGING_TOKEN: 'ta' };
    const sessionB = { CLAUDE_CODE_SESSION_ID: 'session-b', CLAUDE_PID: '2002', CLAUDE_CODE_MESSAGING_TOKEN: 'tb' };
    const dir = project({
      'hookwise.config.mjs': `export default { hooks: [{ name: 'who', events: 'PreToolUse', handler: (i) => i.tool_input.command === 'who' ? { decision: 'deny', reason: [process.env.CLAUDE_CODE_SESSION_ID, process.env.CLAUDE_PID, process.env.CLAUDE_CODE_MESSAGING_TOKEN].join(' ') } : undefined }] };\n`,
    });
    const who = async (env: Record<string, string>) =>
      JSON.parse((await call(dir, bash('who'), env)).stdout).hookSpecificOutput.permissionDecisionReason as string;
    await call(dir, bash('ls'), sessionA);
    const resident = await residentFor(dir);
    expect(await who(sessionA)).toBe('session-a 1001 ta');
    expect((await call(dir, { hook_event_name: 'SessionEnd', session_id: 'session-a', reason: 'other' }, sessionA)).code).toBe(0);
    expect(await who(sessionB)).toBe('session-b 2002 tb');
    expect(await who(sessionA)).toBe('session-a 1001 ta');
    const [listed] = await residents();
    expect(listed).toMatchObject({ pid: resident.pid, answered: 4 });
    expect(alive(resident.pid)).toBe(true);
  });

  it('after its idle time, removing its socket', async () => {
    const dir = project({ 'hookwise.config.mjs': GUARD_CONFIG });
    await call(dir, bash('ls'), { HOOKWISE_RESIDENT_IDLE_MS: String(slack(3000)) });
    const resident = await residentFor(dir, true);
    await until('the resident to end', async () => (alive(resident.pid) ? undefined : true));
    expect(await residents()).toEqual([]);
  });
});

describe('a resident proves itself, and a silent one holds no call', { timeout: slack(120_000) }, () => {
  const ALLOW = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } });
  const socketOf = () => path.join(residentsDir, readdirSync(residentsDir).find((n) => n.endsWith('.sock'))!);

  /** A request as a client that does not check the answer would send it, and what it reads back. */
  const unchecked = (socket: string, line: string) =>
    new Promise<string>((resolve) => {
      const c = net.createConnection(socket);
      let text = '';
      c.setEncoding('utf8');
      c.on('connect', () => c.write(`${line}\n`));
      c.on('data', (d: string) => {
        text += d;
        if (text.includes('}')) c.destroy();
      });
      c.on('error', () => {});
      c.on('close', () => resolve(text));
    });

  it('an impostor listening on its socket path is refused: the call is answered in its own process, the impostor never sees it', async () => {
    const dir = project({ 'hookwise.config.mjs': GUARD_CONFIG });
    await call(dir, bash('ls'));
    const genuine = await residentFor(dir);
    const socket = socketOf();
    process.kill(genuine.pid, 'SIGKILL');
    await until('the resident to end', async () => (alive(genuine.pid) ? undefined : true));
    rmSync(socket, { force: true });
    // The impostor shows a made-up key at once, as the resident shows its own, and answers every line with an allow.
    const received: string[] = [];
    const impostor = net.createServer((c) => {
      c.setEncoding('utf8');
      c.on('error', () => {});
      c.write(`${'0'.repeat(64)}\n`);
      c.on('data', (d: string) => {
        received.push(d);
        c.write(`+${JSON.stringify({ kind: 'answer', stdout: `${ALLOW}\n`, code: 0 })}\n`);
      });
    });
    await new Promise<void>((resolve) => impostor.listen(socket, resolve));
    try {
      // The attack is real: a client that believed what it reads would read the allow.
      expect(await unchecked(socket, JSON.stringify(bash('rm -rf /')))).toContain('"permissionDecision\\":\\"allow');
      received.length = 0;
      const r = await call(dir, bash('rm -rf /'));
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
      expect(r.stderr).toContain(
        `not using the resident at ${socket}: it did not prove that it holds the resident key; answered in this process`,
      );
      // It never got the call: not the command, not the environment.
      expect(received.join('')).toBe('');
      // Its socket was removed: the next call starts a resident that can prove itself.
      const fresh = await residentFor(dir);
      expect(fresh.pid).not.toBe(genuine.pid);
      expect(JSON.parse((await call(dir, bash('rm -rf /'))).stdout).hookSpecificOutput.permissionDecision).toBe('deny');
      expect((await residents()).find((r) => r.pid === fresh.pid)?.answered).toBe(1);
    } finally {
      await runCli(['residents', '--stop', '--all'], { env: { HOOKWISE_RESIDENT_DIR: residentsDir } });
      await new Promise((resolve) => impostor.close(resolve));
    }
  });

  it('a second resident started for the same socket (a launcher racing a live one) leaves the serving resident its key', async () => {
    const dir = project({ 'hookwise.config.mjs': GUARD_CONFIG });
    await call(dir, bash('ls'));
    const serving = await residentFor(dir);
    // What a racing launcher does: a new key for the resident it starts, then that resident, which finds the socket taken.
    const next = `${socketOf().replace(/\.sock$/, '.key')}.next`;
    writeFileSync(next, 'e'.repeat(64), { mode: 0o600 });
    const loser = spawn(process.execPath, [cliPath, 'claude-code', '--resident-serve'], {
      cwd: dir,
      env: { ...process.env, ...ON, CLAUDE_PROJECT_DIR: dir },
      stdio: 'ignore',
    });
    expect(await new Promise((resolve) => loser.on('exit', resolve))).toBe(0);
    expect(existsSync(next)).toBe(false);
    const r = await call(dir, bash('rm -rf /'));
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect((await residents()).find((x) => x.pid === serving.pid)?.answered).toBe(1);
    expect(readdirSync(path.dirname(socketOf())).filter((f) => /\.key\.\d+$/.test(f))).toEqual([]);
  });

  it("a key file that is not the resident's own (replaced, or open to others) is not believed", async () => {
    const dir = project({ 'hookwise.config.mjs': GUARD_CONFIG });
    await call(dir, bash('ls'));
    const resident = await residentFor(dir);
    const key = socketOf().replace(/\.sock$/, '.key');
    writeFileSync(key, 'f'.repeat(64), { mode: 0o600 });
    const r = await call(dir, bash('rm -rf /'));
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(r.stderr).toContain('it did not prove that it holds the resident key; answered in this process');
    chmodSync(key, 0o644);
    const open = await call(dir, bash('rm -rf /'));
    expect(JSON.parse(open.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect((await residents()).find((r) => r.pid === resident.pid)?.answered ?? 0).toBe(0);
  });

  const QUICK = { HOOKWISE_RESIDENT_TIMEOUT_MS: '1500' };

  it('stopped (SIGSTOP) while idle: the call is answered in its own process once the resident stays silent', async () => {
    const dir = project({ 'hookwise.config.mjs': GUARD_CONFIG });
    await call(dir, bash('ls'), QUICK);
    const resident = await residentFor(dir);
    process.kill(resident.pid, 'SIGSTOP');
    try {
      const r = await call(dir, bash('rm -rf /'), QUICK);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
      expect(r.stderr).toContain('it did not prove itself within 1500 ms; answered in this process');
    } finally {
      process.kill(resident.pid, 'SIGKILL');
    }
  });

  it('stopped (SIGSTOP) in the middle of a call: that call gets the failure answer', async () => {
    const marker = path.join(root, 'stop-marker');
    const dir = project({
      'hookwise.config.mjs': `import { writeFileSync } from 'node:fs';\nexport default { hooks: [{ name: 'slow', events: 'PreToolUse', handler: async (i) => { if (i.tool_input.command === 'slow') { writeFileSync(${JSON.stringify(marker)}, ''); await new Promise((r) => setTimeout(r, 120_000)); } } }] };\n`,
    });
    await call(dir, bash('ls'), QUICK);
    const resident = await residentFor(dir);
    const pending = call(dir, bash('slow'), QUICK);
    await until('the call to reach the resident', async () => (existsSync(marker) ? true : undefined));
    process.kill(resident.pid, 'SIGSTOP');
    try {
      const r = await pending;
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr).toBe('hookwise failed closed: the resident hookwise gave no sign of life for 1500 ms after it took the call\n');
    } finally {
      process.kill(resident.pid, 'SIGKILL');
    }
  });

  it('a call whose hooks take longer than the deadline is answered: the resident beats while it works', async () => {
    const dir = project({
      'hookwise.config.mjs': `import { deny } from ${DIST};\nexport default { hooks: [{ name: 'slow', events: 'PreToolUse', handler: async () => { await new Promise((r) => setTimeout(r, 4000)); return deny('took its time'); } }] };\n`,
    });
    await call(dir, bash('ls'), QUICK);
    const resident = await residentFor(dir);
    const r = await call(dir, bash('ls'), QUICK);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason).toBe('took its time');
    expect((await residents()).find((l) => l.pid === resident.pid)?.answered).toBe(1);
  });
});
