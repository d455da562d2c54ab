import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { HookEngine } from '../../core/engine.js';
import { EVENTS } from '../../core/events.js';
import { claudeCodeHost } from '../../hosts/claude-code/index.js';
import { answerCall, auditTo, configFiles, loadFor, loadTimeoutOf, noConfig, parseHookCallArgs } from '../hook-call/index.js';
import { DEFAULT_STALL_TIMEOUT_MS, oneLine, within } from '../envelope.js';
import { killHookProcesses } from '../hook-processes.js';
import { followHookTimeouts, type HookDeadlines, stallReason } from '../hook-deadline.js';
import { parseInputObject } from '../stdin.js';
import { startWatchdog, type Watchdog } from '../watchdog.js';
import { MAX_SOCKET_PATH, RECURSION_GUARD, RESIDENT_DIR_ENV, residentDir, untrusted } from './address.cjs';
import { sameKey } from './key.cjs';
import { LoadedFiles } from './track.js';
import { warmUp } from './warm.js';
import { readHearing, writeHearing } from './hearing.js';
import { keepWasmOnBaseline } from '../wasm-baseline.js';
import { AbortedError } from '../../core/errors.js';
import { HostInputError } from '../../hosts/errors.js';

/**
 * The resident of Claude Code's in-process mod (`hookwise init claude-code --mod`,
 * docs/claude-code.md#the-mod): `hookwise claude-code --mod-serve`, started by the mod
 * itself through `$.process.spawn` when the session starts, for that session's life.
 *
 * The mod's sandbox has no Node, only `$.http.fetch` (over a Unix socket), so this
 * resident speaks HTTP: one POST per hook event, answered exactly as `hookwise
 * claude-code` answers (the Claude Code host, the same functions of src/cli/hook-call).
 *
 * Trust: the mod makes a random key and hands it over on stdin; it is never on disk, in
 * argv or in the environment, so the agent's own shell (the same user) cannot read it.
 * Each request carries the mod's nonce and an HMAC of nonce and input under the key (else
 * nothing runs: 403); each reply is sealed with the resident's HMAC over nonce, input and
 * reply (sealOf), which the mod checks before it believes it: a listener the agent
 * started on the socket path cannot answer for hookwise.
 */
export const MOD_SERVE_FLAG = '--mod-serve';
/** hookwise answers (its failure answer included) within this; the mod's own limit is later (mod-source.ts). */
export const MOD_DEADLINE_MS = 6000;
const REQUEST = 'hookwise-mod-request\0';
const SEAL = 'hookwise-resident-reply\0';
const MAX_BODY_CHARS = 64 * 1024 * 1024;
const KEY_HEX = /^[0-9a-f]{64}$/;
const NONCE_HEX = /^[0-9a-f]{32}$/;

/** What the mod sends with a request: its MAC under the shared key, over the nonce and the input. */
export const requestMacOf = (key: string, nonce: string, input: string): string =>
  crypto.createHmac('sha256', key).update(REQUEST).update(nonce).update('\0').update(input).digest('hex');

/** What the mod checks a reply by: the resident's MAC under the shared key, over the nonce, the input and the reply. */
export const sealOf = (key: string, nonce: string, input: string, reply: string): string =>
  crypto.createHmac('sha256', key).update(SEAL).update(nonce).update('\0').update(input).update('\0').update(reply).digest('hex');

const log = (line: string) => process.stderr.write(`${new Date().toISOString()} hookwise mod resident ${process.pid}: ${line}\n`);

/**
 * Events the mod sends only while a hook of the policy listens to them. PostToolBatch
 * follows every batch of tool calls, and the settings-hook drop-in does not send it
 * (CLAUDE_EVENTS in ../init/claude-settings.ts), so a policy with no hook there should
 * not pay for it on every call. Each answer lists those nobody listens to (`unheard`); a
 * config that adds a hook makes the next answer stale, and the new resident's answers
 * no longer list it (docs/claude-code.md#the-mod).
 */
export const SENT_WHEN_HEARD: readonly string[] = ['PostToolBatch'];

/**
 * Every event no hook of the policy listens to. The mod sends those of SENT_WHEN_HEARD
 * not at all, and the others without waiting for the answer, which can only be that
 * nothing objects: they are still recorded, and the session does not wait on them
 * (docs/claude-code.md#the-mod).
 */
