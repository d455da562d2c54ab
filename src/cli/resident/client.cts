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
import path = require('node:path');
import { readStdin } from '../read-stdin.cjs';
import {
  identityOf,
  sessionOf,
  RECURSION_GUARD,
  RESIDENT_ENV,
  RESIDENT_FLAG,
  type ResidentReply,
  type ResidentRequest,
  residentDir,
  socketPath,
  untrusted,
} from './address.cjs';
import { keyFileOf, nextKeyFileOf, readKey, sameKey, writeKey } from './key.cjs';
import { connectUnix } from './unix-connection.cjs';

/** Set by hookwise for the command hooks it runs (src/handlers/containment.ts), which kills what they leave running. */
const HOOK_ID_ENV = 'HOOKWISE_HOOK_ID';
const BIN = path.resolve(__dirname, '..', '..', '..', 'bin', 'hookwise.js');
/** A start younger than this is still under way: no second resident is started meanwhile. */
const STARTING_MS = 10_000;

/** How long a resident may stay silent (no key, no acknowledgement, no heartbeat) before the caller stops waiting. */
export const RESIDENT_TIMEOUT_ENV = 'HOOKWISE_RESIDENT_TIMEOUT_MS';
export const RESIDENT_TIMEOUT_FLAG = '--resident-timeout';
const DEFAULT_RESIDENT_TIMEOUT_MS = 5000;

/** Resolves with the exit code; the process ends once the answer is written. */
export async function runClaudeCodeCommand(args: string[]): Promise<number> {
  if (args.includes(RESIDENT_FLAG)) {
    const { runResident } = await import('./server.js');
    return runResident(args.filter((a) => a !== RESIDENT_FLAG));
  }
  // Claude Code's in-process mod starts its own resident, over HTTP (./mod-server.ts).
  if (args.includes('--mod-serve')) {
    const { runModResident } = await import('./mod-server.js');
    return runModResident(args.filter((a) => a !== '--mod-serve'));
  }
  const where = residentFor(args);
  if (!where) return inProcess(args);
  // As it is now: the config and hooks that run in this process may change process.env.
  const env = { ...process.env };
  const start = () => startResident(where, args, env);
  let timeoutMs: number;
  try {
    timeoutMs = residentTimeoutOf(args);
  } catch (error) {
    return failClosed(args, await readStdin(), (error as Error).message);
  }
  const socketIno = inodeOf(where.socket);
  // Connected while this process reads stdin: the resident's key is on its way meanwhile.
  const pending = connect(where.socket, timeoutMs);
  let input: string;
  try {
    input = await readStdin();
  } catch (error) {
    pending.cancel();
    throw error;
  }
  const reply = await pending.ask({ op: 'hook', identity: where.identity, session: sessionOf(process.env), input });
  if (reply === 'absent') return inProcess(args, input, start);
  if (typeof reply === 'object' && 'unanswered' in reply) {
    // Nothing ran there, and this call's input never left this process: answer it here. The
    // socket goes (unless it was replaced meanwhile), so that the next call gets a resident that can prove itself.
    process.stderr.write(`hookwise: not using the resident at ${where.socket}: ${reply.unanswered}; answered in this process\n`);
    if (socketIno !== undefined && inodeOf(where.socket) === socketIno) fs.rmSync(where.socket, { force: true });
    return inProcess(args, input, start);
  }
  if (typeof reply === 'object' && 'failed' in reply) return failClosed(args, input, reply.failed);
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

/** `--resident-timeout <ms>` (or `=ms`), else HOOKWISE_RESIDENT_TIMEOUT_MS, else 5 s. */
function residentTimeoutOf(args: string[]): number {
  let value = process.env[RESIDENT_TIMEOUT_ENV];
  let name = RESIDENT_TIMEOUT_ENV;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === RESIDENT_TIMEOUT_FLAG) value = args[++i];
    else if (arg.startsWith(`${RESIDENT_TIMEOUT_FLAG}=`)) value = arg.slice(RESIDENT_TIMEOUT_FLAG.length + 1);
    else continue;
    name = RESIDENT_TIMEOUT_FLAG;
  }
  if (value === undefined || value === '') return DEFAULT_RESIDENT_TIMEOUT_MS;
  const ms = Number(value);
  // plain Error: this CommonJS fast path loads no ES module (HookwiseError is one); bin/hookwise.js fails closed with the message
  if (!Number.isInteger(ms) || ms <= 0) throw new Error(`${name}: expected a positive whole number of milliseconds, got "${value}"`);
  return ms;
}

