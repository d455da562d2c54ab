import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { slack } from '../support/slack.js';
import { normalise, packLocal, packTypescript, SESSIONS, writeProject } from './everyday.js';

/**
 * Issue 38's first "Done when", for real: every command of the everyday sessions
 * (test/sandbox/everyday.ts) runs once as the agent's host runs it without hookwise, and
 * once as the line `hookwise claude-code` answers for it under the policy `hookwise
 * init` writes (network 'registries': socat is installed here), in bubblewrap, with the
 * after-tool answer read too. Exit code, output (paths and times normalised) and any
 * line hookwise adds must be the same. The divergences that stay are listed in
 * KNOWN_DIFFERENCES and documented in docs/security.md ("What the sandbox changes").
 */
const KNOWN_DIFFERENCES: string[] = [
  // git rewrites .git/config by renaming a new file over it; the sandbox keeps .git/config read-only (a
  // protected path: core.fsmonitor and core.hooksPath run programs), so git warns and the branch's config
  // section stays. The after-tool line says why (docs/security.md, "What the sandbox changes").
  'git branch -d feature',
];

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hw-everyday-')));
// Short: the network proxy's Unix socket lives here (108 bytes at most).
const residents = fs.mkdtempSync(path.join(os.tmpdir(), 'hw-ed-'));
fs.chmodSync(residents, 0o700);
const scratch = `hw-scratch-${randomBytes(5).toString('hex')}`;
const SIDES = ['plain', 'boxed'] as const;
type Side = (typeof SIDES)[number];
const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

function homeOf(side: Side): string {
  return path.join(root, side, 'home');
}

/** The environment the agent's Bash tool has: the user's, with a home of this test's own. */
function envOf(side: Side): Record<string, string> {
  return { PATH, HOME: homeOf(side), LANG: 'C.UTF-8', USER: os.userInfo().username, TERM: 'dumb', NO_COLOR: '1' };
}

/** The environment hookwise runs in: the residents and the network proxy in this test's folder, ended after. */
const hookEnv = (ws: string) => ({
  ...envOf('boxed'),
  PATH: process.env.PATH,
  HOOKWISE_STATE_DIR: process.env.HOOKWISE_STATE_DIR,
  HOOKWISE_RESIDENT: '1',
  HOOKWISE_RESIDENT_DIR: residents,
  CLAUDE_PROJECT_DIR: ws,
});

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function bash(line: string, cwd: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/bash', ['-c', line], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

interface Boxed extends Run {
  /** The reason when hookwise refused the command (it did not run). */
  refused?: string;
  /** What hookwise's after-tool answer added for the model. */
  added?: string;
}

/** One Bash call as Claude Code makes it with hookwise's settings hooks: PreToolUse, the answered line, PostToolUse. */
async function throughHookwise(command: string, ws: string, session: string): Promise<Boxed> {
  const event = (name: string, extra: object = {}) =>
    JSON.stringify({ session_id: session, hook_event_name: name, tool_name: 'Bash', tool_input: { command }, cwd: ws, ...extra });
  const pre = await runCli(['claude-code'], { cwd: ws, env: hookEnv(ws), stdin: event('PreToolUse') });
  if (pre.code !== 0) throw new Error(`hookwise claude-code exited ${pre.code}: ${pre.stderr}`);
  const answer = pre.stdout === '' ? {} : JSON.parse(pre.stdout);
  const out = answer.hookSpecificOutput ?? {};
  if (out.permissionDecision === 'deny') return { status: null, stdout: '', stderr: '', refused: out.permissionDecisionReason };
  const line = out.updatedInput?.command;
  if (typeof line !== 'string') throw new Error(`hookwise let ${command} run outside its sandbox`);
  const run = await bash(line, ws, envOf('boxed'));
  const response = { stdout: run.stdout, stderr: run.stderr, interrupted: false, isImage: false };
  const post = await runCli(['claude-code'], { cwd: ws, env: hookEnv(ws), stdin: event('PostToolUse', { tool_response: response }) });
  const after = post.stdout === '' ? {} : JSON.parse(post.stdout);
  const added = [after.hookSpecificOutput?.additionalContext, after.systemMessage, after.reason].filter(Boolean).join('\n');
  return { ...run, ...(added === '' ? {} : { added }) };
}

interface Divergence {
  session: string;
  command: string;
  plain: Run;
  boxed: Boxed;
}

const roots = SIDES.map((side) => path.join(root, side));
const same = (a: string, b: string) => normalise(a, roots) === normalise(b, roots);

let tarball: string;
let template: string;

beforeAll(async () => {
  for (const side of SIDES) {
    fs.mkdirSync(homeOf(side), { recursive: true });
    // The user's own npm and git settings, as the machine's are.
    fs.writeFileSync(path.join(homeOf(side), '.npmrc'), 'fund=false\naudit=false\nupdate-notifier=false\n');
    fs.writeFileSync(
      path.join(homeOf(side), '.gitconfig'),
      '[user]\n\tname = Demo Agent\n\temail = agent@example.com\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n',
    );
  }
  tarball = packLocal(root, envOf('plain'));
  template = path.join(root, 'template');
  writeProject(template, tarball, packTypescript(root, envOf('plain')));
  // The policy `hookwise init` writes here (socat is installed: network 'registries').
  const init = await runCli(['init'], { cwd: template, env: { ...hookEnv(template) } });
  expect(init.code, init.stderr).toBe(0);
  expect(fs.readFileSync(path.join(template, 'hookwise.config.ts'), 'utf8')).toContain("network: 'registries'");
});

afterAll(async () => {
  await runCli(['residents', '--stop', '--all'], { env: { HOOKWISE_RESIDENT_DIR: residents } });
  for (const name of fs.readdirSync(residents).filter((f) => f.endsWith('.pid'))) {
    const pid = Number(fs.readFileSync(path.join(residents, name), 'utf8'));
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // ended already
    }
  }
  for (const entry of fs.readdirSync('/tmp').filter((f) => f.startsWith(scratch))) {
    fs.rmSync(path.join('/tmp', entry), { recursive: true, force: true });
  }
  fs.rmSync(path.join('/var/tmp', `${scratch}.txt`), { force: true });
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(residents, { recursive: true, force: true });
});