const unheardBy = new WeakMap<HookEngine, string[]>();
export function unheardOf(engine: HookEngine): string[] {
  let unheard = unheardBy.get(engine);
  if (unheard === undefined) unheardBy.set(engine, (unheard = EVENTS.filter((name) => engine.hookCount(name) === 0)));
  return unheard;
}

/**
 * What the mod reads: the answer `hookwise claude-code` would give, with the events it
 * need not send (SENT_WHEN_HEARD), or `stale` (nothing ran; ask a new resident).
 */
export type ModReply = { stdout?: string; stderr?: string; code: number; unheard?: string[] } | { stale: true };

interface Loaded {
  engine: HookEngine;
  audit: { flushSync(): void; closeSync(): void } | undefined;
}

/** Runs until the session's mod ends it (or its parent goes); resolves with the exit code. */
export async function runModResident(args: string[]): Promise<number> {
  keepWasmOnBaseline();
  const flags = parseHookCallArgs(args);
  if (flags.badArgument !== undefined) {
    log(`not starting: unknown argument ${flags.badArgument}`);
    return 1;
  }
  const key = (await readAll(process.stdin)).trim();
  if (!KEY_HEX.test(key)) {
    log('not starting: stdin did not carry a key (64 hex digits)');
    return 1;
  }
  const dir = residentDir();
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const why = untrusted(dir);
  if (why) {
    log(`not starting: ${why}`);
    return 1;
  }
  const socket = path.join(dir, `mod-${process.pid}.sock`);
  // Past the limit the kernel would bind a cut name the mod never finds: say so now, not after its wait.
  if (Buffer.byteLength(socket) > MAX_SOCKET_PATH) {
    log(
      `not starting: the socket path ${socket} is ${Buffer.byteLength(socket)} bytes, over the ${MAX_SOCKET_PATH} a Unix socket allows here: set ${RESIDENT_DIR_ENV} to a shorter folder`,
    );
    return 1;
  }
  const code = await new ModResident(key, socket, flags.failOpen === true, args).run();
  // The watchdog and the loaded config's handles would keep it alive: it is done.
  process.exit(code);
}

class ModResident {
  private readonly files = new LoadedFiles();
  private readonly server = http.createServer((req, res) => void this.request(req, res));
  private served: { key: string; loaded?: Promise<Loaded> } | undefined;
  private watchdog!: Watchdog;
  private deadlines: HookDeadlines | undefined;
  private readonly stallMs = Math.min(DEFAULT_STALL_TIMEOUT_MS, Math.floor(MOD_DEADLINE_MS / 4));

  constructor(
    private readonly key: string,
    private readonly socket: string,
    private readonly failOpen: boolean,
    private readonly args: string[],
  ) {}

