import { spawn, type ChildProcess } from 'node:child_process';
import { cliPath } from '../cli/run-cli.js';

export interface Served {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Start `hookwise serve` from dist/ and wait for its "listening on" line. */
export function spawnServe(args: string[], options: { cwd: string; env?: Record<string, string | undefined> }): Promise<Served> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...options.env };
    const child = spawn(process.execPath, [cliPath, 'serve', '--port', '0', ...args], {
      cwd: options.cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
      child.once('exit', (code, signal) => r({ code, signal })),
    );
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const m = /listening on (http:\/\/\S+)/.exec(stdout);
      if (m) resolve({ child, url: m[1]!, stderr: () => stderr, exited });
    });
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.once('error', reject);
    void exited.then(({ code }) => reject(new Error(`hookwise serve exited (${code}) before listening: ${stderr}`)));
  });
}
