import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApprovals, type AnyApprovalStore } from '../../src/approvals/index.js';
import { startHookServer, type HookServer } from '../../src/serve/index.js';
import { pgSchema } from '../audit/pg-schema.js';
import { requirePostgres } from '../support/services.js';
import { approvalTenants, askFor, call, openEvents, policyOf, TOKENS } from './approvals-fixtures.js';
import { GUARDS_CONFIG, tenant, workspace, writeConfig } from './helpers.js';

/**
 * serve's approvals API (docs/approvals.md) on a real store, SQLite and (when it
 * answers) PostgreSQL: the same requests, the same answers.
 */
const pgUrl = await requirePostgres();
const ws = workspace('approvals');
const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-serve-approvals-'));
const schemas: Array<ReturnType<typeof pgSchema>> = [];
const targets: Array<[string, () => string]> = [
  ['sqlite', () => path.join(dir, `audit-${Math.random().toString(36).slice(2)}.db`)],
  ...(pgUrl
    ? [
        [
          'postgres',
          () => {
            const s = pgSchema(pgUrl, 'serve_approvals');
            schemas.push(s);
            return s.url;
          },
        ] as [string, () => string],
      ]
    : []),
];
afterAll(async () => {
  for (const s of schemas) await s.drop();
  rmSync(dir, { recursive: true, force: true });
  ws.cleanup();
});

