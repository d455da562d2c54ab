import fs from 'node:fs';
import net from 'node:net';
import type { HookEngine } from '../../core/engine.js';
import type { Host } from '../../hosts/host.js';
import { hostNamed } from '../../hosts/index.js';
import {
  answerCall,
  auditTo,
  type CallEngine,
  configFiles,
  loadFor,
  loadTimeoutOf,
  stallTimeoutOf,
  noConfig,
  parseHookCallArgs,
  type HookCallFlags,
} from '../hook-call/index.js';
import { millis, oneLine, within } from '../envelope.js';
import { parseInputObject } from '../stdin.js';
import { killHookProcesses } from '../hook-processes.js';
import { startWatchdog, type Watchdog } from '../watchdog.js';
import { followHookTimeouts, type HookDeadlines, stallReason } from '../hook-deadline.js';
import { identityOf, RECURSION_GUARD, residentDir, type ResidentReply, type ResidentRequest, socketPath, untrusted } from './address.cjs';
import { keyFileOf, nextKeyFileOf, readKey } from './key.cjs';
import { LoadedFiles } from './track.js';
import { warmUp } from './warm.js';
import { SessionEnv, sessionValues } from './session-env.js';
import { listenOnSocket } from '../../sandbox/unix-socket.js';
import { keepWasmOnBaseline } from '../wasm-baseline.js';
import { AbortedError } from '../../core/errors.js';

/**
 * The resident hookwise (docs/claude-code.md#the-resident): one process per identity
 * (./address.cts) that answers `hookwise claude-code` calls over a Unix socket, with
 * the config loaded once. Every call is answered exactly as the process itself would
 * answer it (the same functions of src/cli/hook-call, as ../commands/claude-code.ts); what differs is only
 * what a process cannot keep: the loaded config, the bash parser, the audit file.
 *
 * It serves one config. When a file the config was loaded from changes, or the call
 * names other config files, it declines (the caller answers itself, nothing ran here)
 * and goes; the next call starts a fresh one. It also goes after an idle time, at the
 * end of the Claude Code session it serves, on SIGTERM, and on `hookwise residents --stop` (this project's) or `--stop --all`.
 * A failure it cannot pin on one call (a stuck hook, an uncaught error) ends it at
 * once: callers it had taken answer with the failure answer (client.cts).
 */
const IDLE_ENV = 'HOOKWISE_RESIDENT_IDLE_MS';
const DEFAULT_IDLE_MS = 10 * 60_000;
/** How often the resident checks that it is idle or that its socket is still its own. */
const CHECK_MS = 30_000;
const MAX_REQUEST_CHARS = 512 * 1024 * 1024;

interface Loaded {
  engine: HookEngine;
  audit: { flushSync(): void; closeSync(): void } | undefined;
}

const log = (line: string) => process.stderr.write(`${new Date().toISOString()} hookwise resident ${process.pid}: ${line}\n`);

/** Runs until the resident goes; resolves with the exit code. */
export async function runResident(args: string[]): Promise<number> {
  keepWasmOnBaseline();
  const identity = identityOf(args, process.env, process.cwd());
  const dir = residentDir();
  const socket = socketPath(dir, identity);
  const why = untrusted(dir) ?? (socket ? undefined : 'the socket path would be too long');
  const flags = parseHookCallArgs(args);
  if (why || !socket || flags.badArgument !== undefined) {
    log(`not starting: ${why ?? `unknown argument ${flags.badArgument}`}`);
    return 1;
  }
  // The key its launcher wrote for it, taken as this process's own (./key.cts): without it no caller would believe it.
  const mine = `${keyFileOf(socket)}.${process.pid}`;
  try {
    fs.renameSync(nextKeyFileOf(socket), mine);
  } catch {
    log(`not starting: no key left for it at ${nextKeyFileOf(socket)}`);
    return 1;
  }
  const found = readKey(mine);
  if (!('key' in found)) {
    fs.rmSync(mine, { force: true });
    log(`not starting: ${found.why}`);
    return 1;
  }
  return new Resident(identity, flags, socket, found.key, mine).run();
}

class Resident {
  private readonly files = new LoadedFiles();
  private readonly session = new SessionEnv();
  private readonly server = net.createServer({ allowHalfOpen: true }, (c) => this.connection(c));
  private readonly startedAt = new Date().toISOString();
  private readonly failOpen: boolean;
  private readonly loadTimeoutMs: number;
  private readonly idleMs: number;
  private readonly host: Host;
  /** The config this resident serves (the first call's), and its load; no load when there is no config. */
  private served: { key: string; loaded?: Promise<Loaded> } | undefined;
  private inFlight = 0;
  private answered = 0;
  private lastCall = Date.now();
  private socketIno: number | undefined;
  private closing: Promise<void> | undefined;
  private watchdog!: Watchdog;
  /** The hooks running now and their timeouts, which the watchdog enforces (../hook-deadline.ts). */
  private deadlines: HookDeadlines | undefined;
  private done!: (code: number) => void;

