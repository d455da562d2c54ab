import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAuditStore, queryAudit, verifyAudit } from '../../src/audit/index.js';
import { repoRoot, runCli, type CliResult } from '../cli/run-cli.js';
import { sampleRecord, tamper, tempDir } from './helpers.js';

// Rolling the chain back, losing its log, reading it where it cannot be written,
// and finding it locked: each through the built CLI or a spawned writer (`npm run build` first).

const DIST_AUDIT = pathToFileURL(path.join(repoRoot, 'dist', 'audit', 'index.js')).href;
const KEY = 'rollback-test-key-0123456789';

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  ({ dir, cleanup } = tempDir());
  // Other users (the read-only test runs as nobody when we are root) must reach the files below.
  chmodSync(dir, 0o755);
});
afterAll(() => cleanup());

function hookwise(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return runCli(args, { cwd: dir, env, unset: ['HOOKWISE_AUDIT_DB', 'HOOKWISE_AUDIT_KEY', 'HOOKWISE_AUDIT_KEY_FILE'] });
}

async function chain(name: string, rows: number, key?: string): Promise<string> {
  const file = path.join(dir, name, 'audit.db');
  const store = openAuditStore({ path: file, key });
  for (let i = 0; i < rows; i++) store.append(sampleRecord(i));
  await store.close();
  return file;
}

describe('a chain rolled back', () => {
  it('the last row deleted and audit_head rewritten to match: verify names the rollback and the unsigned head', async () => {
    const file = await chain('cut', 5);
    // The key the store made for itself, beside the database and private to its owner.
    expect(statSync(path.join(path.dirname(file), 'audit.key')).mode & 0o777).toBe(0o600);
    tamper(file, 'DELETE FROM audit_log WHERE seq = 5');
    tamper(file, `UPDATE audit_head SET seq = 4, hash = (SELECT hash FROM audit_log WHERE seq = 4)`);

    const run = await hookwise(['audit', 'verify', '--db', file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('rolled-back seq 5: the chain ends at seq 4 but the anchor says 5: row 5 was committed and is gone');
    expect(run.stdout).toContain('forged-head seq 4: the head (seq 4) is not signed with the audit key from');
    // The third: hookwise's own copy of the head, outside the workspace, says 5 too.
    expect(run.stdout).toMatch(/rolled-back seq 5: the chain ends at seq 4 but hookwise's own copy \S+ says 5/);
    expect(run.stdout).toMatch(/FAILED: 3 problems in 4 rows/);

    // The anchor file removed too: the head's MAC still gives it away.
    rmSync(`${file}.head`);
    const withoutAnchor = await hookwise(['audit', 'verify', '--db', file, '--no-anchor']);
    expect(withoutAnchor.code).toBe(1);
    expect(withoutAnchor.stdout).toMatch(/^forged-head seq 4: /);
    // And without --no-anchor, the missing anchor is a problem in itself.
    const missing = await hookwise(['audit', 'verify', '--db', file]);
    expect(missing.stdout).toContain(`anchor seq 4: no anchor file ${file}.head`);

    // A store will not write on top of a rolled-back chain (new rows would reuse the lost seqs).
    const again = await chain('cut-reopen', 3);
    tamper(again, 'DELETE FROM audit_log WHERE seq = 3');
    expect(() => openAuditStore({ path: again })).toThrow(/was rolled back: the chain ends at seq 2 but the anchor .* says 3/);
  });
});

/** Starts a writer that prints each acknowledged record; returns the lines once it is SIGKILLed after `ackedAtLeast`. */
function writeUntilKilled(file: string, mode: 'durable' | 'checkpointed' | 'flushed', ackedAtLeast: number): Promise<string[]> {
  const script = path.join(dir, `writer-${mode}.mjs`);
  writeFileSync(
    script,
    `import { openAuditStore } from ${JSON.stringify(DIST_AUDIT)};
const store = openAuditStore({ path: ${JSON.stringify(file)}, key: ${JSON.stringify(KEY)}, batchSize: 50, checkpointDurable: ${mode === 'checkpointed'} });
const record = (i, kind) => ({ kind, ts: new Date().toISOString(), sessionId: 's', tool: 'Bash', data: { i } });
if (${JSON.stringify(mode)} !== 'flushed') {
  for (let i = 0; ; i++) {
    store.append(record(i, 'outcome'));
    store.appendDurable(record(i, 'tool'));
    process.stdout.write(i + '\\n');
    await new Promise((r) => setTimeout(r, 2));
  }
} else {
  for (let i = 0; i < 200; i++) store.append(record(i, 'outcome'));
  await store.flush();
  process.stdout.write('flushed 200\\n');
  setInterval(() => {}, 1000);
}
`,
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.split('\n').length - 1 >= ackedAtLeast) child.kill('SIGKILL');
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (_code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`writer ended by itself: ${err}`));
      // Only whole lines were acknowledged.
      else resolve(out.split('\n').slice(0, -1));
    });
  });
}

function loseTheLog(file: string): void {
  expect(existsSync(`${file}-wal`)).toBe(true);
  rmSync(`${file}-wal`);
  rmSync(`${file}-shm`, { force: true });
}