describe.each(targets)('approvals API on %s', (_name, fresh) => {
  let store: AnyApprovalStore;
  let server: HookServer;
  const tenants = approvalTenants(writeConfig(ws.configDir, GUARDS_CONFIG));
  const logs: string[] = [];
  const api = (p: string) => `${server.url}/v1/approvals${p}`;

  beforeAll(async () => {
    // Approvals are signed with the audit key; PostgreSQL has no default one.
    store = await openApprovals(fresh(), { policy: policyOf(tenants), key: 'serve-approvals-test-key-0123456789' });
    server = await startHookServer({ tenants, port: 0, watch: false, approvals: store, approvalsPollMs: 25, log: (l) => logs.push(l) });
  });
  afterAll(async () => {
    await server?.close();
    await store?.close();
  });

  it('answers 401 with no data to a missing or unknown token, on every route', async () => {
    const pending = await store.request(askFor('acme', { toolUseId: 'toolu_401' }));
    const routes: Array<[string, string]> = [
      ['GET', ''],
      ['GET', '?state=pending'],
      ['GET', `/${pending.id}`],
      ['POST', `/${pending.id}/approve`],
      ['POST', `/${pending.id}/deny`],
      ['GET', '/events'],
    ];
    for (const [method, p] of routes) {
      for (const token of [null, 'not-a-token-of-this-server']) {
        const a = await call(api(p), token, { method, ...(method === 'POST' && { body: {} }) });
        expect(a.status, `${method} ${p} with ${token}`).toBe(401);
        expect(a.json).toEqual({
          error: token === null ? 'hookwise serve: missing bearer token (Authorization: Bearer <token>)' : 'hookwise serve: unknown token',
        });
      }
    }
    expect((await store.get(pending.id))!.state).toBe('pending');
  });

  it("lists and shows a tenant's own approvals only, to its agents' token and its approvers'", async () => {
    const mine = await store.request(askFor('acme', { toolUseId: 'toolu_list_acme' }));
    const theirs = await store.request(askFor('globex', { toolUseId: 'toolu_list_globex' }));
    for (const token of [TOKENS.acme, TOKENS.alice, TOKENS.bob]) {
      const list = await call(api('?state=pending'), token);
      expect(list.status).toBe(200);
      const ids = (list.json.approvals as Array<{ id: string; tenant: string }>).map((a) => a.id);
      expect(ids).toContain(mine.id);
      expect(ids).not.toContain(theirs.id);
      expect((list.json.approvals as Array<{ tenant: string }>).every((a) => a.tenant === 'acme')).toBe(true);
    }
    const shown = await call(api(`/${mine.id}`), TOKENS.alice);
    expect(shown.status).toBe(200);
    expect(shown.json).toMatchObject({
      id: mine.id,
      state: 'pending',
      tool: 'Bash',
      input: { command: 'npm publish --access public', cwd: '/work/app' },
      hook: 'publish-guard',
      reason: 'publishing needs a person',
      allowed: { approve: true, session: false },
    });
    expect((await call(api(`/${theirs.id}`), TOKENS.alice)).status).toBe(404);
    const carol = await call(api('?state=pending'), TOKENS.carol);
    expect((carol.json.approvals as Array<{ id: string }>).map((a) => a.id)).toEqual(expect.arrayContaining([theirs.id]));
    expect((carol.json.approvals as Array<{ id: string }>).map((a) => a.id)).not.toContain(mine.id);
    expect(carol.json.you).toEqual({ name: 'carol', kind: 'approver', tenant: 'globex' });
  });

  it('refuses an unknown state filter, an unknown route and a wrong method', async () => {
    expect(await call(api('?state=maybe'), TOKENS.alice)).toMatchObject({
      status: 400,
      json: { error: 'hookwise serve: state must be one of pending, approved, denied, expired, got "maybe"' },
    });
    expect((await call(api('/x/y/z'), TOKENS.alice)).status).toBe(404);
    expect((await call(api('/%E0%A4%A/approve'), TOKENS.alice, { method: 'POST', body: {} })).status).toBe(400);
    expect((await call(api('/some-id/approve'), TOKENS.alice)).status).toBe(405);
    expect((await call(api('/some-id/approve'), TOKENS.alice, { method: 'POST', body: {} })).status).toBe(404);
  });

  it('approves with a note: the waiting side gets the answer, who gave it (from the token) and the note', async () => {
    const pending = await store.request(askFor('acme', { toolUseId: 'toolu_approve' }));
    const waiting = store.wait(pending.id, { pollMs: 20 });
    const a = await call(api(`/${pending.id}/approve`), TOKENS.alice, { method: 'POST', body: { note: 'ship it' } });
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject({ id: pending.id, state: 'approved', answeredBy: 'alice', note: 'ship it', scope: 'once' });
    expect(await waiting).toMatchObject({ state: 'approved', answeredBy: 'alice', note: 'ship it' });
  });

  it('the body cannot name the answerer, and must be { note?, scope? }', async () => {
    const pending = await store.request(askFor('acme', { toolUseId: 'toolu_body' }));
    const forged = await call(api(`/${pending.id}/approve`), TOKENS.alice, { method: 'POST', body: { by: 'root' } });
    expect(forged.status).toBe(400);
    expect(forged.json.error).toMatch(/^hookwise serve: body: Unrecognized key: "by"/);
    expect((await call(api(`/${pending.id}/approve`), TOKENS.alice, { method: 'POST', body: '{nope' })).status).toBe(400);
    expect((await call(api(`/${pending.id}/deny`), TOKENS.alice, { method: 'POST', body: { scope: 'forever' } })).json.error).toMatch(
      /^hookwise serve: scope: /,
    );
    expect((await store.get(pending.id))!.state).toBe('pending');
  });

  it('a second answer gets 409 naming who answered first, and changes nothing', async () => {
    const pending = await store.request(askFor('acme', { toolUseId: 'toolu_twice' }));
    expect((await call(api(`/${pending.id}/deny`), TOKENS.alice, { method: 'POST', body: { note: 'not today' } })).status).toBe(200);
    const second = await call(api(`/${pending.id}/approve`), TOKENS.alice, { method: 'POST', body: {} });
    expect(second.status).toBe(409);
    expect(second.json.error).toMatch(
      new RegExp(`^hookwise serve: approval ${pending.id} was already denied by alice at \\S+; this answer changed nothing$`),
    );
    expect(second.json).toMatchObject({ answeredBy: 'alice', approval: { state: 'denied', note: 'not today' } });
    const answeredElsewhere = await store.request(askFor('acme', { toolUseId: 'toolu_cli' }));
    await store.answer(answeredElsewhere.id, { decision: 'approve', by: 'alice', note: 'from the CLI' });
    const late = await call(api(`/${answeredElsewhere.id}/deny`), TOKENS.bob, { method: 'POST', body: {} });
    expect(late).toMatchObject({ status: 409, json: { answeredBy: 'alice' } });
    expect((await store.get(answeredElsewhere.id))!).toMatchObject({ state: 'approved', note: 'from the CLI' });
  });

  it('an approver the policy does not allow gets 403 saying who may; a denial is always allowed', async () => {
    const bash = await store.request(askFor('acme', { toolUseId: 'toolu_bob' }));
    const shown = await call(api(`/${bash.id}`), TOKENS.bob);
    expect(shown.json.allowed).toEqual({ approve: false, session: false, why: 'bob may not approve Bash (tenant "acme"): only alice may' });
    const refused = await call(api(`/${bash.id}/approve`), TOKENS.bob, { method: 'POST', body: {} });
    expect(refused).toMatchObject({
      status: 403,
      json: { error: 'hookwise serve: bob may not approve Bash (tenant "acme"): only alice may' },
    });
    expect((await store.get(bash.id))!.state).toBe('pending');
    expect(await call(api(`/${bash.id}/deny`), TOKENS.bob, { method: 'POST', body: { note: 'no' } })).toMatchObject({
      status: 200,
      json: { state: 'denied', answeredBy: 'bob' },
    });
    const read = await store.request(
      askFor('acme', { toolUseId: 'toolu_bob_read', tool: 'Read', input: { file_path: '/work/app/README.md' } }),
    );
    expect((await call(api(`/${read.id}/approve`), TOKENS.bob, { method: 'POST', body: {} })).json).toMatchObject({ state: 'approved' });
  });

  it("with approvers listed, the agents' own token reads but cannot approve (no self-approval)", async () => {
    const pending = await store.request(askFor('acme', { toolUseId: 'toolu_self' }));
    const self = await call(api(`/${pending.id}/approve`), TOKENS.acme, { method: 'POST', body: {} });
    expect(self).toMatchObject({
      status: 403,
      json: {
        error: `hookwise serve: tenant:acme is the token of tenant "acme"'s agents, which may deny but never approve: approve with an approver's own token (approvals.approvers in the tenants file), or with \`hookwise approvals approve ${pending.id}\` where the store is`,
      },
    });
    expect((await store.get(pending.id))!.state).toBe('pending');
  });

  it("a tenant without approvers: its agents' token denies, but never approves its own ask", async () => {
    const solo = tenant('solo', tenants[0]!.config, 'solo-agents-token-0123456789');
    const other = await startHookServer({ tenants: [solo], port: 0, watch: false, approvals: store, log: () => {} });
    try {
      const pending = await store.request(askFor('solo', { toolUseId: 'toolu_solo' }));
      const url = `${other.url}/v1/approvals/${pending.id}`;
      for (const scope of ['once', 'session']) {
        const a = await call(`${url}/approve`, 'solo-agents-token-0123456789', { method: 'POST', body: { scope } });
        expect(a.status).toBe(403);
        expect(a.json.error).toMatch(
          /^hookwise serve: tenant:solo is the token of tenant "solo"'s agents, which may deny but never approve/,
        );
      }
      expect((await store.get(pending.id))!.state).toBe('pending');
      const shown = await call(url, 'solo-agents-token-0123456789');
      expect(shown.json.allowed).toMatchObject({ approve: false, session: false });
      const d = await call(`${url}/deny`, 'solo-agents-token-0123456789', { method: 'POST', body: {} });
      expect(d.json).toMatchObject({ state: 'denied', answeredBy: 'tenant:solo' });
    } finally {
      await other.close();
    }
  });

  it("tenant isolation: one tenant's approver can neither see nor answer another's request", async () => {
    const theirs = await store.request(askFor('globex', { toolUseId: 'toolu_iso' }));
    for (const [method, p] of [
      ['GET', `/${theirs.id}`],
      ['POST', `/${theirs.id}/approve`],
      ['POST', `/${theirs.id}/deny`],
    ] as const) {
      const a = await call(api(p), TOKENS.alice, { method, ...(method === 'POST' && { body: {} }) });
      expect(a).toMatchObject({ status: 404, json: { error: `hookwise serve: no approval "${theirs.id}"` } });
    }
    expect((await store.get(theirs.id))!.state).toBe('pending');
    expect((await call(api(`/${theirs.id}/approve`), TOKENS.carol, { method: 'POST', body: {} })).json).toMatchObject({
      state: 'approved',
      answeredBy: 'carol',
    });
  });

  it('for the rest of the session only where the policy lets the tool stand', async () => {
    const bash = await store.request(askFor('acme', { toolUseId: 'toolu_scope_bash', sessionId: 'session-scope' }));
    expect(await call(api(`/${bash.id}/approve`), TOKENS.alice, { method: 'POST', body: { scope: 'session' } })).toMatchObject({
      status: 403,
      json: {
        error: 'hookwise serve: Bash may not be approved for the whole session (tenant "acme"): only Read may; approve it once instead',
      },
    });
    const read = await store.request(
      askFor('acme', { toolUseId: 'toolu_scope_read', sessionId: 'session-scope', tool: 'Read', input: { file_path: '/etc/hosts' } }),
    );
    expect((await call(api(`/${read.id}`), TOKENS.alice)).json.allowed).toEqual({ approve: true, session: true });
    expect((await call(api(`/${read.id}/approve`), TOKENS.alice, { method: 'POST', body: { scope: 'session' } })).json).toMatchObject({
      state: 'approved',
      scope: 'session',
    });
    expect(
      await store.standing({ tenant: 'acme', sessionId: 'session-scope', tool: 'Read', input: { file_path: '/etc/hosts' } }),
    ).toMatchObject({
      id: read.id,
    });
  });

  it('the event stream: a snapshot, then each new request and each answer, for its own tenant only', async () => {
    const before = await store.request(askFor('acme', { toolUseId: 'toolu_sse_before' }));
    const events = await openEvents(server.url, TOKENS.alice);
    try {
      expect(events.status).toBe(200);
      expect(events.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      const snapshot = await events.next((e) => e.event === 'snapshot');
      expect(snapshot.data.approvals!.map((a) => a.id)).toContain(before.id);
      expect(snapshot.data.you).toEqual({ name: 'alice', kind: 'approver', tenant: 'acme' });

      await store.request(askFor('globex', { toolUseId: 'toolu_sse_other' }));
      const fresh = await store.request(askFor('acme', { toolUseId: 'toolu_sse_new', input: { command: 'terraform apply' } }));
      const arrived = await events.next((e) => e.event === 'request');
      expect(arrived.data).toMatchObject({
        id: fresh.id,
        tenant: 'acme',
        input: { command: 'terraform apply' },
        allowed: { approve: true },
      });

      await call(api(`/${fresh.id}/approve`), TOKENS.alice, { method: 'POST', body: { note: 'go' } });
      expect((await events.next((e) => e.event === 'answered')).data).toMatchObject({ id: fresh.id, state: 'approved', note: 'go' });

      // Answered elsewhere (the CLI, another replica): the stream hears it from the store.
      await store.answer(before.id, { decision: 'deny', by: 'bob', note: 'from elsewhere' });
      expect((await events.next((e) => e.event === 'answered')).data).toMatchObject({ id: before.id, state: 'denied', answeredBy: 'bob' });
      expect(events.events.some((e) => JSON.stringify(e.data).includes('toolu_sse_other'))).toBe(false);
    } finally {
      await events.close();
    }
  });

  it('closing the server ends the open event streams instead of waiting for them', async () => {
    const other = await startHookServer({ tenants, port: 0, watch: false, approvals: store, approvalsPollMs: 25, log: () => {} });
    const events = await openEvents(other.url, TOKENS.carol);
    await events.next((e) => e.event === 'snapshot');
    await other.close();
    await events.ended;
  });
});

describe('approvals API without a store', () => {
  it('says how to get one (503), after checking the token', async () => {
    const server = await startHookServer({
      tenants: approvalTenants(writeConfig(ws.configDir, GUARDS_CONFIG)),
      port: 0,
      watch: false,
      log: () => {},
    });
    try {
      expect((await call(`${server.url}/v1/approvals`, 'nope-nope-nope-nope')).status).toBe(401);
      expect(await call(`${server.url}/v1/approvals`, TOKENS.alice)).toMatchObject({
        status: 503,
        json: { error: 'hookwise serve: approvals need a store: start serve with --audit <file.db | postgres://...> (docs/approvals.md)' },
      });
    } finally {
      await server.close();
    }
  });
});
