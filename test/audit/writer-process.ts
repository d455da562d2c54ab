import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The child imports dist/: `npm run build` first (npm test does it).
const WRITER = fileURLToPath(new URL('../fixtures/audit/writer.mjs', import.meta.url));

export interface WriterRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** The last count of committed records it printed (durable mode). */
  committed: number;
}

/**
 * Runs test/fixtures/audit/writer.mjs: `count` records from writer `id` into
 * `target`. With `killAfter`, SIGKILLs it once it has printed that many durable
 * commits: the kill lands wherever the writer is then, mid-write or between writes.
 */
export function runWriter(
  target: string,
  id: number,
  count: number,
  options: { mode?: 'buffered' | 'durable'; env?: NodeJS.ProcessEnv; killAfter?: number } = {},
): Promise<WriterRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRITER, target, String(count), String(id), options.mode ?? 'buffered'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...options.env },
    });
    let stderr = '';
    let committed = 0;
    let partial = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop()!;
      for (const line of lines) if (/^\d+$/.test(line)) committed = Number(line);
      if (options.killAfter !== undefined && committed >= options.killAfter) child.kill('SIGKILL');
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stderr, committed }));
  });
}
