import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { slack } from '../support/slack.js';
import { countAudit, installShutdownFlush, openAuditStore, verifyAudit } from '../../src/audit/index.js';
import { tempDir } from './helpers.js';

// The child imports dist/: `npm run build` first (npm test does it).
const FIXTURE = fileURLToPath(new URL('../fixtures/audit/append-loop.mjs', import.meta.url));
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});
function dbFile(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return path.join(t.dir, 'audit.db');
}

interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The running totals the child printed, in order. */
  totals: number[];
  /** The last total printed before the signal was sent. */
  beforeSignal: number;
  stderr: string;
}

/** Runs the fixture; with `signal`, sends it once the child has appended `after` records. */
function runChild(args: string[], signal?: NodeJS.Signals, after = 0): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FIXTURE, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const totals: number[] = [];
    let beforeSignal = -1;
    let partial = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop()!;
      for (const line of lines) totals.push(Number(line));
      if (signal && beforeSignal < 0 && (totals.at(-1) ?? 0) >= after) {
        beforeSignal = totals.at(-1)!;
        child.kill(signal);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, sig) => resolve({ code, signal: sig, totals, beforeSignal, stderr }));
  });
}

describe('stopping a process that is appending', () => {
  it('SIGTERM mid-way: exit 143, the database verifies and holds every record appended', async () => {
    const file = dbFile();
    const run = await runChild([file, 'signal'], 'SIGTERM', slack(20_000));
    expect(run.stderr).toBe('');
    expect(run.signal).toBeNull();
    expect(run.code).toBe(143);
    expect(run.beforeSignal).toBeGreaterThanOrEqual(20_000);
    const rows = countAudit(file);
    expect(rows).toBeGreaterThanOrEqual(run.beforeSignal);
    // Every batch the child reported was flushed, and nothing beyond what it appended.
    expect(rows).toBe(run.totals.at(-1));
    expect(verifyAudit(file)).toMatchObject({ ok: true, rows });
  });

  it('SIGINT mid-way: exit 130, nothing lost', async () => {
    const file = dbFile();
    const run = await runChild([file, 'signal'], 'SIGINT', 3_000);
    expect(run.code).toBe(130);
    expect(countAudit(file)).toBe(run.totals.at(-1));
    expect(verifyAudit(file).ok).toBe(true);
  });

  it('a process that simply ends flushes what is buffered', async () => {
    const file = dbFile();
    const run = await runChild([file, 'drain', '1234']);
    expect(run.code).toBe(0);
    expect(countAudit(file)).toBe(1234);
    expect(verifyAudit(file).ok).toBe(true);
  });

  it('process.exit() flushes what is buffered', async () => {
    const file = dbFile();
    const run = await runChild([file, 'exit', '4321']);
    expect(run.code).toBe(0);
    expect(countAudit(file)).toBe(4321);
  });
});

describe('installShutdownFlush', () => {
  const counts = () => ['SIGTERM', 'SIGINT', 'beforeExit', 'exit'].map((e) => process.listenerCount(e));

  it('adds its listeners and removes them on dispose', async () => {
    const before = counts();
    const store = openAuditStore({ path: dbFile() });
    const dispose = installShutdownFlush(store);
    expect(counts()).toEqual(before.map((n) => n + 1));
    dispose();
    dispose();
    expect(counts()).toEqual(before);
    await store.close();
  });

  it('removes them when the store closes', async () => {
    const before = counts();
    const store = openAuditStore({ path: dbFile() });
    installShutdownFlush(store, { signals: ['SIGTERM'] });
    expect(counts()).toEqual([before[0]! + 1, before[1], before[2]! + 1, before[3]! + 1]);
    await store.close();
    expect(counts()).toEqual(before);
  });
});
