import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { z } from 'zod';
import { defineTool } from '../tool.js';
import { ToolFailedError } from '../errors.js';
import { AbortedError } from '../../core/errors.js';

export interface ShellToolOptions {
  /** Default timeout of a command; the model may ask for less or more up to maxTimeoutMs. Default 30 s. */
  timeoutMs?: number;
  maxTimeoutMs?: number;
  /** Cap on stdout and on stderr, each. Default 30 000 bytes. */
  outputLimitBytes?: number;
  /** Grace between TERM and KILL. Default 500 ms. */
  killGraceMs?: number;
}

export type ShellResult = {
  stdout: string;
  stderr: string;
  exit_code: number | null;
  truncated: boolean;
};

/** What Bash returns (`tool_response`), in Claude Code's shape. */
export type BashResponse = {
  stdout: string;
  stderr: string;
  interrupted: boolean;
  isImage: boolean;
  noOutputExpected: boolean;
  /** Set when a non-zero exit code is not an error for the command (`grep` finding nothing). */
  returnCodeInterpretation?: string;
};

/**
 * Bash: `sh -c <command>` with the workspace as cwd, stderr merged into stdout, in its own process group so
 * that a timeout or an abort kills the command and everything it started. Not a
 * sandbox: the command can reach outside the workspace; hooks are the guard.
 * As in Claude Code, a command that fails (a non-zero exit its command does not
 * explain) is a tool failure with the error `Exit code N` and its output, so
 * PostToolUseFailure fires; otherwise the response has Claude Code's shape.
 */
export function shellTool(workspace: string, options: ShellToolOptions = {}) {
  const defaultTimeout = options.timeoutMs ?? 30_000;
  const maxTimeout = options.maxTimeoutMs ?? Math.max(defaultTimeout, 120_000);
  return defineTool({
    name: 'Bash',
    description: `Run a shell command (sh -c) in the workspace folder. Optional timeout in ms (default ${defaultTimeout}, max ${maxTimeout}).`,
    input: z.object({
      command: z.string().min(1),
      timeout: z.number().int().min(1).optional(),
      description: z.string().optional(),
    }),
    run: async ({ command, timeout }, ctx): Promise<BashResponse> => {
      const ran = await runShell(command, {
        mergeStderr: true,
        cwd: realpathSync(workspace),
        timeoutMs: Math.min(timeout ?? defaultTimeout, maxTimeout),
        outputLimitBytes: options.outputLimitBytes ?? 30_000,
        killGraceMs: options.killGraceMs ?? 500,
        signal: ctx.signal,
      });
      ctx.annotate({ exit_code: ran.exit_code });
      const code = ran.exit_code ?? 0;
      const meaning = exitCodeMeaning(command, code);
      if (meaning.isError) throw new ToolFailedError([`Exit code ${code}`, ran.stderr, ran.stdout].filter(Boolean).join('\n').trim());
      const response: BashResponse = {
        stdout: withoutBlankEnds(ran.stdout),
        stderr: ran.stderr,
        interrupted: false,
        isImage: false,
        noOutputExpected: noOutputExpected(command),
      };
      if (meaning.message) response.returnCodeInterpretation = meaning.message;
      return response;
    },
  });
}

/** Claude Code's `stdout`: the output without its leading and trailing blank lines. */
function withoutBlankEnds(text: string): string {
  const lines = text.split('\n');
  let start = 0;
  let end = lines.length - 1;
  while (start <= end && lines[start]!.trim() === '') start++;
  while (end >= start && lines[end]!.trim() === '') end--;
  return lines.slice(start, end + 1).join('\n');
}

/** Claude Code's table of commands whose exit code 1 is an answer, not a failure. */
const EXIT_ONE_MEANS: Record<string, string> = {
  grep: 'No matches found',
  rg: 'No matches found',
  egrep: 'No matches found',
  fgrep: 'No matches found',
  find: 'Some directories were inaccessible',
  diff: 'Files differ',
  test: 'Condition is false',
  '[': 'Condition is false',
};

/** Commands that print nothing when they succeed (Claude Code's `noOutputExpected`). */
const SILENT_COMMANDS = new Set([
  'mv',
  'cp',
  'rm',
  'mkdir',
  'rmdir',
  'chmod',
  'chown',
  'chgrp',
  'touch',
  'ln',
  'cd',
  'export',
  'unset',
  'wait',
]);

