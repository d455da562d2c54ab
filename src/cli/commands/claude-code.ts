import path from 'node:path';
import type { Command } from 'commander';
import type { HookEngine } from '../../core/engine.js';
import { isKnownEvent, nearMissOf } from '../../compat/event-aliases.js';
import { toClaudeCodeOutput } from '../../compat/claude-code.js';
import type { HookInput } from '../../core/input.js';
import { answerHost } from '../../hosts/answer.js';
import type { Host, HostAnswer } from '../../hosts/host.js';
import { hostNamed } from '../../hosts/index.js';
import type { SetExit } from '../index.js';
import { DEFAULT_LOAD_TIMEOUT_MS, DEFAULT_STALL_TIMEOUT_MS, Envelope, millis, type FailureAnswer } from '../envelope.js';
import { UserError } from '../errors.js';
import { followHookTimeouts, stallReason } from '../hook-deadline.js';
import { hookProcessesEnded } from '../hook-processes.js';
import { RECURSION_GUARD } from '../resident/address.cjs';
import { readInputObject } from '../stdin.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * `hookwise claude-code`: a hook for Claude Code itself (`"command": "npx hookwise claude-code"`).
 * Reads Claude Code's event JSON on stdin, runs the project's hookwise config module
 * (never Claude Code's settings: they name this very command), and answers in Claude
 * Code's output format. It runs on every tool call, so everything heavy loads lazily.
 * Everything runs inside the fail-closed envelope (../envelope.ts, docs/claude-code.md#failures).
 */
const TYPESCRIPT = /\.(ts|mts|cts)$/;

/** The largest answer written; a larger one is a failure (a host reading a capped pipe would get cut, invalid JSON). */
export const MAX_ANSWER_BYTES = 1024 * 1024;

export interface ClaudeCodeFlags {
  config?: string[];
  /** The agent that runs this hook (src/hosts): `hookwise codex` is `hookwise claude-code --agent codex`. */
  agent?: string;
  failOpen?: boolean;
  loadTimeout?: string;
  stallTimeout?: string;
}

export function defineClaudeCode(program: Command, setExit: SetExit): void {
  program
    .command('claude-code')
    .description("Run as a Claude Code hook: read the event on stdin, fire the project's hookwise config, answer in Claude Code's format.")
    .option(
      '-c, --config <file>',
      'a configuration source; repeat to merge several (default: hookwise.config.* in $CLAUDE_PROJECT_DIR, else the cwd)',
      collect,
    )
    .option(
      '--fail-open',
      "hookwise's own failures answer exit 1 (Claude Code goes on) instead of exit 2 on events that can block (also HOOKWISE_FAIL_OPEN=1)",
    )
    .option(
      '--no-resident',
      'answer in this process; never through (or by starting) a resident hookwise (also HOOKWISE_RESIDENT=0; docs/claude-code.md#the-resident)',
    )
    .option(
      '--resident-timeout <ms>',
      'how long a resident may stay silent before this call stops waiting for it (default 5000; also HOOKWISE_RESIDENT_TIMEOUT_MS; docs/claude-code.md#the-resident)',
    )
    .option(
      '--load-timeout <ms>',
      `how long the config may take to load (default ${DEFAULT_LOAD_TIMEOUT_MS}; also HOOKWISE_LOAD_TIMEOUT_MS)`,
    )
    .option(
      '--stall-timeout <ms>',
      `how long a hook may run synchronously before it is stopped (default ${DEFAULT_STALL_TIMEOUT_MS}; also HOOKWISE_STALL_TIMEOUT_MS)`,
    )
    .action(async (flags: ClaudeCodeFlags) => setExit(await claudeCode(flags)));
}

/**
 * The command without commander, for a launcher that wants the shortest start-up:
 * `bin/hookwise.js` calls this directly when argv[2] is `claude-code`. It ends the
 * process itself (see ../envelope.ts); the returned code is for callers that stub the exit.
 */
export async function runClaudeCode(args: string[], started: Started = {}): Promise<number> {
  return claudeCode(parseClaudeCodeArgs(args), started);
}

/** The command's flags, parsed by hand (the resident parses its own the same way). */
export function parseClaudeCodeArgs(args: string[]): ClaudeCodeFlags & { badArgument?: string } {
  const flags: ClaudeCodeFlags & { badArgument?: string } = { config: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = (name: string) => (arg.startsWith(`${name}=`) ? arg.slice(name.length + 1) : args[++i]);
    if (arg === '-c' || arg === '--config' || arg.startsWith('--config=')) flags.config!.push(value('--config') ?? '');
    else if (arg === '--fail-open') flags.failOpen = true;
    else if (arg === '--agent' || arg.startsWith('--agent=')) flags.agent = value('--agent') ?? '';
    // Read by the launcher (../resident/client.cts) before this process is chosen.
    else if (arg === '--no-resident') continue;
    else if (arg === '--resident-timeout') i++;
    else if (arg.startsWith('--resident-timeout=')) continue;
    else if (arg === '--load-timeout' || arg.startsWith('--load-timeout=')) flags.loadTimeout = value('--load-timeout') ?? '';
    else if (arg === '--stall-timeout' || arg.startsWith('--stall-timeout=')) flags.stallTimeout = value('--stall-timeout') ?? '';
    else flags.badArgument ??= arg;
  }
  return flags;
}

/**
 * What the launcher (../resident/client.cts) already did: stdin read while looking
 * for a resident, and the resident to start once this process has answered.
 */
export interface Started {
  input?: string;
  afterAnswer?: () => void;
}

/**
 * What the agent gets when hookwise itself fails, in the form that fails closed there
 * (src/hosts/<agent>): for Claude Code exit 2 (block) where exit 2 blocks, else exit 1,
 * and on end-of-turn events an answer that ends the run.
 */
export function claudeCodeFailure(event: string | undefined, reason: string, failOpen: boolean, agent?: string): FailureAnswer {
  let host: Host;
  try {
    host = hostNamed(agent);
  } catch {
    host = hostNamed('claude-code');
  }
  const answer = host.failure(event, reason, failOpen);
  return { ...(answer.stdout && { stdout: answer.stdout }), stderr: answer.stderr ?? '', code: answer.code };
}

async function claudeCode(flags: ClaudeCodeFlags & { badArgument?: string }, started: Started = {}): Promise<number> {
  const failOpen = flags.failOpen === true || process.env.HOOKWISE_FAIL_OPEN === '1';
  let event: string | undefined;
  let envelope: Envelope | undefined;
  try {
    const stallTimeoutMs = stallTimeoutOf(flags);
    envelope = new Envelope({ failure: (reason) => claudeCodeFailure(event, reason, failOpen, flags.agent), stallTimeoutMs });
    const loadTimeoutMs = loadTimeoutOf(flags);
    const host = hostNamed(flags.agent);
    if (process.env[RECURSION_GUARD]) {
      process.stderr.write('hookwise: claude-code called from one of its own hooks; ignored\n');
      await envelope.answer(undefined, 0);
      return envelope.finish();
    }
    const inputs = host.inputs(await readInputObject(started.input));
    const input = inputs[0]!;
    event = eventOf(input.hook_event_name);
    // Checked once the event is known, so that its failure answer fits the event (on Stop: the run ends).
    if (flags.badArgument !== undefined) throw new UserError(`claude-code: unknown argument ${flags.badArgument}`);
    const projectDir = projectDirOf(input);
    const files = await configFiles(flags.config, projectDir);
    if (files.length === 0) {
      process.stderr.write(noConfig(projectDir));
      await envelope.answer(undefined, 0);
      started.afterAnswer?.();
      return envelope.finish();
    }
    const work = (async () => {
      const engine = await envelope!.within(loadTimeoutMs, 'loading the config', loadFor(files, projectDir));
      const deadlines = followHookTimeouts(engine, envelope!.watchdog);
      envelope!.stallReason = (ms) => stallReason(ms, deadlines, stallTimeoutMs);
      const audit = await auditTo(engine, projectDir);
      process.env[RECURSION_GUARD] = '1';
      const answer = await answerFor(host, engine, event!, inputs);
      // The record is written before the answer: an answer that cannot be recorded is a failure.
      audit?.closeSync();
      return { engine, answer };
    })();
    // Agents whose own hook timeout lets the tool run get the failure answer from hookwise first.
    const { engine, answer } = host.deadlineMs ? await envelope.within(host.deadlineMs, `answering ${host.label}`, work) : await work;
    if (answer.stderr) process.stderr.write(`${answer.stderr}\n`);
    await envelope.answer(answer.stdout, answer.code);
    started.afterAnswer?.();
    // Async hooks finish before the process ends; what they return has no later outcome to reach.
    await engine.drain();
    // A timed-out command hook that ignores SIGTERM is SIGKILLed after its grace: end with it, not before.
    await hookProcessesEnded();
    return envelope.finish();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (envelope) return envelope.fail(reason);
    // The envelope itself could not start (a bad --stall-timeout): the same answer, by hand.
    const answer = claudeCodeFailure(event, reason, failOpen, flags.agent);
    if (answer.stdout) process.stdout.write(answer.stdout);
    process.stderr.write(`${answer.stderr}\n`);
    return answer.code;
  }
}

/**
 * How much CPU a hook may burn synchronously. For agents whose own timeout runs the tool
 * the default is a quarter of hookwise's deadline: CPU time runs slower than the clock on
 * a busy machine, and the watchdog must answer before the agent gives up.
 */
export function stallTimeoutOf(flags: ClaudeCodeFlags): number {
  let deadline: number | undefined;
  try {
    deadline = hostNamed(flags.agent).deadlineMs;
  } catch {}
  const fallback = deadline ? Math.min(DEFAULT_STALL_TIMEOUT_MS, Math.floor(deadline / 4)) : DEFAULT_STALL_TIMEOUT_MS;
  return millis(flags.stallTimeout ?? process.env.HOOKWISE_STALL_TIMEOUT_MS, '--stall-timeout', fallback);
}

export function loadTimeoutOf(flags: ClaudeCodeFlags): number {
  return millis(flags.loadTimeout ?? process.env.HOOKWISE_LOAD_TIMEOUT_MS, '--load-timeout', DEFAULT_LOAD_TIMEOUT_MS);
}

/** The project: Claude Code's CLAUDE_PROJECT_DIR, else the input's cwd, else ours. */
export function projectDirOf(input: HookInput): string {
  return process.env.CLAUDE_PROJECT_DIR || (typeof input.cwd === 'string' ? input.cwd : process.cwd());
}

export function noConfig(projectDir: string): string {
  return `hookwise: no hookwise.config.{ts,mts,mjs,js} in ${projectDir}; nothing to run\n`;
}

/** Fire the event and write the Outcome as the agent reads it (src/hosts/answer.ts); too large an answer is a failure. */
export async function answerFor(
  host: Host,
  engine: HookEngine,
  event: string,
  inputs: HookInput[],
  signal?: AbortSignal,
): Promise<HostAnswer> {
  const answer = await answerHost(host, engine, event, inputs, signal, projectDirOf(inputs[0] ?? {}));
  if (answer.stdout) {
    const bytes = Buffer.byteLength(answer.stdout);
    if (bytes > MAX_ANSWER_BYTES) throw new Error(`the answer is ${bytes} bytes, over the ${MAX_ANSWER_BYTES} a hook answer may carry`);
  }
  return answer;
}

/** The event Claude Code named; a missing, empty or unknown name (`pretooluse`) is a failure. */
export function eventOf(name: unknown): string {
  if (typeof name !== 'string' || name === '')
    throw new UserError('stdin: hook_event_name is missing; expected the JSON Claude Code sends a hook');
  if (isKnownEvent(name)) return name;
  const close = nearMissOf(name);
  throw new UserError(`stdin: unknown hook_event_name "${name}"${close ? ` (did you mean "${close}"?)` : ''}`);
}

export async function loadFor(files: string[], projectDir: string): Promise<HookEngine> {
  // Started together, not each once the module before it has loaded: load-engine
  // imports the loader, which imports the TypeScript cache.
  const [{ loadEngine }] = await Promise.all([
    import('../load-engine.js'),
    import('../../config/load.js'),
    files.some((f) => TYPESCRIPT.test(f)) && import('../../config/module-cache.js'),
  ]);
  return (await loadEngine({ config: files, cwd: projectDir })).engine;
}

/**
 * With `HOOKWISE_AUDIT_DB` set (relative to the project), or in a project set up
 * with `hookwise init --state user` (its audit database in the user's state
 * folder), every fire's Outcome goes to that audit database.
 */
export async function auditTo(engine: HookEngine, projectDir: string) {
  const { defaultAuditPath, usesUserState } = await import('../../audit/paths.js');
  if (!process.env.HOOKWISE_AUDIT_DB && !usesUserState(projectDir)) return undefined;
  const { auditEngine, openAuditStore } = await import('../../audit/index.js');
  const store = openAuditStore({ path: defaultAuditPath(projectDir) });
  auditEngine(engine, store);
  return store;
}

/**
 * Imported once: a resident looks for the config on every call, and each `import()` in
 * a resident goes to its loader hook's thread and back (../resident/track.ts).
 */
let discover: Promise<typeof import('../../config/discover.js')> | undefined;

export async function configFiles(named: string[] | undefined, projectDir: string): Promise<string[]> {
  if (named?.length) return named.map((f) => path.resolve(f));
  discover ??= import('../../config/discover.js');
  const { findConfigModule } = await discover;
  const found = findConfigModule(projectDir);
  return found ? [found] : [];
}

/** Writing the answer is Claude Code's protocol: it lives with the rest of it in the core. */
export { toClaudeCodeOutput };
