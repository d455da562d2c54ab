import { existsSync } from 'node:fs';
import { canonicalEvent } from '../compat/event-aliases.js';
import { capReasons, capText } from './cap-reason.js';
import type { HookContext, HookHandler } from '../core/spec.js';
import { runProcess, SpawnError, type RunProcessResult } from './process.js';
import { protocolFor } from './protocols/index.js';
import type { CommandHandlerOptions } from './types.js';
import { HandlerOptionError, HookFailedError } from './errors.js';

export const DEFAULT_OUTPUT_LIMIT_BYTES = 1024 * 1024;

/** sh's exit codes for "not found" and "found but not executable". */
const SH_NOT_FOUND = 127;
const SH_NOT_EXECUTABLE = 126;

function validate(options: CommandHandlerOptions): void {
  if (typeof options?.command !== 'string' || options.command.trim() === '') {
    throw new HandlerOptionError('command hook: `command` must be a non-empty string (a shell line, or the program when `args` is given)');
  }
  if (options.args !== undefined && (!Array.isArray(options.args) || options.args.some((a) => typeof a !== 'string'))) {
    throw new HandlerOptionError(`command hook "${options.command}": \`args\` must be an array of strings`);
  }
  const limit = options.outputLimitBytes;
  if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
    throw new HandlerOptionError(
      `command hook "${options.command}": \`outputLimitBytes\` must be a positive integer, got ${String(limit)}`,
    );
  }
}

function spawnFailure(error: SpawnError, program: string, cwd: string): SpawnError {
  if (error.errno === 'ENOENT' && !existsSync(cwd))
    return new SpawnError(`cannot run ${program}: working directory ${cwd} does not exist`, error.errno);
  if (error.errno === 'ENOENT') return new SpawnError(`cannot run ${program}: program not found`, error.errno);
  if (error.errno === 'EACCES') return new SpawnError(`cannot run ${program}: permission denied (is it executable?)`, error.errno);
  return new SpawnError(`cannot run ${program}: ${error.message}`, error.errno);
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.slice(0, 300) ?? '';
}

function annotateRun(ctx: HookContext, run: RunProcessResult): void {
  const fields: Record<string, unknown> = { exitCode: run.exitCode };
  if (run.signal) fields.signal = run.signal;
  if (run.stdoutTruncated || run.stderrTruncated) {
    fields.truncated = true;
    fields.truncatedStreams = [run.stdoutTruncated && 'stdout', run.stderrTruncated && 'stderr'].filter(Boolean);
  }
  ctx.annotate(fields);
}

/** The program and arguments that run a shell line: `sh -c`, `bash -c` (Claude Code's default) or PowerShell. */
function shellLine(shell: NonNullable<CommandHandlerOptions['shell']>, line: string): [string, string[]] {
  if (shell === 'powershell') return ['pwsh', ['-NoProfile', '-NonInteractive', '-Command', line]];
  return [shell, ['-c', line]];
}

/**
 * A hook that runs an external program. `command` alone runs through `sh -c`;
 * with `args` it is the program itself (exec form, no shell). The input goes
 * on stdin; the protocol reads the exit code and output.
 */
export function commandHandler(options: CommandHandlerOptions): HookHandler {
  validate(options);
  const protocol = protocolFor(options.protocol ?? 'claude-code');
  const limitBytes = options.outputLimitBytes ?? DEFAULT_OUTPUT_LIMIT_BYTES;
  const shellForm = options.args === undefined;
  const [file, args] = shellForm ? shellLine(options.shell ?? 'sh', options.command) : [options.command, options.args!];
  const label = `"${options.command}"`;

  return async (input, ctx) => {
    const event = canonicalEvent(typeof input.hook_event_name === 'string' ? input.hook_event_name : '');
    const cwd = options.cwd ?? ctx.cwd ?? process.cwd();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      CLAUDE_PROJECT_DIR: ctx.projectDir ?? process.env.CLAUDE_PROJECT_DIR ?? process.cwd(),
      ...options.env,
      HOOKWISE_EVENT: event,
      HOOKWISE_SESSION_ID: ctx.sessionId,
    };
    let run: RunProcessResult;
    try {
      run = await runProcess({ file, args, stdin: protocol.stdin(input, event), env, cwd, limitBytes, signal: ctx.signal });
    } catch (error) {
      if (error instanceof SpawnError) throw spawnFailure(error, label, cwd);
      throw error;
    }
    annotateRun(ctx, run);
    if (run.exitCode === null) throw new HookFailedError(`${label} was killed by signal ${run.signal ?? 'unknown'}`);
    if (shellForm && run.exitCode === SH_NOT_FOUND) {
      const detail = firstLine(run.stderr);
      throw new HookFailedError(`command not found: ${label} (sh exited 127${detail ? `: ${detail}` : ''})`);
    }
    if (shellForm && run.exitCode === SH_NOT_EXECUTABLE) {
      const detail = firstLine(run.stderr);
      throw new HookFailedError(`command not executable: ${label} (sh exited 126${detail ? `: ${detail}` : ''})`);
    }
    // stderr only ever becomes a reason or a message: cut before it is read, as every reason the answer carries.
    return capReasons(
      protocol.read(
        { exitCode: run.exitCode, stdout: run.stdout, stderr: capText(run.stderr), stdoutTruncated: run.stdoutTruncated },
        event,
        { asyncRewake: options.asyncRewake, plugin: options.env?.CLAUDE_PLUGIN_ROOT !== undefined, input },
      ),
    );
  };
}