/** The simple commands of a command line, split on `&&`, `||`, `;`, `|` and newlines (quotes not parsed: a heuristic, as in Claude Code). */
function simpleCommands(command: string): string[][] {
  return command
    .split(/&&|\|\||[;|\n]/)
    .map((part) => part.trim().split(/\s+/).filter(Boolean))
    .filter((words) => words.length > 0);
}

/** Whether an exit code is a failure; the last command of the line decides (`git diff`/`git grep` as diff/grep). */
export function exitCodeMeaning(command: string, code: number): { isError: boolean; message?: string } {
  const last = simpleCommands(command).at(-1) ?? [];
  let name = last[0] ?? '';
  if (name === 'git') {
    const sub = last.slice(1).find((w, i, ws) => !w.startsWith('-') && ws[i - 1] !== '-C' && ws[i - 1] !== '-c');
    if (sub === 'diff' || sub === 'grep') name = sub;
    else return { isError: code !== 0 };
  }
  const meaning = EXIT_ONE_MEANS[name];
  if (meaning) return { isError: code >= 2, message: code === 1 ? meaning : undefined };
  return { isError: code !== 0 };
}

function noOutputExpected(command: string): boolean {
  const commands = simpleCommands(command);
  return commands.length > 0 && commands.every((words) => SILENT_COMMANDS.has(words[0]!));
}

interface RunShellOptions {
  /** One stream, in the order written (`2>&1`), as Claude Code's Bash reports it: `stderr` stays empty. */
  mergeStderr?: boolean;
  cwd: string;
  timeoutMs: number;
  outputLimitBytes: number;
  killGraceMs: number;
  signal?: AbortSignal;
}

/** Run a command; resolves with its output and exit code, rejects on timeout or abort (after killing its group). */
export function runShell(command: string, options: RunShellOptions): Promise<ShellResult> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(new AbortedError('aborted before the command started'));
    // `exec 2>&1` on a line of its own: the command itself is parsed exactly as given.
    const script = options.mergeStderr ? `exec 2>&1\n${command}` : command;
    const child = spawn('sh', ['-c', script], { cwd: options.cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = new Capped(options.outputLimitBytes);
    const err = new Capped(options.outputLimitBytes);
    child.stdout.on('data', (chunk: Buffer) => out.add(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.add(chunk));

    let killedFor: string | null = null;
    let graceTimer: NodeJS.Timeout | undefined;
    const killGroup = (why: string) => {
      if (killedFor !== null) return;
      killedFor = why;
      signalGroup(child.pid, 'SIGTERM');
      graceTimer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), options.killGraceMs);
    };
    const timer = setTimeout(() => killGroup(`timed out after ${options.timeoutMs} ms`), options.timeoutMs);
    const onAbort = () => killGroup('aborted');
    options.signal?.addEventListener('abort', onAbort, { once: true });

    child.on('error', (error) => {
      cleanup();
      reject(new ToolFailedError(`cannot run sh: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      cleanup();
      // The shell is gone; anything it left running in its group goes too (no orphans).
      signalGroup(child.pid, 'SIGKILL');
      if (killedFor !== null) {
        reject(
          new ToolFailedError(
            `command ${killedFor}; its process group was killed. Output so far:\n${out.text()}${err.text() ? `\nstderr:\n${err.text()}` : ''}`,
          ),
        );
        return;
      }
      resolve({
        stdout: out.text(),
        stderr: err.text(),
        exit_code: code ?? (signal ? 128 : null),
        truncated: out.truncated || err.truncated,
      });
    });

    function cleanup() {
      clearTimeout(timer);
      if (graceTimer) clearTimeout(graceTimer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  });
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** Keeps the first `limit` bytes of a stream and remembers whether more came. */
class Capped {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    if (this.size >= this.limit) {
      this.truncated = true;
      return;
    }
    const room = this.limit - this.size;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (kept.length < chunk.length) this.truncated = true;
    this.chunks.push(kept);
    this.size += kept.length;
  }

  text(): string {
    const text = Buffer.concat(this.chunks).toString('utf8');
    return this.truncated ? `${text}\n[output truncated at ${this.limit} bytes]` : text;
  }
}
