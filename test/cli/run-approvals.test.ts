import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, WireServer } from '../providers/wire-server.js';
import { completion, toolCall } from './chat-completion.js';
import { cliPath, runCli } from './run-cli.js';

const writeCall = (id: string, file: string) => toolCall(id, 'Write', { file_path: file, content: 'shipped\n' });

const server = new WireServer(json(200, completion({ content: 'Done.' }, 'stop')));
const workspace = mkdtempSync(path.join(os.tmpdir(), 'hookwise-run-approvals-'));
beforeAll(() => server.start());
afterAll(async () => {
  await server.stop();
  rmSync(workspace, { recursive: true, force: true });
});

/** Polls `hookwise approvals list --json` until a pending approval shows up (the run is waiting on it). */
async function pendingApproval(db: string): Promise<{ id: string; tool: string; input: Record<string, unknown> }> {
  for (;;) {
    const listed = await runCli(['approvals', 'list', '--json', '--audit', db]);
    if (listed.code === 0) {
      const rows = JSON.parse(listed.stdout) as Array<{ id: string; tool: string; input: Record<string, unknown> }>;
      if (rows.length > 0) return rows[0]!;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('hookwise run --approvals', () => {
  it('waits on a durable approval that `hookwise approvals approve` answers from another process; the note reaches the model', async () => {
    writeFileSync(
      path.join(workspace, 'hookwise.config.mjs'),
      `import { ask } from 'hookwise';\nexport default { hooks: [{ name: 'release-gate', events: 'PreToolUse', matcher: 'Write', handler: () => ask('writing RELEASE needs a person') }] };\n`,
    );
    server
      .next(json(200, completion({ content: 'Releasing.', tool_calls: [writeCall('call_1', 'RELEASE')] }, 'tool_calls')))
      .next(json(200, completion({ content: 'Released.' }, 'stop')));
    const db = path.join(workspace, 'audit.db');
    const run = spawn(
      process.execPath,
      [cliPath, 'run', '--approvals', '--model', 'openai:local-model', '--base-url', `${server.url}/v1`, '--db', db, 'Release it.'],
      {
        cwd: workspace,
        env: { ...process.env, OPENAI_API_KEY: 'sk-local', NO_COLOR: '1' },
      },
    );
    let stdout = '';
    let stderr = '';
    run.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    run.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => run.once('close', resolve));
    run.stdin.end();

    const pending = await pendingApproval(db);
    expect(pending.tool).toBe('Write');
    expect(pending.input).toMatchObject({ file_path: 'RELEASE' });
    // Nothing ran while the question was open.
    expect(() => readFileSync(path.join(workspace, 'RELEASE'))).toThrow();
    const approved = await runCli(['approvals', 'approve', pending.id, '--note', 'ship it after 5pm', '--as', 'alice', '--audit', db]);
    expect(approved.stderr).toBe('');
    expect(approved.code).toBe(0);

    expect(await exited).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toContain(`waiting for approval ${pending.id}`);
    expect(stdout).toMatch(new RegExp(`✓ Write approved by alice, approval ${pending.id}: ship it after 5pm`));
    expect(readFileSync(path.join(workspace, 'RELEASE'), 'utf8')).toBe('shipped\n');
    const second = server.requests[1]!.body as { messages: Array<{ role: string; content: string; tool_call_id?: string }> };
    const result = second.messages.find((m) => m.role === 'tool' && m.tool_call_id === 'call_1');
    expect(result?.content).toContain('ship it after 5pm');
    expect(result?.content).toContain('alice');

    // A second answer is refused and names the first.
    const late = await runCli(['approvals', 'deny', pending.id, '--note', 'too late', '--as', 'bob', '--audit', db]);
    expect(late.code).toBe(1);
    expect(late.stderr).toContain('alice');
    // The trail verifies with the approval's records in it.
    const verify = await runCli(['audit', 'verify', '--db', db]);
    expect(verify.code).toBe(0);
    const kinds = await runCli(['audit', 'list', '--db', db, '--json']);
    const rows = JSON.parse(kinds.stdout) as Array<{ kind: string; data: { action?: string; state?: string } }>;
    expect(rows.filter((r) => r.kind === 'approval').map((r) => [r.data.action, r.data.state])).toEqual([
      ['request', 'pending'],
      ['answer', 'approved'],
    ]);
  });
});
