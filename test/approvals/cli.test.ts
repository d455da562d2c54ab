import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApprovals, type Approval, type ApprovalRequest } from '../../src/approvals/index.js';
import { repoRoot, runCli, type CliResult } from '../cli/run-cli.js';
import { requirePostgres } from '../support/services.js';
import { postgresBackend } from './backends.js';
import { slack } from '../support/slack.js';

// Spawns the built CLI: `npm run build` first (npm test does it).

function hookwise(args: string[], cwd: string): Promise<CliResult> {
  return runCli(args, { cwd, unset: ['HOOKWISE_AUDIT_DB', 'HOOKWISE_AUDIT_KEY', 'HOOKWISE_AUDIT_KEY_FILE'] });
}

const ask = (overrides: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  sessionId: 'session-1',
  event: 'PreToolUse',
  tool: 'Bash',
  input: { command: 'npm publish' },
  hook: 'publish-guard',
  reason: 'publishing needs a person',
  ...overrides,
});

let dir: string;
/** The default database of `dir`: .hookwise/audit.db. */
let db: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'hookwise-approvals-cli-'));
  db = path.join(dir, '.hookwise', 'audit.db');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function request(target: string, ...requests: ApprovalRequest[]): Promise<Approval[]> {
  // PostgreSQL has no default key: approvals are signed with the one every replica is given.
  const store = await openApprovals(target, target.startsWith('postgres') ? { key: PG_KEY } : {});
  try {
    const made: Approval[] = [];
    for (const r of requests) made.push(await store.request(r));
    return made;
  } finally {
    await store.close();
  }
}