describe('everyday agent sessions run in the sandbox as they run without it', () => {
  it('the same exit code and output for every command of every session', { timeout: slack(900_000) }, async () => {
    const divergences: Divergence[] = [];
    const stepNotes: string[] = [];
    let total = 0;
    for (const [i, session] of SESSIONS.entries()) {
      const ws = Object.fromEntries(SIDES.map((side) => [side, path.join(root, side, `s${i}`)])) as Record<Side, string>;
      for (const side of SIDES) fs.cpSync(template, ws[side], { recursive: true, verbatimSymlinks: true });
      // The sessions that do not install start installed, as a project an agent opens usually is.
      if (!session.commands.includes('npm install')) {
        for (const side of SIDES) {
          const done = await bash('npm install --silent', ws[side], envOf(side));
          expect(done.status, done.stderr).toBe(0);
        }
      }
      const id = `everyday-${i}-${randomBytes(4).toString('hex')}`;
      const commands = session.commands.map((c) => c.replaceAll('{scratch}', scratch));
      // The sandboxed run first: what the plain run leaves in the real /tmp would otherwise be there for it to find.
      const boxed: Boxed[] = [];
      for (const command of commands) boxed.push(await throughHookwise(command, ws.boxed, id));
      for (const [k, command] of commands.entries()) {
        const plain = await bash(command, ws.plain, envOf('plain'));
        const box = boxed[k]!;
        total += 1;
        // The checkpoint guard's word on a step (what it changed, `hookwise undo`) is not the sandbox's: counted apart.
        const steps = (box.added ?? '').split('\n').filter((l) => /^hookwise: step \d+ /.test(l));
        if (steps.length > 0) stepNotes.push(`${command}: ${steps[0]}`);
        const added = (box.added ?? '').split('\n').filter((l) => l !== '' && !/^hookwise: step \d+ /.test(l));
        const agrees =
          box.refused === undefined &&
          added.length === 0 &&
          plain.status === box.status &&
          same(plain.stdout, box.stdout) &&
          same(plain.stderr, box.stderr);
        if (!agrees) divergences.push({ session: session.name, command, plain, boxed: box });
      }
    }
    const passed = total - divergences.length;
    const report = divergences.map((d) => JSON.stringify(d, null, 2)).join('\n');
    console.log(`everyday sessions: ${passed}/${total} commands the same (${((100 * passed) / total).toFixed(1)}%)`);
    console.log(`the checkpoint guard spoke after ${stepNotes.length} of them:\n${stepNotes.join('\n')}`);
    expect(
      divergences.map((d) => d.command),
      report,
    ).toEqual(KNOWN_DIFFERENCES);
    expect(passed / total).toBeGreaterThanOrEqual(0.98);
  });
});
