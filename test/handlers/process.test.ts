import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
    const result = await runProcess({
      ...base,
      file: 'sh',
      args: ['-c', 'cat; echo err >&2; exit 3'],
      stdin: '{"a":1}',
      signal: new AbortController().signal,
    });
    expect(result).toEqual({
      exitCode: 3,
      signal: null,
      stdout: '{"a":1}',
      stderr: 'err\n',
      stdoutTruncated: false,
      stderrTruncated: false,
    });
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
    await expect(run).rejects.toMatchObject({ code: 'SPAWN', errno: 'ENOENT' });
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

  it('nothing the hook started outlives it: background, nohup, setsid and double-forked children', async () => {
    const pids = path.join(dir, 'escapees');
    const line = [
      `sleep 60 > /dev/null 2>&1 & echo $! >> ${pids}`,
      `nohup sleep 60 > /dev/null 2>&1 & echo $! >> ${pids}`,
      `setsid sleep 60 > /dev/null 2>&1 & echo $! >> ${pids}`,
      // A daemon: a setsid child that forks again and exits, so the sleep's parent is gone.
      `setsid sh -c 'sleep 60 > /dev/null 2>&1 & echo $! >> ${pids}' > /dev/null 2>&1`,
      `while [ $(wc -l < ${pids}) -lt 4 ]; do sleep 0.05; done`,
      'exit 0',
    ].join('\n');
    const result = await runProcess({ ...base, file: 'sh', args: ['-c', line], signal: new AbortController().signal });
    expect(result.exitCode).toBe(0);
    const started = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
    expect(started).toHaveLength(4);
    for (const pid of started) expect(await waitGone(pid, true)).toBe(true);
  });

  it('a hook that exited is settled at once, not when a grandchild lets go of its pipes', async () => {
    const pidFile = path.join(dir, 'holder');
    // The background sleep inherits stdout and stderr: the pipes stay open as long as it lives.
    const result = await runProcess({
      ...base,
      file: 'sh',
      args: ['-c', `sleep 60 & echo $! > ${pidFile}; echo answered`],
      exitDrainMs: 600_000,
      signal: new AbortController().signal,
    });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'answered\n' });
    expect(await waitGone(Number(readFileSync(pidFile, 'utf8')), true)).toBe(true);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(runProcess({ ...base, file: 'sh', args: ['-c', 'true'], signal: controller.signal })).rejects.toThrow('aborted');
  });
});