describe('hookwise approvals', () => {
  it('says in one line when there is no database, and never creates one', async () => {
    const run = await hookwise(['approvals'], dir);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `hookwise: no audit database at ${db} (run an agent first, or pass --db PATH or set HOOKWISE_AUDIT_DB)\n`,
    });
    expect(existsSync(db)).toBe(false);
    const bad = await hookwise(['approvals', 'list', '--state', 'done', '--db', 'x.db'], dir);
    expect(bad.stderr).toBe('hookwise: --state must be pending, approved, denied or expired, got "done"\n');
  });

  it(
    'lists pending approvals as a table, shows one, and answers them; a second answer names the first and exits 1',
    async () => {
      const [publish, write] = await request(db, ask(), ask({ sessionId: 'session-2', tool: 'Write', input: { file_path: '/etc/hosts' } }));

      const list = await hookwise(['approvals'], dir);
      expect(list.stderr).toBe('');
      expect(list.code).toBe(0);
      const lines = list.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^id +created +state +by +session +tool +input$/);
      expect(lines.slice(1, 3).map((l) => l.split(/ {2,}/))).toEqual([
        [write!.id, write!.createdAt, 'pending', '-', 'session-2', 'Write', '{"file_path":"/etc/hosts"}'],
        [publish!.id, publish!.createdAt, 'pending', '-', 'session-1', 'Bash', 'npm publish'],
      ]);
      expect(lines[3]).toBe('2 pending approvals');

      const show = await hookwise(['approvals', 'show', publish!.id], dir);
      expect(show.code).toBe(0);
      // Names padded to the longest present (`session:`, `created:`), then one space.
      const field = (name: string, value: string) => `${`${name}:`.padEnd(8)} ${value}`;
      expect(show.stdout).toBe(
        [
          field('id', publish!.id),
          field('state', `pending (expires ${publish!.expiresAt}, then deny)`),
          field('tenant', 'default'),
          field('session', 'session-1'),
          field('event', 'PreToolUse'),
          field('tool', 'Bash'),
          field('input', '{"command":"npm publish"}'),
          field('hook', 'publish-guard'),
          field('reason', 'publishing needs a person'),
          field('created', publish!.createdAt),
          '',
        ].join('\n'),
      );

      const approve = await hookwise(['approvals', 'approve', publish!.id, '--note', 'release day', '--as', 'alice', '--session'], dir);
      expect(approve).toEqual({
        code: 0,
        stdout: `approved ${publish!.id} (Bash: npm publish) as alice, for the rest of the session\n`,
        stderr: '',
      });
      const second = await hookwise(['approvals', 'deny', publish!.id, '--as', 'bob'], dir);
      expect(second.code).toBe(1);
      expect(second.stdout).toBe('');
      expect(second.stderr).toMatch(
        new RegExp(`^hookwise: approval ${publish!.id} was already approved by alice at \\S+ \\(note: release day\\)\\n$`),
      );

      // --as defaults to the OS user.
      const deny = await hookwise(['approvals', 'deny', write!.id, '--note', 'not that file', '--json'], dir);
      expect(deny.code).toBe(0);
      expect(JSON.parse(deny.stdout)).toMatchObject({
        ok: true,
        approval: { id: write!.id, state: 'denied', answeredBy: userInfo().username, note: 'not that file', scope: 'once' },
      });

      expect((await hookwise(['approvals'], dir)).stdout).toBe('0 pending approvals\n');
      const all = JSON.parse((await hookwise(['approvals', 'list', '--all', '--json'], dir)).stdout) as Approval[];
      expect(all.map((a) => [a.id, a.state, a.answeredBy, a.scope])).toEqual([
        [write!.id, 'denied', userInfo().username, 'once'],
        [publish!.id, 'approved', 'alice', 'session'],
      ]);
      const approved = JSON.parse((await hookwise(['approvals', 'list', '--state', 'approved', '--json'], dir)).stdout) as Approval[];
      expect(approved.map((a) => a.id)).toEqual([publish!.id]);
      const shown = await hookwise(['approvals', 'show', publish!.id], dir);
      expect(shown.stdout).toContain(`answered: ${all[1]!.answeredAt} by alice, for the rest of the session\nnote:     release day\n`);

      const missing = await hookwise(['approvals', 'approve', 'nope', '--as', 'alice'], dir);
      expect(missing).toEqual({ code: 1, stdout: '', stderr: 'hookwise: no approval "nope"\n' });
      const unknown = await hookwise(['approvals', 'show', 'nope'], dir);
      expect(unknown.stderr).toBe('hookwise: no approval "nope" (see `hookwise approvals list --all`)\n');

      // Every request and answer is in the chain, and `hookwise audit verify` says it is intact.
      const verify = await hookwise(['audit', 'verify'], dir);
      expect(verify.stdout).toMatch(/^ok: 4 rows, chain intact/);
      expect(verify.code).toBe(0);
      const records = JSON.parse((await hookwise(['audit', '--kind', 'approval', '--json'], dir)).stdout) as Array<{ decision: string }>;
      expect(records.map((r) => r.decision)).toEqual(['pending', 'pending', 'approved', 'denied']);
    },
    slack(120_000),
  );

  it('answers through a --policy file: a refusal names who may, and exits 1', async () => {
    const file = path.join(dir, 'policy.db');
    const [bash, read] = await request(file, ask(), ask({ tool: 'Read', input: { file_path: 'README.md' } }));
    const policy = path.join(dir, 'approvals.yaml');
    writeFileSync(policy, 'approvers:\n  - name: alice\n  - name: bob\n    tools: [Read]\nstanding: [Read]\n');

    const refused = await hookwise(['approvals', 'approve', bash!.id, '--db', file, '--policy', policy, '--as', 'bob'], dir);
    expect(refused).toEqual({ code: 1, stdout: '', stderr: 'hookwise: bob may not approve Bash (tenant "default"): only alice may\n' });
    const standing = await hookwise(
      ['approvals', 'approve', bash!.id, '--db', file, '--policy', policy, '--as', 'alice', '--session'],
      dir,
    );
    expect(standing.stderr).toBe(
      'hookwise: Bash may not be approved for the whole session (tenant "default"): only Read may; approve it once instead\n',
    );
    expect(
      (await hookwise(['approvals', 'approve', read!.id, '--db', file, '--policy', policy, '--as', 'bob', '--session'], dir)).code,
    ).toBe(0);

    writeFileSync(policy, 'approvers:\n  - name: alice\n    tools: []\n');
    const broken = await hookwise(['approvals', 'approve', bash!.id, '--db', file, '--policy', policy, '--as', 'alice'], dir);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toBe(
      `hookwise: ${policy}: approvers.0.tools: at least one tool glob; leave tools out to let this approver approve every tool\n`,
    );
  });

  it('releases a run waiting in another process as soon as the CLI answers', async () => {
    const file = path.join(dir, 'waiting.db');
    const script = path.join(dir, 'waiter.mjs');
    writeFileSync(
      script,
      `import { openApprovals } from ${JSON.stringify(pathToFileURL(path.join(repoRoot, 'dist', 'approvals', 'index.js')).href)};
const store = await openApprovals(${JSON.stringify(file)});
const asked = await store.request({ sessionId: 's', event: 'PreToolUse', tool: 'Bash', input: { command: 'make deploy' }, key: 's:toolu_1' });
process.stdout.write(asked.id + '\\n');
const answered = await store.wait(asked.id, { pollMs: 20 });
await store.close();
process.stdout.write(JSON.stringify(answered) + '\\n');
`,
    );
    const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const id = await new Promise<string>((resolve) =>
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        if (out.includes('\n')) resolve(out.split('\n')[0]!);
      }),
    );
    try {
      const approve = await hookwise(['approvals', 'approve', id, '--db', file, '--as', 'alice', '--note', 'ship it'], dir);
      expect(approve.code).toBe(0);
      expect(await exited).toBe(0);
    } finally {
      // Only if the answer never reached it: a waiter keeps its process alive.
      if (child.exitCode === null) child.kill();
    }
    expect(err).toBe('');
    expect(JSON.parse(out.split('\n')[1]!)).toMatchObject({ id, state: 'approved', answeredBy: 'alice', note: 'ship it' });
  });
});

