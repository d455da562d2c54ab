import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { cliPath, repoRoot, runCli } from './run-cli.js';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'hookwise-demo-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Lines of the timeline that announce one fired event (`PreToolUse   Bash rm -rf ~/`). */
const EVENT_LINE =
  /^(SessionStart|UserPromptSubmit|PreToolUse|PostToolUse|PostToolUseFailure|Stop|SubagentStart|SubagentStop|PreCompact|PostCompact|StepStart|StepEnd|PreModelCall|PostModelCall|PostToolBatch|Checkpoint|Notification|PermissionRequest|SessionEnd)\s/gm;

/**
 * The timeline's entries for events whose header line matches: the header and the
 * indented lines under it (hooks, verdict, notes), each joined into one line as the
 * terminal wrapped it.
 */
function entries(output: string, header: RegExp): string[] {
  const lines = output.split('\n');
  const found: string[] = [];
  lines.forEach((line, at) => {
    if (!header.test(line)) return;
    const body = [];
    for (let k = at + 1; k < lines.length && lines[k]!.startsWith('    '); k++) body.push(lines[k]!.trim());
    found.push([line.trim(), ...body].join(' '));
  });
  return found;
}
const entry = (output: string, header: RegExp) => entries(output, header)[0] ?? '';

describe('hookwise demo (the main job)', () => {
  const db = path.join(scratch, 'audit.db');
  let output = '';

  it('runs the scripted session to the end, exits 0, and its audit database verifies', async () => {
    const r = await runCli(['demo', '--db', db, '--workspace', scratch], { cwd: scratch });
    output = r.stdout;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // What the hooks did, as the timeline shows it.
    expect(entry(output, /^PreToolUse\s+Bash rm -rf ~\/$/)).toMatch(/guard:shell:deny.*outside the workspace/);
    expect(entry(output, /^PreToolUse\s+Write \/etc\/invoice-calc\.conf$/)).toMatch(/guard:path:deny/);
    expect(output).toMatch(/guard:secret:deny/);
    expect(entry(output, /^PostToolUse\s+Read config\/deploy\.json$/)).toMatch(/guard:secret:output:modify.*rewritten/);
    expect(output).toMatch(/package-lock\.json is generated/);
    expect(output).toMatch(/SubagentStart/);
    expect(entries(output, /^Stop\s*$/).some((e) => /tests-before-done:block/.test(e))).toBe(true);
    // Every line fits an 80-column terminal (the width when stdout is not a terminal).
    expect(output.split('\n').filter((l) => l.length > 80)).toEqual([]);
    expect(output).toMatch(/transcript compacted/);
    expect(output).not.toContain('sk-proj-Demo0nly');
    // The summary table and the audit path.
    expect(output).toMatch(/\| {3}denied or blocked +\| [1-9]\d* +\|/);
    expect(output).toMatch(/\| agent stopped because +\| end_turn +\|/);
    expect(output).toContain(`| audit database        | ${db}`);
    expect(output).toMatch(/\| audit chain +\| verified, \d+ rows/);

    const verify = await runCli(['audit', 'verify', '--db', db]);
    expect(verify.code).toBe(0);
  });

  it('`audit verify` fails naming the row after one row is edited', async () => {
    const handle = new Database(db);
    const triggers = handle.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").all() as Array<{ name: string }>;
    for (const { name } of triggers) handle.exec(`DROP TRIGGER ${name}`);
    const row = handle.prepare("SELECT seq, data FROM audit_log WHERE kind = 'tool' ORDER BY seq LIMIT 1").get() as {
      seq: number;
      data: string;
    };
    handle.prepare('UPDATE audit_log SET data = ? WHERE seq = ?').run(row.data.replace('README.md', 'HACKED.md'), row.seq);
    handle.close();
    const verify = await runCli(['audit', 'verify', '--db', db]);
    expect(verify.code).toBe(1);
    expect(verify.stdout + verify.stderr).toMatch(new RegExp(`\\b${row.seq}\\b[^\\n]*edited|edited[^\\n]*\\b${row.seq}\\b`));
  });
});

describe('hookwise demo stopped with SIGTERM', () => {
  it('keeps every record written before the signal, and the database verifies', async () => {
    const db = path.join(scratch, 'killed.db');
    const child = spawn(process.execPath, [cliPath, 'demo', '--db', db, '--workspace', scratch], {
      cwd: repoRoot,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    const killedAt = new Promise<string>((resolve) => {
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        // The Edit waits on a slow policy hook: the signal lands in the middle of the session.
        if (stdout.includes('Rounding the total') && !child.killed) {
          child.kill('SIGTERM');
          resolve(stdout);
        }
      });
    });
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('close', (code, signal) => resolve({ code, signal })),
    );
    const printed = await killedAt;
    const { code, signal } = await exit;
    expect(code === 143 || signal === 'SIGTERM').toBe(true);
    expect(stdout).not.toMatch(/agent stopped because/);

    const verify = await runCli(['audit', 'verify', '--db', db, '--json']);
    expect(verify.code).toBe(0);
    const handle = new Database(db, { readonly: true });
    const outcomes = (handle.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE kind = 'outcome'").get() as { n: number }).n;
    handle.close();
    const shownBeforeSignal = printed.match(EVENT_LINE)?.length ?? 0;
    expect(shownBeforeSignal).toBeGreaterThan(3);
    expect(outcomes).toBeGreaterThanOrEqual(shownBeforeSignal);
  });
});
