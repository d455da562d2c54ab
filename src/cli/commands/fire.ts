import path from 'node:path';
import type { Command } from 'commander';
import { checkEvent as checkEventName, EventNameError, eventInfo } from '../../compat/event-aliases.js';
import { emptyOutcome } from '../../core/outcome.js';
import type { SetExit } from '../index.js';
import { DEFAULT_LOAD_TIMEOUT_MS, DEFAULT_STALL_TIMEOUT_MS, Envelope, millis, type FailureAnswer } from '../envelope.js';
import { UserError } from '../errors.js';
import { collect, loadEngine } from '../load-engine.js';
import { readInputObject } from '../stdin.js';

interface FireFlags {
  config?: string[];
  session?: string;
  cwd?: string;
  loadTimeout?: string;
  stallTimeout?: string;
}

/** Exit code of `hookwise fire` when hookwise itself failed (the Outcome printed is then a block). */
export const FIRE_FAILURE_EXIT = 2;

export function defineFire(program: Command, setExit: SetExit): void {
  program
    .command('fire')
    .description(
      'Fire one event: read the input JSON object on stdin, print the Outcome as JSON. Exits 0 whatever the decision; if hookwise itself fails, prints a blocked Outcome and exits 2.',
    )
    .argument('<event>', 'event name, canonical or alias (PreToolUse, PreToolCall, ...)')
    .option('-c, --config <file>', 'a configuration source; repeat to merge several (default: what is found in the cwd)', collect)
    .option('--session <id>', 'session id (default: input.session_id)')
    .option(
      '--cwd <dir>',
      "the project folder: the guards' workspace and the hooks' cwd (default: the current folder; input.cwd, when given, stays the cwd)",
    )
    .option(
      '--load-timeout <ms>',
      `how long the config may take to load (default ${DEFAULT_LOAD_TIMEOUT_MS}; also HOOKWISE_LOAD_TIMEOUT_MS)`,
    )
    .option(
      '--stall-timeout <ms>',
      `how long a hook may run synchronously before it is stopped (default ${DEFAULT_STALL_TIMEOUT_MS}; also HOOKWISE_STALL_TIMEOUT_MS)`,
    )
    .action(async (event: string, flags: FireFlags) => setExit(await fire(event, flags)));
}

/** The failure answer of `hookwise fire`: an Outcome that blocks (a deny where the event has a permission decision). */
export function fireFailure(event: string, reason: string): FailureAnswer {
  const info = eventInfo(event);
  const outcome = {
    ...emptyOutcome(info.name),
    decision: info.permission ? 'deny' : null,
    blocked: true,
    reason: `hookwise failed: ${reason}`,
  };
  return { stdout: `${JSON.stringify(outcome, null, 2)}\n`, stderr: `hookwise failed closed: ${reason}`, code: FIRE_FAILURE_EXIT };
}

async function fire(event: string, flags: FireFlags): Promise<number> {
  const stallTimeoutMs = millis(flags.stallTimeout ?? process.env.HOOKWISE_STALL_TIMEOUT_MS, '--stall-timeout', DEFAULT_STALL_TIMEOUT_MS);
  const envelope = new Envelope({ failure: (reason) => fireFailure(event, reason), stallTimeoutMs });
  try {
    const loadTimeoutMs = millis(flags.loadTimeout ?? process.env.HOOKWISE_LOAD_TIMEOUT_MS, '--load-timeout', DEFAULT_LOAD_TIMEOUT_MS);
    checkEvent(event);
    // Hosts stamp inputs (the engine stays clock-free on its hot path): this CLI is the host here.
    const input: Record<string, unknown> = { timestamp: new Date().toISOString(), ...(await readInputObject()) };
    // The project (the guards' workspace), as --help says: --cwd, else the input's own absolute cwd, else the
    // folder hookwise runs in. The input's cwd wins over where hookwise happens to run: run from `/`, the
    // whole disk would otherwise be the workspace.
    const inputCwd = typeof input.cwd === 'string' && path.isAbsolute(input.cwd) ? input.cwd : undefined;
    const projectDir = flags.cwd ? path.resolve(flags.cwd) : (inputCwd ?? process.cwd());
    const cwd = flags.cwd ? projectDir : typeof input.cwd === 'string' ? undefined : projectDir;
    const { engine } = await envelope.within(loadTimeoutMs, 'loading the config', loadEngine({ config: flags.config, cwd: process.cwd() }));
    const outcome = await engine.fire(event, input, { sessionId: flags.session, cwd, projectDir });
    await engine.drain();
    await envelope.answer(`${JSON.stringify(outcome, roundedDurations, 2)}\n`, 0);
    return envelope.finish();
  } catch (error) {
    return envelope.fail(error instanceof Error ? error.message : String(error));
  }
}

/** Durations to a hundredth of a millisecond: the timer's noise below that is not information. */
function roundedDurations(key: string, value: unknown): unknown {
  return key === 'durationMs' && typeof value === 'number' ? Math.round(value * 100) / 100 : value;
}

/** Custom events are allowed; a miscased or misspelt known one (`pretooluse`) is refused, by the engine's own rule. */
function checkEvent(event: string): void {
  try {
    checkEventName(event);
  } catch (error) {
    if (error instanceof EventNameError) throw new UserError(error.message);
    throw error;
  }
}
