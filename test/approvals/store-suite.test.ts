import { afterAll, describe, expect, it } from 'vitest';
import {
  ApprovalChainError,
  ApprovalNotFoundError,
  decisionOf,
  openApprovals,
  type AnyApprovalStore,
  type ApprovalPolicy,
  type ApprovalRequest,
  type OpenApprovalsOptions,
} from '../../src/approvals/index.js';
import { signRow, type ApprovalRow } from '../../src/audit/approval-record.js';
import { openAuditStore, queryAuditTrail, verifyAuditTrail, type AuditRow } from '../../src/audit/index.js';
import { requirePostgres } from '../support/services.js';
import { postgresBackend, sqliteBackend, type Backend } from './backends.js';

/**
 * One suite, both stores: what the runtime, serve and the CLI rely on (requests,
 * idempotent keys, answers, expiry, waiting, standing permissions, the policy, the
 * audit chain and its catch-up after a crash) must not depend on where it is stored.
 */
const KEY = 'approvals-suite-key-0123456789';
const ROW_COLUMNS =
  'id, key, tenant, session_id, event, tool, input, tool_use_id, hook, reason, created_at, expires_at, on_expiry, state, answered_by, answered_at, note, scope, chained, mac';
const pgUrl = await requirePostgres();
const backends: Backend[] = [sqliteBackend(), ...(pgUrl ? [postgresBackend(pgUrl)] : [])];
afterAll(async () => {
  for (const b of backends) await b.cleanup();
});

const ask = (overrides: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  sessionId: 'session-1',
  event: 'PreToolUse',
  tool: 'Bash',
  input: { command: 'npm publish', cwd: '/work' },
  toolUseId: 'toolu_1',
  hook: 'publish-guard',
  reason: 'publishing needs a person',
  ...overrides,
});

/** The `approval` records of the trail, as [action, decision, id]. */
async function chainOf(target: string): Promise<Array<[string, string | null, string]>> {
  const rows: AuditRow[] = await queryAuditTrail(target, { kind: 'approval' });
  return rows.map((r) => {
    const data = r.data as { action: string; id: string };
    return [data.action, r.decision, data.id];
  });
}

/** Resolves once the clock has passed `iso`: the deadline is due, whatever the machine's speed. */
async function until(iso: string): Promise<void> {
  while (Date.now() <= Date.parse(iso)) await new Promise((r) => setImmediate(r));
}