  constructor(
    private readonly identity: string,
    private readonly flags: HookCallFlags,
    private readonly socket: string,
    private readonly key: string,
    /** The key file it took from its launcher, until it serves. */
    private readonly keyFile: string,
  ) {
    this.failOpen = flags.failOpen === true || process.env.HOOKWISE_FAIL_OPEN === '1';
    this.loadTimeoutMs = loadTimeoutOf(flags);
    this.idleMs = millis(process.env[IDLE_ENV], IDLE_ENV, DEFAULT_IDLE_MS);
    this.host = hostNamed(flags.agent);
  }

  async run(): Promise<number> {
    const finished = new Promise<number>((resolve) => {
      this.done = resolve;
    });
    this.guard();
    this.files.install();
    const listening = await this.listen();
    // Serving: its key becomes the socket's; a resident that lost the socket leaves the serving one's key alone.
    if (listening) fs.renameSync(this.keyFile, keyFileOf(this.socket));
    else fs.rmSync(this.keyFile, { force: true });
    if (!listening) return 0;
    process.env[RECURSION_GUARD] = '1';
    fs.rmSync(this.socket.replace(/\.sock$/, '.starting'), { force: true });
    log(`serving ${this.socket} for ${process.cwd()}`);
    this.preload();
    const check = setInterval(() => this.check(), Math.min(CHECK_MS, this.idleMs));
    check.unref();
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => void this.shutdown(signal));
    const code = await finished;
    clearInterval(check);
    return code;
  }

  /** What ends the process at once: callers it took then fail closed (client.cts), none is answered wrongly. */
  private guard(): void {
    const reallyExit = (process as unknown as { reallyExit: (code: number) => never }).reallyExit.bind(process);
    const fatal = (reason: string) => {
      log(`${reason}; ending (calls in flight answer with the failure answer)`);
      killHookProcesses();
      reallyExit(70);
    };
    const stallMs = stallTimeoutOf(this.flags);
    this.watchdog = startWatchdog(stallMs, (ms) => fatal(stallReason(ms, this.deadlines, stallMs)));
    process.on('uncaughtException', (error) => fatal(`uncaught error: ${oneLine(String(error?.stack ?? error))}`));
    process.on('unhandledRejection', (reason) => fatal(`unhandled promise rejection: ${oneLine(String(reason))}`));
  }

  /** Listen on the socket; false when another resident already serves it. */
  private async listen(): Promise<boolean> {
    try {
      await listenOnSocket(this.server, this.socket);
    } catch (error) {
      log(`not serving: ${(error as Error).message}`);
      return false;
    }
    this.socketIno = fs.statSync(this.socket).ino;
    return true;
  }

  /** Claude Code names the project: load its config now, so that the first call finds it ready. */
  private preload(): void {
    const projectDir = process.env.CLAUDE_PROJECT_DIR;
    if (!projectDir) return;
    void configFiles(this.flags.config, projectDir)
      .then((files) => {
        if (files.length > 0 && !this.served) this.serve(files, projectDir);
      })
      .catch(() => {});
  }

  private serve(files: string[], projectDir: string): Promise<Loaded> {
    const loaded = this.load(files, projectDir);
    // A failed load is every call's failure answer, each in its turn; not an unhandled rejection.
    loaded.catch(() => {});
    this.served = { key: keyOf(files, projectDir), loaded };
    return loaded;
  }

  private async load(files: string[], projectDir: string): Promise<Loaded> {
    this.files.add(files);
    const engine = await this.files.during(() => loadFor(files, projectDir));
    this.deadlines = followHookTimeouts(engine, this.watchdog);
    const audit = await auditTo(engine, projectDir);
    // What the first call would load and try: now, not in a call someone waits for.
    void warmUp();
    return { engine, audit };
  }

  /**
   * One call: the key first (./key.cts), then one request answered with one reply line.
   * While the request runs, a heartbeat (`.`) at the interval the caller asked for tells
   * it this resident is alive: a stopped (SIGSTOP) or stuck resident goes silent, and
   * the caller stops waiting.
   */
  private connection(c: net.Socket): void {
    let text = '';
    c.setEncoding('utf8');
    c.on('error', () => {});
    c.write(`${this.key}\n`);
    const onData = (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end >= 0) {
        c.off('data', onData);
        return void this.request(c, text.slice(0, end));
      }
      if (text.length >= MAX_REQUEST_CHARS) c.destroy();
    };
    c.on('data', onData);
  }

  private async request(c: net.Socket, line: string): Promise<void> {
    let request: ResidentRequest & { every?: unknown };
    try {
      request = JSON.parse(line) as ResidentRequest & { every?: unknown };
    } catch {
      return void c.destroy();
    }
    if (typeof request !== 'object' || request === null) return void c.destroy();
    const heartbeat = setInterval(() => c.writable && c.write('.'), heartbeatOf(request.every));
    c.once('close', () => clearInterval(heartbeat));
    const reply = (r: ResidentReply): void => {
      clearInterval(heartbeat);
      c.end(`${JSON.stringify(r)}\n`);
    };
    if (request.op === 'status') return reply(this.status());
    if (request.op === 'stop') {
      reply({ kind: 'stopping' });
      return void this.shutdown('asked to stop');
    }
    if (request.op !== 'hook') {
      clearInterval(heartbeat);
      return void c.destroy();
    }
    if (request.identity !== this.identity) return reply({ kind: 'decline', why: 'identity' });
    if (this.closing) return reply({ kind: 'decline', why: 'closing' });
    const session = sessionValues(request.session);
    if (session === undefined) return reply({ kind: 'decline', why: 'identity' });
    // Another session's call runs: process.env holds its values (./session-env.ts).
    if (!this.session.enter(session)) return reply({ kind: 'decline', why: 'identity' });
    this.inFlight++;
    this.lastCall = Date.now();
    try {
      // A caller that goes (Claude Code's own hook timeout killed it) takes its hooks with it, as a process would.
      const gone = new AbortController();
      const abandon = () => gone.abort(new AbortedError('the caller went away before the answer'));
      c.once('end', abandon).once('close', abandon);
      const answer = await answerCall({
        host: this.host,
        raw: () => parseInputObject(request.input),
        failOpen: this.failOpen,
        signal: gone.signal,
        engineFor: (projectDir) => this.engineFor(projectDir, () => c.write('+')),
      });
      c.off('end', abandon).off('close', abandon);
      if ('stale' in answer) return reply({ kind: 'decline', why: 'stale' });
      reply({
        kind: 'answer',
        ...(answer.stdout && { stdout: answer.stdout }),
        ...(answer.stderr && { stderr: `${answer.stderr}\n` }),
        code: answer.code,
      });
      if (!gone.signal.aborted) this.answered++;
    } finally {
      this.session.leave();
      this.files.afterCall();
      this.inFlight--;
      this.lastCall = Date.now();
      if (this.inFlight === 0) this.idle?.();
    }
  }

  /**
   * The engine of the config this resident serves; `stale` when the call's config is
   * another, or one of its files changed (the caller answers itself: nothing ran here).
   * `take` marks the call taken, before anything runs: from then on this resident's end
   * is the caller's failure answer, never a second run.
   */
  private async engineFor(projectDir: string, take: () => void): Promise<CallEngine> {
    const files = await configFiles(this.flags.config, projectDir);
    const key = keyOf(files, projectDir);
    const changed = this.files.changed();
    if ((this.served && this.served.key !== key) || changed) {
      void this.shutdown(changed ? `${changed} changed` : `the call names another config (${files.join(', ') || 'none'})`);
      return 'stale';
    }
    take();
    if (files.length === 0) {
      this.served ??= { key };
      return { none: noConfig(projectDir) };
    }
    const { engine, audit } = await within(this.loadTimeoutMs, 'loading the config', this.served?.loaded ?? this.serve(files, projectDir));
    // The record is written before the answer: an answer that cannot be recorded is a failure.
    return { engine, recorded: () => audit?.flushSync() };
  }

  private status(): ResidentReply {
    return {
      kind: 'status',
      pid: process.pid,
      cwd: process.cwd(),
      args: process.argv.slice(3),
      startedAt: this.startedAt,
      answered: this.answered,
      config: this.files.files,
    };
  }

  private idle: (() => void) | undefined;

  private check(): void {
    if (this.inFlight === 0 && Date.now() - this.lastCall >= this.idleMs) return void this.shutdown(`idle for ${this.idleMs} ms`);
    let ino: number | undefined;
    try {
      ino = fs.statSync(this.socket).ino;
    } catch {}
    if (ino !== this.socketIno) void this.shutdown('its socket was removed or replaced');
  }

  /** Take no new call, finish the ones taken, let async hooks finish, flush the audit, end. */
  private shutdown(why: string): Promise<void> {
    this.closing ??= (async () => {
      log(`going: ${why}`);
      if (this.ownsSocket()) fs.rmSync(this.socket, { force: true });
      // Its key goes with it, unless a launcher has already written the next resident's.
      const left = readKey(keyFileOf(this.socket));
      if ('key' in left && left.key === this.key) fs.rmSync(keyFileOf(this.socket), { force: true });
      await new Promise<void>((resolve) => this.server.close(() => resolve()));
      if (this.inFlight > 0) await new Promise<void>((resolve) => (this.idle = resolve));
      const loaded = await this.served?.loaded?.catch(() => undefined);
      if (loaded) {
        await loaded.engine.drain();
        loaded.audit?.closeSync();
      }
      log('gone');
      this.done(0);
    })();
    return this.closing;
  }

  private ownsSocket(): boolean {
    try {
      return fs.statSync(this.socket).ino === this.socketIno;
    } catch {
      return false;
    }
  }
}

const keyOf = (files: string[], projectDir: string) => JSON.stringify([files, projectDir]);

/** The heartbeat interval a caller asks for, kept between 20 ms and 1 s. */
function heartbeatOf(every: unknown): number {
  return typeof every === 'number' && Number.isFinite(every) ? Math.min(1000, Math.max(20, every)) : 1000;
}