function inodeOf(file: string): number | undefined {
  try {
    return fs.lstatSync(file).ino;
  } catch {
    return undefined;
  }
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
 * What became of a request:
 * - a reply: the resident's answer to this request;
 * - `absent`: nobody listens (nothing was sent);
 * - `{ unanswered }`: the listener did not show the resident's key (./key.cts), or did
 *   not show it or take the request within `timeoutMs`: nothing ran there, and nothing
 *   was sent to it before the key (not the request, not the environment);
 * - `lost`: the resident took the request (it acknowledges with `+` before running
 *   anything) and ended without answering;
 * - `{ failed }`: it took the request and then went silent for `timeoutMs` (stopped,
 *   or its main thread stuck), or its reply is not JSON.
 * A connection dropped before the acknowledgement ran nothing, so it counts as absent.
 */
export type Asked = ResidentReply | 'absent' | 'lost' | { unanswered: string } | { failed: string };

export function ask(socket: string, request: ResidentRequest, timeoutMs = DEFAULT_RESIDENT_TIMEOUT_MS): Promise<Asked> {
  return connect(socket, timeoutMs).ask(request);
}

/** A connection being made; `ask` sends the request once the resident has shown its key. */
interface Pending {
  ask(request: ResidentRequest): Promise<Asked>;
  /** Nothing will be asked: the connection goes. */
  cancel(): void;
}

/**
 * Connects at once; the request waits for ask() and for the key, whichever comes last.
 * The silence timeout counts from ask(): what this process does in between (reading
 * stdin) is not the resident's silence.
 */
function connect(socket: string, timeoutMs: number): Pending {
  let text = '';
  let closed = false;
  /** Set by ask(): called on every chunk (`heard`: the resident said something) and on close. */
  let wake: ((heard: boolean) => void) | undefined;
  const connection = connectUnix(socket, {
    data: (chunk) => {
      text += chunk;
      wake?.(true);
    },
    closed: () => {
      closed = true;
      wake?.(false);
    },
  });
  return {
    cancel: () => connection.destroy(),
    ask: (request) =>
      new Promise((resolve) => {
        // The heartbeat interval the resident is asked for: several beats fit in one silence.
        const line = JSON.stringify({ ...request, every: Math.max(20, Math.floor(timeoutMs / 4)) });
        let stage: 'key' | 'sent' | 'reply' = 'key';
        let taken = false;
        let settled = false;
        const end = (result: Asked) => {
          if (settled) return;
          settled = true;
          clearTimeout(silence);
          connection.destroy();
          resolve(result);
        };
        const silent = () => {
          if (stage === 'key') return end({ unanswered: `it did not prove itself within ${timeoutMs} ms` });
          if (!taken) return end({ unanswered: `it did not take the call within ${timeoutMs} ms` });
          end({ failed: `the resident hookwise gave no sign of life for ${timeoutMs} ms after it took the call` });
        };
        let silence = setTimeout(silent, timeoutMs);
        const progress = (heard: boolean) => {
          if (settled) return;
          if (heard) {
            clearTimeout(silence);
            silence = setTimeout(silent, timeoutMs);
          }
          if (stage === 'key') {
            const newline = text.indexOf('\n');
            if (newline >= 0) {
              // Read now, not before: a resident makes its key the socket's before it accepts anyone.
              const found = readKey(keyFileOf(socket));
              if (!('key' in found)) return end({ unanswered: `its key cannot be used: ${found.why}` });
              if (!sameKey(found.key, text.slice(0, newline)))
                return end({ unanswered: 'it did not prove that it holds the resident key' });
              text = text.slice(newline + 1);
              stage = 'sent';
              connection.write(`${line}\n`);
            }
          }
          // Heartbeats ('.') and the acknowledgement ('+') come before the reply.
          let i = 0;
          while (stage === 'sent' && i < text.length && (text[i] === '.' || text[i] === '+')) {
            if (text[i] === '+') taken = true;
            i++;
          }
          text = text.slice(i);
          if (stage === 'sent' && text.length > 0) stage = 'reply';
          // The reply is whole once its line is: no need to wait for the resident to close.
          if (closed || (stage === 'reply' && text.includes('\n'))) finish();
        };
        const finish = () => {
          if (stage !== 'reply') return end(taken ? 'lost' : 'absent');
          const newline = text.indexOf('\n');
          try {
            end(JSON.parse(newline >= 0 ? text.slice(0, newline) : text) as ResidentReply);
          } catch {
            end(taken ? { failed: "the resident's reply is not JSON" } : { unanswered: "the resident's reply is not JSON" });
          }
        };
        wake = progress;
        // What came before ask() (the key, often) is read now; the silence counts from here.
        progress(false);
      }),
  };
}

async function inProcess(args: string[], input?: string, afterAnswer?: () => void): Promise<number> {
  const { runClaudeCode } = await import('../commands/claude-code.js');
  return runClaudeCode(args, { ...(input !== undefined && { input }), ...(afterAnswer && { afterAnswer }) });
}

/** The resident took the call and died with it: the failure answer, as any failure of hookwise's own. */
async function failClosed(args: string[], input: string, reason: string): Promise<number> {
  const { failureAnswer, parseHookCallArgs } = await import('../hook-call/index.js');
  let event: string | undefined;
  try {
    const name = (JSON.parse(input) as { hook_event_name?: unknown }).hook_event_name;
    if (typeof name === 'string') event = name;
  } catch {}
  const failOpen = process.argv.includes('--fail-open') || process.env.HOOKWISE_FAIL_OPEN === '1';
  const answer = failureAnswer(event, reason, failOpen, parseHookCallArgs(args).agent);
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
    // The key the resident shows its callers; it takes it as it starts (./key.cts).
    writeKey(nextKeyFileOf(socket));
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
