import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAuditStore } from '../../src/audit/index.js';
import { cliPath, runCli, runProgram } from '../cli/run-cli.js';
import { sampleRecord, tempDir } from './helpers.js';
import { slack } from '../support/slack.js';

// `hookwise audit export` into a pipe whose reader is slow: a write then takes only
// part of what it is given, and every byte must still arrive, as whole JSON lines.
// A reader that goes away before the end is an error (exit 1), never exit 0.

const KEY = 'export-pipe-key-0123456789abcdef';
const RECORDS = 3000;
let dir: string;
let db: string;
let cleanup: () => void;
beforeAll(() => {
  ({ dir, cleanup } = tempDir());
  db = path.join(dir, 'audit.db');
  const store = openAuditStore({ path: db, key: KEY });
  for (let i = 0; i < RECORDS; i++) store.append(sampleRecord(i, { data: { i, padding: 'x'.repeat(100) } }));
  store.closeSync();
});
afterAll(() => cleanup());

/** Runs a bash pipeline. */
function sh(script: string) {
  return runProgram('bash', ['-c', script], { env: { HOOKWISE_AUDIT_KEY: KEY } });
}

describe('audit export into a pipe', { timeout: slack(120_000) }, () => {
  it('a reader that waits before reading still gets every byte, as whole lines', async () => {
    const out = path.join(dir, 'all.jsonl');
    const toFile = await runCli(['audit', 'export', '--db', db, '--out', out], { env: { HOOKWISE_AUDIT_KEY: KEY } });
    expect(toFile.code).toBe(0);
    const expected = readFileSync(out, 'utf8');
    expect(expected.split('\n').filter(Boolean)).toHaveLength(RECORDS);
    // The reader sleeps first: the pipe fills and each write takes only part of a chunk.
    const slow = path.join(dir, 'slow.jsonl');
    const run = await sh(
      `node ${JSON.stringify(cliPath)} audit export --db ${JSON.stringify(db)} | (sleep 1; cat > ${JSON.stringify(slow)})`,
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const got = readFileSync(slow, 'utf8');
    expect(got.length).toBe(expected.length);
    expect(got).toBe(expected);
  });

  it('a reader that goes away: exit 1 and the error says the export is incomplete', async () => {
    // head takes 10 bytes and closes the pipe; bash's PIPESTATUS holds the export's own exit.
    const run = await sh(
      `node ${JSON.stringify(cliPath)} audit export --db ${JSON.stringify(db)} | head -c 10 > /dev/null; exit \${PIPESTATUS[0]}`,
    );
    expect(run.stderr).toMatch(/audit export: cannot write to stdout after \d+ records were written \(EPIPE\); the export is incomplete/);
    expect(run.code).toBe(1);
  });
});
