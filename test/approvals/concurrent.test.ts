import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openApprovals, type AnswerResult } from '../../src/approvals/index.js';
import { queryAuditTrail, verifyAuditTrail } from '../../src/audit/index.js';
import { repoRoot } from '../cli/run-cli.js';
import { requirePostgres } from '../support/services.js';
import { postgresBackend, sqliteBackend, type Backend } from './backends.js';

// Two processes answer the same approvals at the same moment: exactly one answer
// stands for each, and the other process is told who gave it. Imports the built
// package: `npm run build` first (npm test does it).

const KEY = 'approvals-race-key-0123456789';
const DIST = pathToFileURL(path.join(repoRoot, 'dist', 'approvals', 'index.js')).href;
const pgUrl = await requirePostgres();
const backends: Backend[] = [sqliteBackend(), ...(pgUrl ? [postgresBackend(pgUrl)] : [])];
const scripts = mkdtempSync(path.join(tmpdir(), 'hookwise-approvals-race-'));
afterAll(async () => {
  rmSync(scripts, { recursive: true, force: true });
  for (const b of backends) await b.cleanup();
});

/** Opens the store, says `ready`, and on `go` answers every id as fast as it can; prints the results as one JSON line. */
const ANSWERER = `
import { openApprovals } from ${JSON.stringify(DIST)};
const [target, ids, name, decision] = process.argv.slice(2);
const store = await openApprovals(target, { key: ${JSON.stringify(KEY)} });
process.stdout.write('ready\\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const results = await Promise.all(ids.split(',').map((id) => store.answer(id, { decision, by: name, note: 'from ' + name })));
await store.close();
process.stdout.write(JSON.stringify(results) + '\\n');
`;

function answerer(
  script: string,
  args: string[],
): { child: ChildProcessWithoutNullStreams; ready: Promise<void>; done: Promise<AnswerResult[]> } {
  const child = spawn(process.execPath, [script, ...args], { stdio: 'pipe' });
  let out = '';
  let err = '';
  let onReady: () => void;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    if (out.startsWith('ready\n')) onReady();
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const done = new Promise<AnswerResult[]>((resolve, reject) =>
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`answerer exited ${code}: ${err}`));
      else resolve(JSON.parse(out.slice('ready\n'.length)) as AnswerResult[]);
    }),
  );
  return { child, ready, done };
}

describe.each(backends)('two processes answering at once on $name', (backend) => {
  it('exactly one answer wins each approval; the other process gets `answered` naming the winner', async () => {
    const target = backend.fresh();
    const store = await openApprovals(target, { key: KEY });
    const ids: string[] = [];
    try {
      for (let i = 0; i < 8; i++)
        ids.push(
          (await store.request({ sessionId: `race-${i % 2}`, event: 'PreToolUse', tool: 'Bash', input: { command: `step ${i}` } })).id,
        );
    } finally {
      await store.close();
    }
    const script = path.join(scripts, `answerer-${backend.name}.mjs`);
    writeFileSync(script, ANSWERER);
    const alice = answerer(script, [target, ids.join(','), 'alice', 'approve']);
    const bob = answerer(script, [target, ids.join(','), 'bob', 'deny']);
    await Promise.all([alice.ready, bob.ready]);
    alice.child.stdin.end('go\n');
    bob.child.stdin.end('go\n');
    const [fromAlice, fromBob] = await Promise.all([alice.done, bob.done]);

    for (const [i, id] of ids.entries()) {
      const a = fromAlice[i]!;
      const b = fromBob[i]!;
      expect([a.ok, b.ok].filter(Boolean)).toHaveLength(1);
      const [winner, loser] = a.ok ? [a, b] : [b, a];
      const name = a.ok ? 'alice' : 'bob';
      expect(winner).toMatchObject({
        ok: true,
        approval: { id, answeredBy: name, note: `from ${name}`, state: name === 'alice' ? 'approved' : 'denied' },
      });
      expect(loser).toMatchObject({ ok: false, why: 'answered', approval: { id, answeredBy: name } });
      expect(!loser.ok && loser.message).toContain(`by ${name}`);
    }

    const answers = (await queryAuditTrail(target, { kind: 'approval' })).filter((r) => (r.data as { action: string }).action === 'answer');
    expect(answers.map((r) => (r.data as { id: string }).id).sort()).toEqual([...ids].sort());
    expect(await verifyAuditTrail(target, { key: KEY })).toMatchObject({ ok: true, rows: 16, problems: [] });
  });
});
