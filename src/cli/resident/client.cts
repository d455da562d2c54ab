/**
 * `hookwise claude-code` as bin/hookwise.js starts it, on every tool call. When a
 * resident hookwise serves this call's identity (./address.cts), it answers: this
 * process only forwards stdin and writes back the answer, so a call costs little
 * more than Node's own start-up. Else this process answers itself, as it always did
 * (../commands/claude-code.ts), then starts a resident for the next call.
 * docs/claude-code.md#the-resident.
 *
 * CommonJS (`.cts`), and nothing of hookwise's ES modules is loaded on the way to a
 * resident: ES-module loading would cost more than the rest of the call.
 */
import fs = require('node:fs');
import net = require('node:net');
import path = require('node:path');
import { readStdin } from '../read-stdin.cjs';
import {
  identityOf,
  RECURSION_GUARD,
  RESIDENT_ENV,
  RESIDENT_FLAG,
  type ResidentReply,
  type ResidentRequest,
  residentDir,
  socketPath,
  untrusted,
} from './address.cjs';

/** Set by hookwise for the command hooks it runs (src/handlers/containment.ts), which kills what they leave running. */
const HOOK_ID_ENV = 'HOOKWISE_HOOK_ID';
const BIN = path.resolve(__dirname, '..', '..', '..', 'bin', 'hookwise.js');
/** A start younger than this is still under way: no second resident is started meanwhile. */
const STARTING_MS = 10_000;

/** Resolves with the exit code; the process ends once the answer is written. */
export async function runClaudeCodeCommand(args: string[]): Promise<number> {
  if (args.includes(RESIDENT_FLAG)) {
    const { runResident } = await import('./server.js');
    return runResident(args.filter((a) => a !== RESIDENT_FLAG));
  }
  const where = residentFor(args);
  if (!where) return inProcess(args);
  // As it is now: the config and hooks that run in this process may change process.env.
  const env = { ...process.env };
  const start = () => startResident(where, args, env);
  const input = await readStdin();
  const reply = await ask(where.socket, { op: 'hook', identity: where.identity, input });
  if (reply === 'absent') return inProcess(args, input, start);
  if (reply === 'lost') return failClosed(args, input, 'the resident hookwise ended before it answered');
  if (reply.kind === 'answer') {
    if (reply.stdout) fs.writeSync(1, reply.stdout);
    if (reply.stderr) fs.writeSync(2, reply.stderr);
    return reply.code;
  }
  // Declined: nothing ran there. A stale resident (its config changed) is on its way out; the next call gets a new one.
  const restart = reply.kind === 'decline' && reply.why !== 'identity';
  return inProcess(args, input, restart ? start : undefined);
}

interface Where {
  dir: string;
  socket: string;
  identity: string;
}

/**
 * The resident for this call, unless residents are off or cannot be trusted here. Run
 * as a command hook of hookwise itself (its runtime, `hookwise fire`), there is none:
 * that hook's containment ends whatever it leaves running, a resident included.
 */
function residentFor(args: string[]): Where | undefined {
  if (args.includes('--no-resident') || process.env[RESIDENT_ENV] === '0' || process.env[RECURSION_GUARD]) return undefined;
  if (process.env[HOOK_ID_ENV]) return undefined;
  if (process.platform === 'win32' || !process.getuid) return undefined;
  const dir = residentDir();
  const identity = identityOf(args, process.env, process.cwd());
  const socket = socketPath(dir, identity);
  if (!socket) return undefined;
  const why = untrusted(dir);
  if (why && fs.existsSync(dir)) {
    process.stderr.write(`hookwise: not using a resident: ${why}\n`);
    return undefined;
  }
  return { dir, socket, identity };
}

/**
 * One request, one reply. `absent`: nobody listens (nothing was sent). `lost`: the
 * resident took the request (it acknowledges with `+` before running anything) and
 * ended without answering. A connection dropped before the acknowledgement ran
 * nothing, so it counts as absent.
 */
export function ask(socket: string, request: ResidentRequest): Promise<ResidentReply | 'absent' | 'lost'> {
  return new Promise((resolve) => {
    const connection = net.createConnection(socket);
    let text = '';
    connection.setEncoding('utf8');
    connection.on('connect', () => connection.write(`${JSON.stringify(request)}\n`));
    connection.on('data', (chunk: string) => {
      text += chunk;
    });
    connection.on('error', () => {});
    connection.on('close', () => {
      const accepted = text.startsWith('+');
      const line = accepted ? text.slice(1) : text;
      try {
        resolve(JSON.parse(line) as ResidentReply);
      } catch {
        resolve(accepted ? 'lost' : 'absent');
      }
    });
  });
}

async function inProcess(args: string[], input?: string, afterAnswer?: () => void): Promise<number> {
  const { runClaudeCode } = await import('../commands/claude-code.js');
  return runClaudeCode(args, { ...(input !== undefined && { input }), ...(afterAnswer && { afterAnswer }) });
}

/** The resident took the call and died with it: the failure answer, as any failure of hookwise's own. */
async function failClosed(args: string[], input: string, reason: string): Promise<number> {
  const { claudeCodeFailure, parseClaudeCodeArgs } = await import('../commands/claude-code.js');
  let event: string | undefined;
  try {
    const name = (JSON.parse(input) as { hook_event_name?: unknown }).hook_event_name;
    if (typeof name === 'string') event = name;
  } catch {}
  const failOpen = process.argv.includes('--fail-open') || process.env.HOOKWISE_FAIL_OPEN === '1';
  const answer = claudeCodeFailure(event, reason, failOpen, parseClaudeCodeArgs(args).agent);
  if (answer.stdout) fs.writeSync(1, answer.stdout);
  fs.writeSync(2, `${answer.stderr}\n`);
  return answer.code;
}

/**
 * Start a resident for this identity, detached, with this process's environment and
 * folder (the same identity), its output to `<socket>.log`. A resident only makes
 * calls faster: when one cannot be started, nothing about the answer changes.
 */
function startResident({ dir, socket }: Where, args: string[], env: NodeJS.ProcessEnv): void {
  const base = socket.slice(0, -'.sock'.length);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (untrusted(dir)) return;
    if (startedRecently(`${base}.starting`)) return;
    fs.writeFileSync(`${base}.starting`, String(process.pid), { flag: 'wx', mode: 0o600 });
    const log = fs.openSync(`${base}.log`, 'w', 0o600);
    const { spawn } = require('node:child_process') as typeof import('node:child_process');
    const child = spawn(process.execPath, [BIN, 'claude-code', RESIDENT_FLAG, ...args], {
      detached: true,
      stdio: ['ignore', log, log],
      env,
      cwd: process.cwd(),
    });
    child.on('error', () => {});
    child.unref();
    fs.closeSync(log);
  } catch {}
}

function startedRecently(marker: string): boolean {
  try {
    if (Date.now() - fs.statSync(marker).mtimeMs < STARTING_MS) return true;
    fs.unlinkSync(marker);
  } catch {}
  return false;
}