  async run(): Promise<number> {
    this.guard();
    this.files.install();
    fs.rmSync(this.socket, { force: true });
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.socket, resolve);
    });
    fs.chmodSync(this.socket, 0o600);
    process.env[RECURSION_GUARD] = '1';
    // The mod reads this line to find the socket, and what the policy does not listen to when that is known
    // before it loads (./hearing.ts); nothing else goes to stdout.
    const unheard = await this.knownUnheard();
    process.stdout.write(`${JSON.stringify({ socket: this.socket, ...(unheard && { unheard }) })}\n`);
    log(`serving ${this.socket}`);
    this.preload();
    // Claude Code ends it with the session (the mod's spawn loop); a parent that dies unannounced ends it too.
    const parent = process.ppid;
    const done = new Promise<number>((resolve) => {
      const check = setInterval(() => {
        if (process.ppid !== parent) resolve(0);
      }, 1000);
      check.unref();
      for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => resolve(0));
      this.server.on('close', () => resolve(0));
    });
    const code = await done;
    fs.rmSync(this.socket, { force: true });
    const loaded = await this.served?.loaded?.catch(() => undefined);
    loaded?.audit?.closeSync();
    return code;
  }

  /** A stuck hook or an uncaught error ends the process: the mod's call in flight then fails closed. */
  private guard(): void {
    const fatal = (reason: string) => {
      log(`${reason}; ending (the mod fails the call closed)`);
      killHookProcesses();
      fs.rmSync(this.socket, { force: true });
      process.exit(70);
    };
    this.watchdog = startWatchdog(this.stallMs, (ms) => fatal(stallReason(ms, this.deadlines, this.stallMs)));
    process.on('uncaughtException', (error) => fatal(`uncaught error: ${oneLine(String(error?.stack ?? error))}`));
    process.on('unhandledRejection', (reason) => fatal(`unhandled promise rejection: ${oneLine(String(reason))}`));
  }

  /** The events nobody listens to, as the last resident of the same policy files found them (./hearing.ts). */
  private async knownUnheard(): Promise<string[] | undefined> {
    const projectDir = process.env.CLAUDE_PROJECT_DIR;
    if (!projectDir) return undefined;
    try {
      const files = await configFiles(parseHookCallArgs(this.args).config, projectDir);
      return files.length > 0 ? readHearing(projectDir, files) : undefined;
    } catch {
      return undefined;
    }
  }

  private preload(): void {
    const projectDir = process.env.CLAUDE_PROJECT_DIR;
    if (!projectDir) return;
    void configFiles(parseHookCallArgs(this.args).config, projectDir)
      .then((files) => {
        if (files.length > 0 && !this.served) this.serve(files, projectDir);
      })
      .catch(() => {});
  }

  private serve(files: string[], projectDir: string): Promise<Loaded> {
    const loaded = (async () => {
      this.files.add(files);
      const engine = await this.files.during(() => loadFor(files, projectDir));
      this.deadlines = followHookTimeouts(engine, this.watchdog);
      const audit = await auditTo(engine, projectDir);
      // What the first call would load and try: now, not in a call someone waits for.
      void warmUp();
      writeHearing(projectDir, files, this.files.entries(), unheardOf(engine));
      return { engine, audit };
    })();
    loaded.catch(() => {});
    this.served = { key: JSON.stringify([files, projectDir]), loaded };
    return loaded;
  }

  private async request(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let body: { nonce?: unknown; input?: unknown; mac?: unknown };
    try {
      body = JSON.parse(await readAll(req, MAX_BODY_CHARS));
    } catch {
      return void res.writeHead(400).end();
    }
    const { nonce, input, mac } = body;
    if (req.url !== '/hook' || typeof nonce !== 'string' || !NONCE_HEX.test(nonce) || typeof input !== 'string')
      return void res.writeHead(400).end();
    // Only the mod that started this resident holds the key: anyone else is answered nothing.
    if (!sameKey(requestMacOf(this.key, nonce, input), mac)) return void res.writeHead(403).end();
    const gone = new AbortController();
    res.once('close', () => gone.abort(new AbortedError('the mod went away before the answer')));
    const answer = await this.answer(input, gone.signal);
    this.files.afterCall();
    const reply = JSON.stringify(answer);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ reply, seal: sealOf(this.key, nonce, input, reply) }));
    // A config that changed is loaded by a fresh process (Node keeps the modules it imported): the mod starts one.
    if ('stale' in answer)
      res.once('finish', () => {
        this.server.close();
        this.server.closeIdleConnections();
      });
  }

  /** The call as `hookwise claude-code` answers it (the one pipeline); any failure is its failure answer, within the deadline. */
  private async answer(raw: string, signal: AbortSignal): Promise<ModReply> {
    let engine: HookEngine | undefined;
    let none = false;
    const answer = await answerCall({
      host: claudeCodeHost,
      raw: () => parseInputObject(raw),
      failOpen: this.failOpen,
      signal,
      deadlineMs: MOD_DEADLINE_MS,
      engineFor: async (projectDir) => {
        const files = await configFiles(parseHookCallArgs(this.args).config, projectDir);
        if (files.length === 0) {
          none = true;
          return { none: noConfig(projectDir) };
        }
        const key = JSON.stringify([files, projectDir]);
        const changed = this.files.changed();
        // A config edited (or another one named) since it was loaded: load it afresh, as a new process would.
        if (this.served && (this.served.key !== key || changed)) {
          log(changed ? `${changed} changed; going (the mod starts a new resident)` : 'another config; going');
          return 'stale';
        }
        const loaded = await within(loadTimeoutOf({}), 'loading the config', this.served?.loaded ?? this.serve(files, projectDir));
        engine = loaded.engine;
        // The record is written before the answer: an answer that cannot be recorded is a failure.
        return { engine: loaded.engine, recorded: () => loaded.audit?.flushSync() };
      },
    });
    if ('stale' in answer) return { stale: true };
    if (none) return { ...answer, stderr: `${answer.stderr}\n` };
    const loaded = engine;
    if (!loaded) return answer;
    return { ...answer, unheard: unheardOf(loaded) };
  }
}

function readAll(stream: NodeJS.ReadableStream, max = 4096): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > max) reject(new HostInputError(`more than ${max} characters on the mod's channel`));
    });
    stream.on('end', () => resolve(text));
    stream.on('error', reject);
  });
}