describe.each(backends)('approvals on $name', (backend) => {
  const open = (target: string, options: OpenApprovalsOptions = {}) => openApprovals(target, { key: KEY, ...options });
  /** A writer that crashed after its UPDATE left the row signed with the key (the store signs every row it writes). */
  async function signAsItsWriter(target: string, id: string): Promise<void> {
    const [row] = await backend.sql(target, `SELECT ${ROW_COLUMNS} FROM approvals WHERE id = ?`, [id]);
    const signed = signRow(Buffer.from(KEY), row as unknown as ApprovalRow);
    await backend.sql(target, 'UPDATE approvals SET mac = ? WHERE id = ?', [signed.mac, id]);
  }
  async function withStore<T>(options: OpenApprovalsOptions, use: (store: AnyApprovalStore, target: string) => Promise<T>): Promise<T> {
    const target = backend.fresh();
    const store = await open(target, options);
    try {
      return await use(store, target);
    } finally {
      await store.close();
    }
  }

  it('stores a request as pending, reads it back, and lists newest first with filters', async () => {
    await withStore({}, async (store) => {
      const first = await store.request(ask());
      expect(first).toMatchObject({
        key: null,
        tenant: 'default',
        sessionId: 'session-1',
        event: 'PreToolUse',
        tool: 'Bash',
        input: { command: 'npm publish', cwd: '/work' },
        toolUseId: 'toolu_1',
        hook: 'publish-guard',
        reason: 'publishing needs a person',
        onExpiry: 'deny',
        state: 'pending',
        answeredBy: null,
        answeredAt: null,
        note: null,
        scope: 'once',
      });
      expect(first.id).toMatch(/^[0-9a-z]{12}$/);
      expect(Date.parse(first.expiresAt) - Date.parse(first.createdAt)).toBe(10 * 60_000);
      expect(await store.get(first.id)).toEqual(first);
      expect(await store.get('nope')).toBeNull();

      const second = await store.request(ask({ sessionId: 'session-2', tenant: 'acme', tool: 'Write', input: { file_path: 'x' } }));
      const third = await store.request(ask({ sessionId: 'session-2', tenant: 'acme' }));
      expect((await store.list()).map((a) => a.id)).toEqual([third.id, second.id, first.id]);
      expect((await store.list({ tenant: 'acme' })).map((a) => a.id)).toEqual([third.id, second.id]);
      expect((await store.list({ sessionId: 'session-1' })).map((a) => a.id)).toEqual([first.id]);
      expect((await store.list({ limit: 1 })).map((a) => a.id)).toEqual([third.id]);
      expect(await store.list({ state: 'approved' })).toEqual([]);
    });
  });

  it('refuses a malformed request with the field and the fix', async () => {
    await withStore({}, async (store) => {
      await expect(store.request({ ...ask(), sessionId: '' })).rejects.toThrow(/request\.sessionId must be a non-empty string/);
      await expect(store.request(ask({ expiresInMs: 0 }))).rejects.toThrow(/request\.expiresInMs must be a whole number of milliseconds/);
      await expect(store.request(ask({ input: [] as unknown as Record<string, unknown> }))).rejects.toThrow(
        /request\.input must be a plain object/,
      );
      await expect(store.answer('x', { decision: 'maybe' as 'approve', by: 'a' })).rejects.toThrow(
        /answer\.decision must be 'approve' or 'deny'/,
      );
      await expect(store.answer('x', { decision: 'deny', by: 'expiry' })).rejects.toThrow(/reserved for expiries/);
      expect(await store.list({ state: undefined })).toEqual([]);
    });
  });

  it('is idempotent by key: asking again returns the same record, pending or answered, and chains it once', async () => {
    await withStore({}, async (store, target) => {
      const key = 'session-1:toolu_1';
      const first = await store.request(ask({ key }));
      const again = await store.request(ask({ key, reason: 'asked again after a restart' }));
      expect(again).toEqual(first);
      await store.answer(first.id, { decision: 'approve', by: 'alice' });
      const afterAnswer = await store.request(ask({ key }));
      expect(afterAnswer).toMatchObject({ id: first.id, state: 'approved', answeredBy: 'alice' });
      expect(await store.list({ state: undefined })).toHaveLength(1);
      expect(await chainOf(target)).toEqual([
        ['request', 'pending', first.id],
        ['answer', 'approved', first.id],
      ]);
    });
  });

  it('records approve and deny with their notes; the first answer wins and a second one is told who answered', async () => {
    await withStore({}, async (store) => {
      const a = await store.request(ask());
      const b = await store.request(ask({ toolUseId: 'toolu_2' }));
      const approved = await store.answer(a.id, { decision: 'approve', by: 'alice', note: 'release day' });
      expect(approved).toMatchObject({
        ok: true,
        approval: { id: a.id, state: 'approved', answeredBy: 'alice', note: 'release day', scope: 'once' },
      });
      expect(approved.ok && Date.parse(approved.approval.answeredAt!)).toBeGreaterThanOrEqual(Date.parse(a.createdAt));
      const denied = await store.answer(b.id, { decision: 'deny', by: 'bob', note: 'not from this branch' });
      expect(denied).toMatchObject({ ok: true, approval: { state: 'denied', answeredBy: 'bob', note: 'not from this branch' } });

      const late = await store.answer(a.id, { decision: 'deny', by: 'carol', note: 'too late' });
      expect(late).toMatchObject({ ok: false, why: 'answered', approval: { state: 'approved', answeredBy: 'alice', note: 'release day' } });
      expect(!late.ok && late.message).toMatch(
        new RegExp(`^approval ${a.id} was already approved by alice at .+ \\(note: release day\\)$`),
      );
      expect(await store.get(a.id)).toMatchObject({ state: 'approved', answeredBy: 'alice' });
      expect(await store.answer('missing', { decision: 'approve', by: 'alice' })).toMatchObject({ ok: false, why: 'not-found' });
      expect((await store.list({ state: 'denied' })).map((x) => x.id)).toEqual([b.id]);
    });
  });

  it('expires overdue requests with their default, by expiry: lazily on read, in wait, and through expireDue', async () => {
    await withStore({}, async (store, target) => {
      const lazy = await store.request(ask({ expiresInMs: 1, onExpiry: 'approve' }));
      await until(lazy.expiresAt);
      const read = await store.get(lazy.id);
      expect(read).toMatchObject({ state: 'expired', answeredBy: 'expiry', onExpiry: 'approve', scope: 'once' });
      expect(decisionOf(read!)).toBe('approve');
      expect(await store.answer(lazy.id, { decision: 'deny', by: 'alice' })).toMatchObject({ ok: false, why: 'answered' });

      const waited = await store.request(ask({ expiresInMs: 30 }));
      const result = await store.wait(waited.id, { pollMs: 5 });
      expect(result).toMatchObject({ id: waited.id, state: 'expired', answeredBy: 'expiry', onExpiry: 'deny' });
      expect(decisionOf(result)).toBe('deny');

      const later = await store.request(ask({ toolUseId: 'toolu_3' }));
      expect(await store.expireDue(new Date(Date.now() - 1000))).toEqual([]);
      const expired = await store.expireDue(new Date(Date.parse(later.expiresAt) + 1));
      expect(expired.map((a) => [a.id, a.state, a.answeredBy])).toEqual([[later.id, 'expired', 'expiry']]);
      expect(await store.list({ state: 'pending' })).toEqual([]);

      expect(await chainOf(target)).toEqual([
        ['request', 'pending', lazy.id],
        ['answer', 'expired', lazy.id],
        ['request', 'pending', waited.id],
        ['answer', 'expired', waited.id],
        ['request', 'pending', later.id],
        ['answer', 'expired', later.id],
      ]);
    });
  });

  it('takes the default expiry and onExpiry from the tenant policy when the request does not say', async () => {
    const policy = (tenant: string): ApprovalPolicy | undefined =>
      tenant === 'acme' ? { expiresInMs: 60_000, onExpiry: 'approve' } : undefined;
    await withStore({ policy }, async (store) => {
      const acme = await store.request(ask({ tenant: 'acme' }));
      expect(Date.parse(acme.expiresAt) - Date.parse(acme.createdAt)).toBe(60_000);
      expect(acme.onExpiry).toBe('approve');
      const own = await store.request(ask({ tenant: 'acme', expiresInMs: 5000, onExpiry: 'deny' }));
      expect([Date.parse(own.expiresAt) - Date.parse(own.createdAt), own.onExpiry]).toEqual([5000, 'deny']);
      const other = await store.request(ask());
      expect([Date.parse(other.expiresAt) - Date.parse(other.createdAt), other.onExpiry]).toEqual([600_000, 'deny']);
    });
  });

  it('wait resolves once another store answers, reporting progress meanwhile; an abort rejects with its reason', async () => {
    await withStore({}, async (store, target) => {
      const pending = await store.request(ask());
      const other = await open(target);
      const seen: number[] = [];
      let answered: Promise<unknown> | undefined;
      try {
        const approval = await store.wait(pending.id, {
          pollMs: 5,
          onWaiting: (a, waitedMs) => {
            expect(a.state).toBe('pending');
            seen.push(waitedMs);
            answered ??= other.answer(pending.id, { decision: 'approve', by: 'alice', note: 'go' });
          },
        });
        expect(approval).toMatchObject({ state: 'approved', answeredBy: 'alice', note: 'go' });
        expect(seen.length).toBeGreaterThan(0);
        expect(await answered).toMatchObject({ ok: true });
      } finally {
        await other.close();
      }

      const stuck = await store.request(ask({ toolUseId: 'toolu_9' }));
      const controller = new AbortController();
      const reason = new Error('run cancelled');
      const waiting = store.wait(stuck.id, { pollMs: 10_000, signal: controller.signal, onWaiting: () => controller.abort(reason) });
      await expect(waiting).rejects.toBe(reason);
      await expect(store.wait('missing')).rejects.toBeInstanceOf(ApprovalNotFoundError);
    });
  });

  it('a session-scoped approval stands for the same tool and input (in any key order) in that session only', async () => {
    await withStore({}, async (store) => {
      const a = await store.request(ask({ tenant: 'acme' }));
      expect(
        await store.standing({ tenant: 'acme', sessionId: 'session-1', tool: 'Bash', input: { command: 'npm publish', cwd: '/work' } }),
      ).toBeNull();
      await store.answer(a.id, { decision: 'approve', by: 'alice', scope: 'session' });
      const found = await store.standing({
        tenant: 'acme',
        sessionId: 'session-1',
        tool: 'Bash',
        input: { cwd: '/work', command: 'npm publish' },
      });
      expect(found).toMatchObject({ id: a.id, state: 'approved', scope: 'session' });
      for (const miss of [
        { tenant: 'acme', sessionId: 'session-1', tool: 'Bash', input: { command: 'npm publish --force', cwd: '/work' } },
        { tenant: 'acme', sessionId: 'session-1', tool: 'Write', input: { command: 'npm publish', cwd: '/work' } },
        { tenant: 'acme', sessionId: 'session-2', tool: 'Bash', input: { command: 'npm publish', cwd: '/work' } },
        { sessionId: 'session-1', tool: 'Bash', input: { command: 'npm publish', cwd: '/work' } },
      ])
        expect(await store.standing(miss)).toBeNull();

      // A once-only approval and a denial never stand (a denial is stored as once, whatever it asked).
      const once = await store.request(ask({ input: { command: 'ls' } }));
      await store.answer(once.id, { decision: 'approve', by: 'alice' });
      const no = await store.request(ask({ input: { command: 'rm -rf /' } }));
      const denied = await store.answer(no.id, { decision: 'deny', by: 'alice', scope: 'session' });
      expect(denied).toMatchObject({ ok: true, approval: { scope: 'once' } });
      expect(await store.standing({ sessionId: 'session-1', tool: 'Bash', input: { command: 'ls' } })).toBeNull();
      expect(await store.standing({ sessionId: 'session-1', tool: 'Bash', input: { command: 'rm -rf /' } })).toBeNull();
    });
  });

  it('answers through the policy: a refusal names who may, standing only for the tools allowed, denial by anyone', async () => {
    const policy: ApprovalPolicy = {
      approvers: [{ name: 'alice' }, { name: 'bob', tools: ['Read', 'mcp__github__*'] }],
      standing: ['Read'],
    };
    await withStore({ policy }, async (store) => {
      const bash = await store.request(ask());
      const refused = await store.answer(bash.id, { decision: 'approve', by: 'bob' });
      expect(refused).toEqual({
        ok: false,
        why: 'not-allowed',
        message: 'bob may not approve Bash (tenant "default"): only alice may',
        approval: expect.objectContaining({ id: bash.id, state: 'pending' }),
      });
      const mallory = await store.answer(bash.id, { decision: 'approve', by: 'mallory' });
      expect(!mallory.ok && mallory.message).toBe('mallory may not approve Bash (tenant "default"): only alice may');
      const standing = await store.answer(bash.id, { decision: 'approve', by: 'alice', scope: 'session' });
      expect(!standing.ok && standing.message).toBe(
        'Bash may not be approved for the whole session (tenant "default"): only Read may; approve it once instead',
      );
      expect(await store.get(bash.id)).toMatchObject({ state: 'pending' });
      expect(await store.answer(bash.id, { decision: 'approve', by: 'alice' })).toMatchObject({
        ok: true,
        approval: { answeredBy: 'alice' },
      });

      const github = await store.request(ask({ tool: 'mcp__github__create_pr', input: { title: 'x' } }));
      expect(await store.answer(github.id, { decision: 'approve', by: 'bob' })).toMatchObject({ ok: true });
      const read = await store.request(ask({ tool: 'Read', input: { file_path: 'README.md' } }));
      expect(await store.answer(read.id, { decision: 'approve', by: 'bob', scope: 'session' })).toMatchObject({
        ok: true,
        approval: { scope: 'session' },
      });
      const denied = await store.request(ask({ toolUseId: 'toolu_7' }));
      expect(await store.answer(denied.id, { decision: 'deny', by: 'mallory', note: 'looks wrong' })).toMatchObject({
        ok: true,
        approval: { state: 'denied', answeredBy: 'mallory' },
      });
    });
  });

  it('puts every request and answer into the audit hash chain, which verifies', async () => {
    await withStore({}, async (store, target) => {
      const a = await store.request(ask({ key: 'k-1' }));
      await store.answer(a.id, { decision: 'approve', by: 'alice', note: 'fine', scope: 'session' });
      const b = await store.request(ask({ toolUseId: 'toolu_2' }));
      await store.answer(b.id, { decision: 'deny', by: 'bob' });
      const rows = await queryAuditTrail(target, { kind: 'approval' });
      expect(rows.map((r) => [r.sessionId, r.event, r.tool, r.decision])).toEqual([
        ['session-1', 'PreToolUse', 'Bash', 'pending'],
        ['session-1', 'PreToolUse', 'Bash', 'approved'],
        ['session-1', 'PreToolUse', 'Bash', 'pending'],
        ['session-1', 'PreToolUse', 'Bash', 'denied'],
      ]);
      expect(rows[0]!.data).toEqual({ action: 'request', ...a, mac: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(rows[1]!.data).toEqual({ action: 'answer', ...(await store.get(a.id)), mac: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(rows[1]!.ts).toBe((await store.get(a.id))!.answeredAt);
      expect(await verifyAuditTrail(target, { key: KEY })).toMatchObject({ ok: true, rows: 4, signed: true, problems: [] });
    });
  });

  it('chains into an audit store it is given, in order with that store’s own records, and leaves it open', async () => {
    const target = backend.fresh();
    const audit = await openAuditStore(target, { key: KEY });
    try {
      audit.append({
        kind: 'outcome',
        ts: new Date().toISOString(),
        sessionId: 'session-1',
        event: 'PreToolUse',
        decision: 'ask',
        data: {},
      });
      const store = await open(target, { audit });
      const a = await store.request(ask());
      await store.close();
      expect(audit.closed).toBe(false);
      await audit.flush();
      expect((await queryAuditTrail(target)).map((r) => [r.kind, r.decision])).toEqual([
        ['outcome', 'ask'],
        ['approval', 'pending'],
      ]);
      expect((await queryAuditTrail(target, { kind: 'approval' }))[0]!.data).toMatchObject({ id: a.id });
    } finally {
      await audit.close();
    }
    expect(await verifyAuditTrail(target, { key: KEY })).toMatchObject({ ok: true, rows: 2 });
  });

  it('withdraws a request the chain cannot take, and chains an answer it could not append once a store is opened again', async () => {
    const target = backend.fresh();
    const audit = await openAuditStore(target, { key: KEY });
    const store = await open(target, { audit });
    const asked = await store.request(ask());
    await audit.close();
    try {
      // The audit store is gone (as when its database became unwritable): nothing unrecorded may be asked.
      await expect(store.request(ask({ toolUseId: 'toolu_2' }))).rejects.toThrow(ApprovalChainError);
      expect((await store.list({ state: undefined })).map((a) => a.id)).toEqual([asked.id]);
      // The decision itself stands; only its record is behind.
      await expect(store.answer(asked.id, { decision: 'approve', by: 'alice' })).rejects.toThrow(
        /the decision is stored, but its audit record/,
      );
      expect(await store.get(asked.id)).toMatchObject({ state: 'approved', answeredBy: 'alice' });
    } finally {
      await store.close();
    }
    expect(await chainOf(target)).toEqual([['request', 'pending', asked.id]]);
    const reopened = await open(target, { reconcileAfterMs: 0 });
    await reopened.close();
    expect(await chainOf(target)).toEqual([
      ['request', 'pending', asked.id],
      ['answer', 'approved', asked.id],
    ]);
    expect(await verifyAuditTrail(target, { key: KEY })).toMatchObject({ ok: true, rows: 2 });
  });

  it('after a crash between the table and the chain, the reconcile appends what is missing, and only that', async () => {
    const target = backend.fresh();
    const store = await open(target);
    const answeredOnly = await store.request(ask());
    const appendedButUnmarked = await store.request(ask({ toolUseId: 'toolu_2' }));
    await store.answer(appendedButUnmarked.id, { decision: 'deny', by: 'bob' });
    await store.close();
    const past = new Date(Date.now() - 60_000).toISOString();
    // Crashed after the UPDATE, before the append: the answer is in the table only.
    await backend.sql(
      target,
      `UPDATE approvals SET state = 'approved', answered_by = 'alice', answered_at = ?, note = 'crash' WHERE id = ?`,
      [past, answeredOnly.id],
    );
    await signAsItsWriter(target, answeredOnly.id);
    // Crashed after the append, before marking it: the chain has it already.
    await backend.sql(target, 'UPDATE approvals SET chained = 1 WHERE id = ?', [appendedButUnmarked.id]);
    // Crashed after inserting a request, before its append.
    await backend.sql(
      target,
      `INSERT INTO approvals (id, tenant, session_id, event, tool, input, created_at, expires_at, on_expiry, state, scope, chained)
       VALUES ('crashedreq01', 'default', 'session-9', 'PreToolUse', 'Read', '{"file_path":"a"}', ?, ?, 'deny', 'pending', 'once', 0)`,
      [past, new Date(Date.now() + 600_000).toISOString()],
    );
    await signAsItsWriter(target, 'crashedreq01');

    // No grace: every step behind the chain is presumed crashed.
    const reopened = await open(target, { reconcileAfterMs: 0 });
    try {
      expect(await reopened.reconcile()).toBe(0);
      // Sorted: the caught-up records carry the time of their step, and PostgreSQL lists by time.
      expect((await chainOf(target)).sort()).toEqual(
        [
          ['request', 'pending', answeredOnly.id],
          ['request', 'pending', appendedButUnmarked.id],
          ['answer', 'denied', appendedButUnmarked.id],
          ['request', 'pending', 'crashedreq01'],
          ['answer', 'approved', answeredOnly.id],
        ].sort(),
      );
      const caughtUp = (await queryAuditTrail(target, { kind: 'approval' })).find(
        (r) => (r.data as { id: string; action: string }).id === answeredOnly.id && (r.data as { action: string }).action === 'answer',
      )!;
      expect(caughtUp.data).toMatchObject({ action: 'answer', answeredBy: 'alice', note: 'crash' });
      expect(caughtUp.ts).toBe(past);
      expect(await backend.sql(target, 'SELECT id, chained FROM approvals ORDER BY id')).toEqual(
        [
          { id: answeredOnly.id, chained: 2 },
          { id: appendedButUnmarked.id, chained: 2 },
          { id: 'crashedreq01', chained: 1 },
        ].sort((x, y) => (x.id < y.id ? -1 : 1)),
      );
    } finally {
      await reopened.close();
    }
    expect(await verifyAuditTrail(target, { key: KEY })).toMatchObject({ ok: true, rows: 5, problems: [] });
  });

  it('wait does not hand back a decision the chain lacks: past the grace it appends it first', async () => {
    await withStore({ reconcileAfterMs: 0 }, async (store, target) => {
      const a = await store.request(ask());
      await backend.sql(target, `UPDATE approvals SET state = 'denied', answered_by = 'bob', answered_at = ? WHERE id = ?`, [
        new Date().toISOString(),
        a.id,
      ]);
      await signAsItsWriter(target, a.id);
      expect(await store.wait(a.id, { pollMs: 5 })).toMatchObject({ state: 'denied', answeredBy: 'bob' });
      expect(await chainOf(target)).toEqual([
        ['request', 'pending', a.id],
        ['answer', 'denied', a.id],
      ]);
    });
  });
});
