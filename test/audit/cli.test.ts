import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAuditStore, queryAudit } from '../../src/audit/index.js';
import { sampleRecord, tamper, tempDir } from './helpers.js';
import { runCli, type CliResult } from '../cli/run-cli.js';

// Spawns the built CLI: `npm run build` first (npm test does it).
function hookwise(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<CliResult> {
  return runCli(args, { cwd: options.cwd, env: options.env, unset: ['HOOKWISE_AUDIT_DB'] });
}

let dir: string;
let cleanup: () => void;
/** The default database of `dir`: .hookwise/audit.db. */
let defaultDb: string;
beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  defaultDb = path.join(dir, '.hookwise', 'audit.db');
  const store = openAuditStore({ path: defaultDb });
  for (let i = 0; i < 12; i++) store.append(sampleRecord(i));
  await store.close();
});
afterAll(() => cleanup());

describe('hookwise audit (list)', () => {
  it('lists the default database as a table', async () => {
    const run = await hookwise(['audit'], { cwd: dir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^seq +time +session +kind +event +decision +tool +detail$/);
    expect(lines).toHaveLength(14);
    expect(lines[1]).toBe('1    2026-01-01T00:00:00.000Z  session-0  outcome  PreToolUse  deny      Bash  record 0');
    expect(lines.at(-1)).toBe('12 records');
  });

  it('filters, and prints JSON with --json', async () => {
    const run = await hookwise(
      ['audit', '--db', defaultDb, '--session', 'session-1', '--event', 'PreToolCall', '--tool', 'Read', '--json'],
      { cwd: '/' },
    );
    expect(run.code).toBe(0);
    const rows = JSON.parse(run.stdout) as Array<{ seq: number }>;
    expect(rows.map((r) => r.seq)).toEqual([4, 6, 10, 12]);
    const some = await hookwise(['audit', 'list', '--decision', 'deny', '--since', '2026-01-01T00:00:01Z', '--limit', '1', '--json'], {
      cwd: dir,
    });
    expect((JSON.parse(some.stdout) as Array<{ seq: number }>).map((r) => r.seq)).toEqual([7]);
  });

  it('finds the database through HOOKWISE_AUDIT_DB', async () => {
    const run = await hookwise(['audit', '--kind', 'tool', '--json'], { cwd: '/', env: { HOOKWISE_AUDIT_DB: defaultDb } });
    expect((JSON.parse(run.stdout) as unknown[]).length).toBe(4);
  });

  it('says in one line when the database is missing or a filter is wrong', async () => {
    const empty = tempDir();
    try {
      const run = await hookwise(['audit'], { cwd: empty.dir });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        `hookwise: no audit database at ${path.join(empty.dir, '.hookwise', 'audit.db')} (run an agent first, or pass --db PATH or set HOOKWISE_AUDIT_DB)\n`,
      );
      const verify = await hookwise(['audit', 'verify', '--db', 'nope.db'], { cwd: empty.dir });
      expect(verify.code).toBe(1);
      expect(verify.stderr).toBe(
        `hookwise: no audit database at ${path.join(empty.dir, 'nope.db')} (run an agent first, or pass --db PATH or set HOOKWISE_AUDIT_DB)\n`,
      );
    } finally {
      empty.cleanup();
    }
    const bad = await hookwise(['audit', '--since', 'yesterday'], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('hookwise: --since must be an ISO 8601 time such as 2026-01-31T12:00:00Z, got "yesterday"\n');
    const typo = await hookwise(['audit', 'export', '--decision', 'denied'], { cwd: dir });
    expect(typo.code).toBe(1);
    expect(typo.stderr).toBe('hookwise: --decision must be allow, deny, ask, defer or none, got "denied"\n');
  });
});

describe('hookwise audit export', () => {
  it('writes JSON Lines to stdout, or to --out', async () => {
    const run = await hookwise(['audit', 'export', '--decision', 'deny'], { cwd: dir });
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual(queryAudit(defaultDb, { decision: 'deny' }));

    mkdirSync(path.join(dir, 'out'), { recursive: true });
    const out = path.join(dir, 'out', 'all.jsonl');
    const toFile = await hookwise(['audit', 'export', '--out', out], { cwd: dir });
    expect(toFile.code).toBe(0);
    expect(toFile.stdout).toBe('');
    expect(
      readFileSync(out, 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).seq),
    ).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });
});

describe('hookwise audit verify', () => {
  it('prints ok with the row count and exits 0', async () => {
    const run = await hookwise(['audit', 'verify'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^ok: 12 rows, chain intact \\(${defaultDb.replace(/[.]/g, '\\.')}, head [0-9a-f]{16}\\)\\n$`));
  });

  it('names the edited row and exits 1', async () => {
    const copy = tempDir();
    try {
      const file = path.join(copy.dir, 'audit.db');
      const store = openAuditStore({ path: file });
      for (let i = 0; i < 6; i++) store.append(sampleRecord(i));
      await store.close();
      tamper(file, `UPDATE audit_log SET data = json_set(data, '$.reason', 'nothing to see') WHERE seq = 3`);
      const run = await hookwise(['audit', 'verify', '--db', file], { cwd: copy.dir });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe(
        'edited seq 3: seq 3 (PreToolUse, tool Bash, session session-0) was edited: its hash does not match its content\n' +
          `FAILED: 1 problem in 6 rows (${file})\n`,
      );
      const json = await hookwise(['audit', 'verify', '--db', file, '--json'], { cwd: copy.dir });
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stdout)).toMatchObject({
        ok: false,
        rows: 6,
        problems: [{ seq: 3, kind: 'edited', event: 'PreToolUse', tool: 'Bash' }],
      });
    } finally {
      copy.cleanup();
    }
  });
});
