import type { Command } from 'commander';
import { toClaudeCodeOutput } from '../../compat/claude-code.js';
import type { HookEngine } from '../../core/engine.js';
import {
  answerCall,
  auditTo,
  configFiles,
  failureAnswer,
  type HookCallFlags,
  loadFor,
  loadTimeoutOf,
  noConfig,
  parseHookCallArgs,
  stallTimeoutOf,
} from '../hook-call/index.js';
import { hostNamed } from '../../hosts/index.js';
import type { SetExit } from '../index.js';
import { DEFAULT_LOAD_TIMEOUT_MS, DEFAULT_STALL_TIMEOUT_MS, Envelope } from '../envelope.js';
import { UserError } from '../errors.js';
import { followHookTimeouts, stalledHooks, stallReason } from '../hook-deadline.js';
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
    .action(async (flags: HookCallFlags) => setExit(await claudeCode(flags)));
}

/**
 * The command without commander, for a launcher that wants the shortest start-up:
 * `bin/hookwise.js` calls this directly when argv[2] is `claude-code`. It ends the
 * process itself (see ../envelope.ts); the returned code is for callers that stub the exit.
 */
export async function runClaudeCode(args: string[], started: Started = {}): Promise<number> {
  return claudeCode(parseHookCallArgs(args), started);
}

/**
 * What the launcher (../resident/client.cts) already did: stdin read while looking
 * for a resident, and the resident to start once this process has answered.
 */
export interface Started {
  input?: string;
  afterAnswer?: () => void;
}

async function claudeCode(flags: HookCallFlags & { badArgument?: string }, started: Started = {}): Promise<number> {
  const failOpen = flags.failOpen === true || process.env.HOOKWISE_FAIL_OPEN === '1';
  let event: string | undefined;
  let envelope: Envelope | undefined;
  try {
    const stallTimeoutMs = stallTimeoutOf(flags);
    envelope = new Envelope({ failure: (reason) => failureAnswer(event, reason, failOpen, flags.agent), stallTimeoutMs });
    const loadTimeoutMs = loadTimeoutOf(flags);
    const host = hostNamed(flags.agent);
    if (process.env[RECURSION_GUARD]) {
      process.stderr.write('hookwise: claude-code called from one of its own hooks; ignored\n');
      await envelope.answer(undefined, 0);
      return envelope.finish();
    }
    const raw = await readInputObject(started.input);
    let loaded: HookEngine | undefined;
    const answer = await answerCall({
      host,
      raw,
      failOpen,
      // A deadline missed ends this process at once with the failure answer (../envelope.ts).
      within: (ms, what, work) => envelope!.within(ms, what, work),
      throwFailures: true,
      check(read) {
        event = read;
        // Checked once the event is known, so that its failure answer fits the event (on Stop: the run ends).
        if (flags.badArgument !== undefined) throw new UserError(`claude-code: unknown argument ${flags.badArgument}`);
      },
      async engineFor(projectDir, _event, inputs) {
        const files = await configFiles(flags.config, projectDir);
        if (files.length === 0) return { none: noConfig(projectDir) };
        const engine = await envelope!.within(loadTimeoutMs, 'loading the config', loadFor(files, projectDir));
        const deadlines = followHookTimeouts(engine, envelope!.watchdog);
        envelope!.stallReason = (ms) => stallReason(ms, deadlines, stallTimeoutMs);
        const audit = await auditTo(engine, projectDir);
        // A hook stuck in synchronous code never lets the engine record its Outcome: the stopped call is recorded here.
        if (audit) envelope!.onStall = (ms, reason) => recordStall(audit, inputs[0]!, event!, stalledHooks(ms, deadlines, reason), reason);
        process.env[RECURSION_GUARD] = '1';
        loaded = engine;
        // The record is written before the answer: an answer that cannot be recorded is a failure.
        return { engine, recorded: () => audit?.closeSync() };
      },
    });
    // plain Error: unreachable; only a resident gives a stale engine, and this call loaded its own
    if ('stale' in answer) throw new Error('no engine to answer with');
    if (answer.stderr) process.stderr.write(`${answer.stderr}\n`);
    await envelope.answer(answer.stdout, answer.code);
    started.afterAnswer?.();
    if (!loaded) return envelope.finish();
    // Async hooks finish before the process ends; what they return has no later outcome to reach.
    await loaded.drain();
    // A timed-out command hook that ignores SIGTERM is SIGKILLed after its grace: end with it, not before.
    await hookProcessesEnded();
    return envelope.finish();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (envelope) return envelope.fail(reason);
    // The envelope itself could not start (a bad --stall-timeout): the same answer, by hand.
    const answer = failureAnswer(event, reason, failOpen, flags.agent);
    if (answer.stdout) process.stdout.write(answer.stdout);
    process.stderr.write(`${answer.stderr}\n`);
    return answer.code;
  }
}

/** Writing the answer is Claude Code's protocol: it lives with the rest of it in the core. */
export { toClaudeCodeOutput };

/** The audit record of a call whose hook was stopped stuck: refused, each stopped hook with status `timeout`. */
function recordStall(
  audit: { append(record: import('../../audit/types.js').AuditRecord): void; closeSync(): void },
  input: { session_id?: unknown; tool_name?: unknown; tool_input?: unknown },
  event: string,
  hooks: ReturnType<typeof stalledHooks>,
  reason: string,
): void {
  const tool = typeof input.tool_name === 'string' ? input.tool_name : undefined;
  audit.append({
    kind: 'outcome',
    ts: new Date().toISOString(),
    sessionId: typeof input.session_id === 'string' ? input.session_id : '',
    event,
    decision: 'deny',
    tool,
    data: {
      event,
      decision: 'deny',
      blocked: true,
      reason,
      hooks,
      ...(tool && { input: { tool_name: tool, tool_input: input.tool_input } }),
    },
  });
  audit.closeSync();
}