const pgUrl = await requirePostgres();
const PG_KEY = 'approvals-cli-pg-key-0123456789';
describe.skipIf(pgUrl === undefined)('hookwise approvals --audit postgres://...', () => {
  const backend = postgresBackend(pgUrl ?? 'postgres://unused');
  afterAll(() => backend.cleanup());
  const hookwiseKeyed = (args: string[], cwd: string) =>
    runCli(args, { cwd, env: { HOOKWISE_AUDIT_KEY: PG_KEY }, unset: ['HOOKWISE_AUDIT_DB', 'HOOKWISE_AUDIT_KEY_FILE'] });

  it('lists and answers approvals in a PostgreSQL schema, and the trail verifies', async () => {
    const url = backend.fresh();
    const [a] = await request(url, ask({ tenant: 'acme' }));
    const list = JSON.parse((await hookwiseKeyed(['approvals', '--audit', url, '--json'], dir)).stdout) as Approval[];
    expect(list.map((x) => [x.id, x.tenant, x.state])).toEqual([[a!.id, 'acme', 'pending']]);
    const deny = await hookwiseKeyed(['approvals', 'deny', a!.id, '--audit', url, '--as', 'carol'], dir);
    expect(deny).toEqual({ code: 0, stdout: `denied ${a!.id} (Bash: npm publish) as carol\n`, stderr: '' });
    const again = await hookwiseKeyed(['approvals', 'approve', a!.id, '--audit', url, '--as', 'dave'], dir);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`was already denied by carol`);
    const verify = await hookwiseKeyed(['audit', 'verify', '--audit', url], dir);
    expect(verify.stdout).toMatch(/^ok: 2 rows, chain intact/);
  });
});