describe('the write-ahead log deleted after a SIGKILL', () => {
  it('detects acknowledged durable records that were only in the lost log (the default)', async () => {
    const file = path.join(dir, 'durable', 'audit.db');
    mkdirSync(path.dirname(file));
    const acked = (await writeUntilKilled(file, 'durable', 60)).map(Number);
    expect(acked.length).toBeGreaterThanOrEqual(60);
    loseTheLog(file);
    // One writer: record i's outcome is seq 2i+1 and its tool record seq 2i+2; the anchor was written before each acknowledgement.
    const lastAcked = 2 * Math.max(...acked) + 2;
    const present = queryAudit(file).length;
    // 60 small records never fill the log enough for SQLite to checkpoint it by itself: they were all in it.
    expect(present).toBe(0);
    const result = verifyAudit(file, { key: KEY });
    const rolledBack = result.problems.find((p) => p.kind === 'rolled-back');
    const anchored = Number(/but the anchor says (\d+)/.exec(rolledBack?.message ?? '')?.[1]);
    expect(rolledBack?.message).toMatch(/^the chain ends at seq 0 but the anchor says \d+/);
    expect(anchored).toBeGreaterThanOrEqual(lastAcked);
  });

  it('with checkpointDurable, keeps every acknowledged durable record: it is in the database file before appendDurable returns', async () => {
    const file = path.join(dir, 'checkpointed', 'audit.db');
    mkdirSync(path.dirname(file));
    const acked = (await writeUntilKilled(file, 'checkpointed', 60)).map(Number);
    expect(acked.length).toBeGreaterThanOrEqual(60);
    loseTheLog(file);
    const tools = queryAudit(file, { kind: 'tool' }).map((r) => (r.data as { i: number }).i);
    for (const i of acked) expect(tools).toContain(i);
    const result = verifyAudit(file, { key: KEY });
    expect(result.problems).toEqual([]);
  });

  it('detects flushed records that were only in the lost log: the anchor says where the chain ended', async () => {
    const file = path.join(dir, 'flushed', 'audit.db');
    mkdirSync(path.dirname(file));
    expect(await writeUntilKilled(file, 'flushed', 1)).toEqual(['flushed 200']);
    loseTheLog(file);
    const run = await hookwise(['audit', 'verify', '--db', file], { HOOKWISE_AUDIT_KEY: KEY });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^rolled-back seq 1: the chain ends at seq 0 but the anchor says 200: rows 1-200 were committed and are gone/,
    );
    expect(() => openAuditStore({ path: file, key: KEY })).toThrow(/was rolled back: the chain ends at seq 0 but the anchor .* says 200/);
  });
});

describe('a read-only copy', () => {
  it('verifies and lists where nothing can be written (file 0444 in a 0555 folder), and a writer says it is read-only', async () => {
    const source = await chain('ro-source', 6, KEY);
    const copyDir = path.join(dir, 'ro-copy');
    mkdirSync(copyDir);
    const copy = path.join(copyDir, 'audit.db');
    copyFileSync(source, copy);
    copyFileSync(`${source}.head`, `${copy}.head`);
    chmodSync(copy, 0o444);
    chmodSync(`${copy}.head`, 0o444);
    chmodSync(copyDir, 0o555);
    // root ignores file modes: run as nobody then, as a user without write access would be.
    const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const run = (args: string[]) =>
      new Promise<CliResult>((resolve, reject) => {
        const child = spawn(process.execPath, args, {
          cwd: '/',
          env: { ...process.env, NO_COLOR: '1', HOOKWISE_AUDIT_KEY: KEY },
          ...asUser,
        });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
        child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
    try {
      const cli = path.join(repoRoot, 'bin', 'hookwise.js');
      const verify = await run([cli, 'audit', 'verify', '--db', copy]);
      expect(verify.stderr).toBe('');
      expect(verify.stdout).toMatch(/^ok: 6 rows, chain intact/);
      expect(verify.code).toBe(0);
      const list = await run([cli, 'audit', 'list', '--db', copy]);
      expect(list.stdout).toContain('6 records');
      const writer = await run([
        '--input-type=module',
        '-e',
        `import { openAuditStore } from ${JSON.stringify(DIST_AUDIT)}; openAuditStore({ path: ${JSON.stringify(copy)} });`,
      ]);
      expect(writer.code).not.toBe(0);
      expect(writer.stderr).toContain(`audit database ${copy} is read-only`);
    } finally {
      chmodSync(copyDir, 0o755);
    }
  });
});

describe('a locked database', () => {
  it('says it is locked by another process, not that it is not an audit database', async () => {
    const file = await chain('locked', 3);
    const locker = new Database(file);
    try {
      locker.pragma('locking_mode = EXCLUSIVE');
      locker.exec('BEGIN EXCLUSIVE');
      for (const args of [
        ['audit', 'verify', '--db', file],
        ['audit', 'list', '--db', file],
        ['audit', 'coverage', '--db', file],
      ]) {
        const run = await hookwise(args);
        expect(run.code).toBe(1);
        expect(run.stderr).toBe(
          `hookwise: audit database ${file} is locked by another process (waited 500 ms); try again when that process has finished writing\n`,
        );
      }
    } finally {
      locker.exec('COMMIT');
      locker.close();
    }
    expect(readFileSync(`${file}.head`, 'utf8')).toContain('"seq":3');
  });
});
