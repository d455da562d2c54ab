/**
 * Issue 23, finding 1: the agent approves its own request by rewriting the
 * approvals table (`UPDATE approvals SET state='approved', answered_by='alice',
 * chained=2 WHERE state='pending'`). The chain decides, not the table: on both
 * stores the flipped row is ignored by get, wait, standing and the reconcile,
 * and reported by `hookwise approvals list` and `hookwise audit verify` (both
 * spawned, exit 1, naming the approval id).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { openApprovals, type ApprovalRequest } from '../../src/approvals/index.js';
import { queryAuditTrail, verifyAuditTrail } from '../../src/audit/index.js';
import { runCli } from '../cli/run-cli.js';
import { requirePostgres } from '../support/services.js';
import { postgresBackend, sqliteBackend, type Backend } from './backends.js';
import { slack } from '../support/slack.js';

const KEY = 'tampered-approvals-key-0123456789';
const pgUrl = await requirePostgres();
const backends: Backend[] = [sqliteBackend(), ...(pgUrl ? [postgresBackend(pgUrl)] : [])];
afterAll(async () => {
  for (const b of backends) await b.cleanup();
});

const ask = (overrides: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  sessionId: 'session-1',
  event: 'PreToolUse',
  tool: 'Bash',
  input: { command: 'npm publish' },
  reason: 'publishing needs a person',
  ...overrides,
});

const FLIP = `UPDATE approvals SET state = 'approved', answered_by = 'alice', answered_at = ?, scope = 'session', chained = 2 WHERE state = 'pending'`;

/** The answers the chain holds, as [id, decision, answeredBy]. */
async function answersIn(target: string): Promise<Array<[string, string | null, unknown]>> {
  return (await queryAuditTrail(target, { kind: 'approval' }))
    .filter((r) => (r.data as { action: string }).action === 'answer')
    .map((r) => [(r.data as { id: string }).id, r.decision, (r.data as { answeredBy: unknown }).answeredBy]);
}

const cli = (args: string[]) => runCli(args, { env: { HOOKWISE_AUDIT_KEY: KEY }, unset: ['HOOKWISE_AUDIT_DB', 'HOOKWISE_AUDIT_KEY_FILE'] });

describe.each(backends)('a flipped approvals row on $name', (backend) => {
  it(
    'is not believed by get, wait or standing, and is reported by approvals list and audit verify',
    async () => {
      const target = backend.fresh();
      const store = await openApprovals(target, { key: KEY, reconcileAfterMs: 0 });
      try {
        const asked = await store.request(ask({ expiresInMs: 60_000 }));
        const past = new Date(Date.now() - 60_000).toISOString();
        await backend.sql(target, FLIP, [past]);
        // The attack did change the table: a reader of the row alone would see an approval by alice.
        expect(await backend.sql(target, 'SELECT state, answered_by FROM approvals WHERE id = ?', [asked.id])).toEqual([
          { state: 'approved', answered_by: 'alice' },
        ]);

        const got = await store.get(asked.id);
        expect(got).toMatchObject({ id: asked.id, state: 'pending', answeredBy: null, scope: 'once' });
        expect(got!.disagreement).toContain(`approval ${asked.id}: the approvals row (changed outside hookwise) says approved by alice`);
        expect(await store.standing({ sessionId: 'session-1', tool: 'Bash', input: { command: 'npm publish' } })).toBeNull();
        // The reconcile (on open, on list) never writes the forged answer into the chain.
        expect(await store.reconcile()).toBe(0);
        expect(await answersIn(target)).toEqual([]);

        const list = await cli(['approvals', 'list', '--audit', target]);
        expect(list.code).toBe(1);
        expect(list.stdout).toContain(`${asked.id}`);
        expect(list.stdout).toMatch(/1 pending approval\n$/);
        expect(list.stderr).toContain(
          `hookwise: approval ${asked.id}: the approvals row (changed outside hookwise) says approved by alice`,
        );

        const verify = await cli(['audit', 'verify', '--audit', target, '--no-anchor']);
        expect(verify.code).toBe(1);
        expect(verify.stdout).toMatch(
          new RegExp(`^approval seq 1: approval ${asked.id}: the approvals row \\(changed outside hookwise\\) says approved by alice`, 'm'),
        );

        // A person still answers it, and that answer is what stands.
        expect(await store.answer(asked.id, { decision: 'deny', by: 'bob' })).toMatchObject({ ok: true, approval: { state: 'denied' } });
        expect(await store.wait(asked.id, { pollMs: 5 })).toMatchObject({ state: 'denied', answeredBy: 'bob' });
        expect(await answersIn(target)).toEqual([[asked.id, 'denied', 'bob']]);
        expect(await verifyAuditTrail(target, { key: KEY, anchor: false })).toMatchObject({ ok: true, problems: [] });
      } finally {
        await store.close();
      }
    },
    slack(120_000),
  );

  it(
    'after the flip, wait resolves with what the chain decides (the expiry), never the forged approval',
    async () => {
      const target = backend.fresh();
      const store = await openApprovals(target, { key: KEY, reconcileAfterMs: 0 });
      try {
        const asked = await store.request(ask({ expiresInMs: 400, onExpiry: 'deny' }));
        await backend.sql(target, FLIP, [new Date().toISOString()]);
        const decided = await store.wait(asked.id, { pollMs: 5 });
        expect(decided).toMatchObject({ state: 'expired', answeredBy: 'expiry', onExpiry: 'deny' });
        expect(await answersIn(target)).toEqual([[asked.id, 'expired', 'expiry']]);
      } finally {
        await store.close();
      }
    },
    slack(60_000),
  );

  it(
    'a signed answer copied from another approval onto the agent own row is not believed',
    async () => {
      const target = backend.fresh();
      const store = await openApprovals(target, { key: KEY });
      try {
        const real = await store.request(ask());
        await store.answer(real.id, { decision: 'approve', by: 'alice', scope: 'session' });
        // The agent copies alice's signed approval onto its own pending request (same mac, other id).
        const own = await store.request(ask({ toolUseId: 'toolu_2', input: { command: 'rm -rf /' } }));
        const [signed] = await backend.sql(target, 'SELECT state, answered_by, answered_at, scope, mac FROM approvals WHERE id = ?', [
          real.id,
        ]);
        await backend.sql(
          target,
          'UPDATE approvals SET state = ?, answered_by = ?, answered_at = ?, scope = ?, mac = ?, chained = 2 WHERE id = ?',
          [signed!.state, signed!.answered_by, signed!.answered_at, signed!.scope, signed!.mac, own.id],
        );
        expect(await store.get(own.id)).toMatchObject({ state: 'pending', disagreement: expect.stringContaining(own.id) });
        expect(await store.standing({ sessionId: 'session-1', tool: 'Bash', input: { command: 'rm -rf /' } })).toBeNull();
        // The genuine standing approval still stands.
        expect(await store.standing({ sessionId: 'session-1', tool: 'Bash', input: { command: 'npm publish' } })).toMatchObject({
          id: real.id,
        });
      } finally {
        await store.close();
      }
    },
    slack(60_000),
  );
});
