import { spawn } from 'node:child_process';
import path from 'node:path';
import { PathPolicy, type PathPolicyOptions } from '../path-policy/judge.js';
import { Sandbox } from './sandbox.js';
import { resolveSandbox, type SandboxSettings } from './settings.js';
import { SandboxOptionError, SandboxUnavailableError } from './errors.js';

export interface SandboxExecOptions extends Omit<PathPolicyOptions, 'workspace'> {
  /** The folder the command may write: required, never guessed from the process's cwd. */
  workspace: string;
  /** Where the command runs (default: the workspace). */
  cwd?: string;
  /** Network and environment settings, as the shell guard's `sandbox` option. */
  sandbox?: SandboxSettings;
  /** The environment the command starts from (default: this process's); secret-looking variables are removed. */
  env?: Record<string, string | undefined>;
  /** Stop the command after this long (default 120 000 ms). */
  timeoutMs?: number;
}

export interface SandboxExecResult {
  stdout: string;
  stderr: string;
  /** null when the command was stopped by a signal or the timeout. */
  exitCode: number | null;
}

/**
 * Run one shell command in the OS sandbox derived from a path policy: the shell
 * tool of an agent built on an adapter gets what a Claude Code Bash call gets.
 * Rejects, without running anything, when no sandbox can start.
 */
export async function sandboxExec(command: string, options: SandboxExecOptions): Promise<SandboxExecResult> {
  if (typeof options?.workspace !== 'string' || !path.isAbsolute(options.workspace)) {
    throw new SandboxOptionError('sandboxExec: workspace must be an absolute folder (the folder the command may write)');
  }
  const settings = resolveSandbox(options.sandbox ?? 'on', 'sandboxExec')!;
  const sandbox = new Sandbox(settings);
  const env = options.env ?? process.env;
  const unready = await sandbox.prepare();
  if (unready) throw new SandboxUnavailableError(`sandboxExec: ${unready}`);
  const { line } = sandbox.wrap(command, new PathPolicy(options), env);
  const child = spawn('/bin/sh', ['-c', line], {
    cwd: options.cwd ?? options.workspace,
    env: env as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: options.timeoutMs ?? 120_000,
    killSignal: 'SIGKILL',
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ stdout, stderr, exitCode }));
  });
}
