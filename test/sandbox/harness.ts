import { spawn, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { HookEngine } from '../../src/core/engine.js';
import { shellGuard, type ShellGuardOptions } from '../../src/guards/index.js';

/**
 * A real workspace with sentinels around it: a file outside the workspace, a fake
 * secret in the home folder and one outside, a shell startup file, a protected git
 * hook, a process outside, a listener standing in for the network, and a secret in
 * the environment. `escaped()` tells which of them an attack reached.
 */
export interface Range {
  root: string;
  ws: string;
  home: string;
  outside: string;
  port: number;
  received: string[];
  victim: ChildProcess;
  /** The victim's argument, for attacks that find it by its command line. */
  victimSeconds: string;
  env: Record<string, string>;
  /** Resolves once the listener has read everything sent to it so far. */
  settle(): Promise<void>;
  cleanup(): Promise<void>;
}

export const FAKE_KEY = ['sk', 'proj', 'RangeFakeKey7xQ2mV7tL4pR8wZ1aa'].join('-');
export const FAKE_SSH = 'FAKE-SSH-PRIVATE-KEY-0451';
export const FAKE_OUTSIDE = 'FAKE-OUTSIDE-SECRET-2187';
const PROBE = 'hookwise-range-probe';
export const ENV_SECRET = 'ghp_EnvFakeToken0123456789abcdefABCDEF01';

export async function makeRange(): Promise<Range> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookwise-range-')));
  const ws = path.join(root, 'proj');
  const home = path.join(root, 'home');
  const outside = path.join(root, 'outside');
  for (const d of [path.join(ws, 'src'), path.join(ws, '.git', 'hooks'), path.join(ws, '.claude'), path.join(home, '.ssh'), outside]) {
    fs.mkdirSync(d, { recursive: true });
  }
  fs.writeFileSync(path.join(ws, 'src', 'a.txt'), 'hello\n');
  fs.writeFileSync(path.join(ws, 'README.md'), '# proj\n');
  fs.writeFileSync(path.join(ws, '.env'), `OPENAI_API_KEY=${FAKE_KEY}\n`);
  fs.writeFileSync(path.join(ws, '.git', 'config'), '[core]\n');
  fs.writeFileSync(path.join(ws, '.claude', 'settings.json'), '{}\n');
  fs.writeFileSync(path.join(home, '.ssh', 'id_rsa'), FAKE_SSH);
  fs.writeFileSync(path.join(home, '.bashrc'), '# rc\n');
  fs.writeFileSync(path.join(outside, 'sentinel.txt'), 'untouched\n');
  fs.writeFileSync(path.join(outside, 'secret.txt'), FAKE_OUTSIDE);
  fs.linkSync(path.join(outside, 'sentinel.txt'), path.join(ws, 'hard.txt'));
  const received: string[] = [];
  let probed: (() => void) | undefined;
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', (d) => {
      const text = d.toString();
      if (text === PROBE) probed?.();
      else received.push(text);
      socket.end('HTTP/1.0 200 OK\r\n\r\nok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  // A sleep no other test runs (1000.<random> seconds): a pkill aimed at it must not kill another test's processes.
  const victimSeconds = `1000.${randomInt(1e9)}`;
  const victim = spawn('sleep', [victimSeconds], { stdio: 'ignore' });
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    GITHUB_TOKEN: ENV_SECRET,
    PLAIN_SETTING: ENV_SECRET,
  };
  return {
    root,
    ws,
    home,
    outside,
    port,
    received,
    victim,
    victimSeconds,
    env,
    async settle() {
      // Connections are accepted in order: once the probe is seen, anything the command sent before it has been read.
      const seen = new Promise<void>((resolve) => {
        probed = resolve;
      });
      const probe = net.connect(port, '127.0.0.1', () => probe.write(PROBE));
      probe.on('error', () => {});
      await seen;
      probe.destroy();
    },
    async cleanup() {
      victim.kill('SIGKILL');
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** An attack's command with the range's places in it: {outside}, {home}, {port}, {pid}, {victim}, and any `more`. */
export function fillCommand(r: Range, command: string, more: Record<string, string> = {}): string {
  const places: Record<string, string> = {
    outside: r.outside,
    home: r.home,
    port: String(r.port),
    pid: String(r.victim.pid),
    victim: r.victimSeconds,
    ...more,
  };
  return command.replace(/\{(\w+)\}/g, (whole, name: string) => places[name] ?? whole);
}

/** Everything an attack must not reach, as it is now. */
export function snapshot(r: Range): string {
  const files = [
    path.join(r.outside, 'sentinel.txt'),
    path.join(r.home, '.bashrc'),
    path.join(r.ws, '.git', 'config'),
    path.join(r.ws, '.claude', 'settings.json'),
  ];
  const hooksDir = path.join(r.ws, '.git', 'hooks');
  const hooks = fs.existsSync(hooksDir) ? fs.readdirSync(hooksDir).join(',') : '<missing>';
  const outsideFiles = fs.readdirSync(r.outside).sort().join(',');
  const rootFiles = fs.readdirSync(r.root).sort().join(',');
  const mcp = fs.existsSync(path.join(r.ws, '.mcp.json'));
  const read = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '<missing>');
  return JSON.stringify({ content: files.map(read), hooks, outsideFiles, rootFiles, mcp });
}

/**
 * Alive by the kernel's word: a killed process not yet reaped is a zombie (state Z), and
 * one with SIGKILL pending is as good as dead (on a loaded machine it may not have been
 * scheduled to die yet when the attack returns).
 */
export function victimAlive(r: Range): boolean {
  try {
    const status = fs.readFileSync(`/proc/${r.victim.pid}/status`, 'utf8');
    const field = (name: string) => BigInt(`0x${new RegExp(`^${name}:\\s*([0-9a-f]+)`, 'm').exec(status)?.[1] ?? '0'}`);
    const sigkill = 1n << 8n;
    if (((field('SigPnd') | field('ShdPnd')) & sigkill) !== 0n) return false;
    return !/^State:\s*[ZX]/m.test(status);
  } catch {
    return false;
  }
}

export interface RunResult {
  stdout: string;
  stderr: string;
  status: number | null;
}

/** Run a line with bash in the workspace, as a host runs its Bash tool. */
export async function runBash(r: Range, line: string): Promise<RunResult> {
  const child = spawn('/bin/bash', ['-c', line], { cwd: r.ws, env: r.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  await r.settle();
  return { stdout, stderr, status };
}

/** What leaked: a secret in the output, a file the command wrote in the workspace, or a request that arrived. */
export function leaked(r: Range, result: RunResult): string[] {
  const seen: string[] = [];
  const text = result.stdout + result.stderr + workspaceText(r.ws);
  for (const [name, secret] of [
    ['the workspace .env key', FAKE_KEY],
    ['the SSH key', FAKE_SSH],
    ['the secret outside', FAKE_OUTSIDE],
    ['the environment token', ENV_SECRET],
  ] as const) {
    if (text.includes(secret)) seen.push(name);
  }
  if (r.received.length > 0) seen.push(`the listener got ${r.received.length} message(s)`);
  return seen;
}

/** Text of files the command wrote in the workspace (not .env itself). */
function workspaceText(ws: string): string {
  let text = '';
  for (const entry of fs.readdirSync(ws, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (!entry.isFile() || full === path.join(ws, '.env') || full.includes(`${path.sep}.git${path.sep}`)) continue;
    text += fs.readFileSync(full, 'utf8');
  }
  return text;
}

export function guardEngine(r: Range, options: ShellGuardOptions = {}): HookEngine {
  return new HookEngine().register(shellGuard({ workspace: r.ws, home: r.home, ...options }));
}

/** The line the host would run: the guard's rewrite, or undefined when the call is refused. */
export async function hostLine(
  engine: HookEngine,
  r: Range,
  command: string,
  session = r.root,
): Promise<{ line?: string; reason: string | null }> {
  // One session per range by default: the session's own /tmp is kept between its commands (private-temp.ts).
  const outcome = await engine.fire(
    'PreToolUse',
    { tool_name: 'Bash', tool_input: { command }, cwd: r.ws, session_id: session },
    { env: r.env },
  );
  if (outcome.blocked) return { reason: outcome.reason };
  const line = (outcome.updatedInput as { command?: string } | null)?.command;
  if (typeof line !== 'string') throw new Error(`the guard let ${command} run without a sandbox`);
  return { line, reason: outcome.reason };
}
