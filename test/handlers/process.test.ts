import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runProcess, SpawnError } from '../../src/handlers/process.js';
import { isAlive, script, waitForFile, waitGone } from './helpers.js';

const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-process-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base = { stdin: '{}', env: process.env, cwd: process.cwd(), limitBytes: 1024 * 1024 };

describe('runProcess', () => {
  it('passes stdin and returns the exit code and both streams', async () => {
    const result = await runProcess({ ...base, file: 'sh', args: ['-c', 'cat; echo err >&2; exit 3'], stdin: '{"a":1}', signal: new AbortController().signal });
    expect(result).toEqual({ exitCode: 3, signal: null, stdout: '{"a":1}', stderr: 'err\n', stdoutTruncated: false, stderrTruncated: false });
  });

  it('caps stdout and stderr separately and keeps draining so the writer finishes', async () => {
    const result = await runProcess({
      ...base,
      file: 'python3',
      args: [script('flood.py')],
      env: { ...process.env, FLOOD_MIB: '5' },
      limitBytes: 1000,
      signal: new AbortController().signal,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('x'.repeat(1000));
    expect(result.stderr).toBe('x'.repeat(1000));
    expect(result.stdoutTruncated).toBe(true);
    expect(result.stderrTruncated).toBe(true);
  });

  it('survives a process that never reads its stdin (EPIPE is not an error)', async () => {
    const big = JSON.stringify({ blob: 'y'.repeat(4 * 1024 * 1024) });
    const result = await runProcess({ ...base, file: 'sh', args: ['-c', 'echo done'], stdin: big, signal: new AbortController().signal });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'done\n' });
  });

  it('reports death by signal', async () => {
    const result = await runProcess({ ...base, file: 'bash', args: [script('kill-self.sh')], signal: new AbortController().signal });
    expect(result.exitCode).toBeNull();
    expect(result.signal).toBe('SIGKILL');
    expect(result.stdout).toBe('about to die\n');
  });

  it('fails to start a missing program with a SpawnError', async () => {
    const run = runProcess({ ...base, file: path.join(dir, 'no-such-program'), args: [], signal: new AbortController().signal });
    await expect(run).rejects.toBeInstanceOf(SpawnError);
    await expect(run).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('on abort kills the whole group, escalating to SIGKILL for a grandchild that ignores SIGTERM', async () => {
    const pidFile = path.join(dir, 'bash-pids');
    const controller = new AbortController();
    const run = runProcess({
      ...base,
      file: 'bash',
      args: [script('fork-and-hang.sh')],
      env: { ...process.env, PID_FILE: pidFile },
      signal: controller.signal,
      killGraceMs: 200,
    });
    const [grandchild, child] = (await waitForFile(pidFile)).trim().split(' ').map(Number) as [number, number];
    expect(isAlive(grandchild, true)).toBe(true);
    controller.abort(new Error('timed out after 5 ms'));
    await expect(run).rejects.toThrow('timed out after 5 ms');
    expect(await waitGone(child)).toBe(true);
    expect(await waitGone(grandchild, true)).toBe(true);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(runProcess({ ...base, file: 'sh', args: ['-c', 'true'], signal: controller.signal })).rejects.toThrow('aborted');
  });
});
