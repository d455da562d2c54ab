import { spawn } from 'node:child_process';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
export const cliPath = path.join(repoRoot, 'bin', 'hookwise.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  stdin?: string;
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Variables removed from the inherited environment (e.g. HOOKWISE_AUDIT_DB). */
  unset?: string[];
}

/** Run `node <args>` as a user would, without colours, with `stdin` piped in. */
export function runNode(args: string[], options: RunOptions = {}): Promise<CliResult> {
  return runProgram(process.execPath, args, options);
}

/** Run any program (`bash -c '…'` for a pipeline) the same way. */
export function runProgram(program: string, args: string[], options: RunOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...options.env };
    delete env.FORCE_COLOR;
    for (const name of options.unset ?? []) if (options.env?.[name] === undefined) delete env[name];
    const child = spawn(program, args, { cwd: options.cwd ?? repoRoot, env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    // A command that exits before reading its stdin closes the pipe: EPIPE here is not the test's result (its code and output are).
    child.stdin.on('error', () => {});
    child.stdin.end(options.stdin ?? '');
  });
}

/** Run the built CLI (`npm run build` first; `npm test` does it). */
export function runCli(args: string[], options: RunOptions = {}): Promise<CliResult> {
  return runNode([cliPath, ...args], options);
}
