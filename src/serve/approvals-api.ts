import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { Approval, ApprovalState, ApprovalStore } from '../approvals/types.js';
import { ApprovalFeed, type FeedListener } from './approvals-feed.js';
import { allowedFor, identitiesOf, refusal, type Identity } from './approvers.js';
import { BodyTooLarge, readBody, sendJson } from './http.js';
import { Refusal } from './refusal.js';
import { hashToken, type Tenant } from './tenants.js';

export interface ApprovalsApiOptions {
  /** How often a watched tenant's pending requests are read for the event stream. Default 1000 ms. */
  pollMs?: number;
  log: (line: string) => void;
}

const STATES: ApprovalState[] = ['pending', 'approved', 'denied', 'expired'];
const answerSchema = z.strictObject({
  note: z.string().max(4000, 'at most 4000 characters').optional(),
  scope: z.enum(['once', 'session']).optional(),
});
/** An idle event stream gets a comment this often, so proxies do not cut it. */
const KEEPALIVE_MS = 20_000;
/** What one stream may hold unread before serve drops the reader. */
const MAX_UNREAD_BYTES = 1024 * 1024;
const NO_STORE = 'hookwise serve: approvals need a store: start serve with --audit <file.db | postgres://...> (docs/approvals.md)';

/** An approval as the API shows it: the record, and what the caller may do with it. */
const shown = (who: Identity, approval: Approval) =>
  approval.state === 'pending' ? { ...approval, allowed: allowedFor(who, approval) } : approval;

/**
 * serve's approvals API (docs/approvals.md): list, show, approve, deny, and a live
 * event stream, for a tenant's own approvals only. A token is a tenant's (its agents)
 * or one of its approvers'; the answer records who, from the token, never from the body.
 */
export class ApprovalsApi {
  private readonly identities: Map<string, Identity>;
  private readonly feed: ApprovalFeed | undefined;

  constructor(
    private readonly store: ApprovalStore | undefined,
    tenants: Tenant[],
    options: ApprovalsApiOptions,
  ) {
    this.identities = identitiesOf(tenants);
    this.feed = store && new ApprovalFeed(store, { pollMs: options.pollMs ?? 1000, log: options.log });
  }

  /** Whether this path is the API's. */
  static owns(pathname: string): boolean {
    return pathname === '/v1/approvals' || pathname.startsWith('/v1/approvals/');
  }

  async route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const who = this.authenticate(req);
    const store = this.store;
    if (!store) throw new Refusal(503, NO_STORE);
    const parts = url.pathname.split('/').slice(3).map(decodePart);
    const method = req.method ?? 'GET';
    if (parts.length === 0) return this.only(method, 'GET', () => this.list(res, who, store, url));
    if (parts.length === 1 && parts[0] === 'events') return this.only(method, 'GET', () => this.events(res, who));
    if (parts.length === 1)
      return this.only(method, 'GET', async () => sendJson(res, 200, shown(who, await this.find(store, who, parts[0]!))));
    if (parts.length === 2 && (parts[1] === 'approve' || parts[1] === 'deny')) {
      const decision = parts[1];
      return this.only(method, 'POST', () => this.answer(req, res, who, store, parts[0]!, decision));
    }
    throw new Refusal(404, `hookwise serve: no route ${url.pathname}`);
  }

  /** Ends the event streams (they would hold the server open) and stops polling. */
  close(): void {
    this.feed?.close();
  }

  private authenticate(req: IncomingMessage): Identity {
    const header = req.headers.authorization;
    if (typeof header !== 'string' || !header.startsWith('Bearer ') || header.length === 7) {
      throw new Refusal(401, 'hookwise serve: missing bearer token (Authorization: Bearer <token>)');
    }
    const who = this.identities.get(hashToken(header.slice(7).trim()));
    if (!who) throw new Refusal(401, 'hookwise serve: unknown token');
    return who;
  }

  private only(method: string, allowed: string, handle: () => Promise<void> | void): Promise<void> | void {
    if (method !== allowed) throw new Refusal(405, `hookwise serve: ${method} is not allowed here; use ${allowed}`);
    return handle();
  }

  /** The record, when it is this tenant's: another tenant's is as absent as one that does not exist. */
  private async find(store: ApprovalStore, who: Identity, id: string): Promise<Approval> {
    const approval = await store.get(id);
    if (!approval || approval.tenant !== who.tenant.name) throw new Refusal(404, `hookwise serve: no approval ${JSON.stringify(id)}`);
    return approval;
  }

  private async list(res: ServerResponse, who: Identity, store: ApprovalStore, url: URL): Promise<void> {
    const state = url.searchParams.get('state');
    if (state !== null && !STATES.includes(state as ApprovalState)) {
      throw new Refusal(400, `hookwise serve: state must be one of ${STATES.join(', ')}, got ${JSON.stringify(state)}`);
    }
    const session = url.searchParams.get('session');
    const approvals = await store.list({
      tenant: who.tenant.name,
      ...(state && { state: state as ApprovalState }),
      ...(session && { sessionId: session }),
    });
    sendJson(res, 200, { now: new Date().toISOString(), you: you(who), approvals: approvals.map((a) => shown(who, a)) });
  }

  private async answer(
    req: IncomingMessage,
    res: ServerResponse,
    who: Identity,
    store: ApprovalStore,
    id: string,
    decision: 'approve' | 'deny',
  ): Promise<void> {
    const body = await answerBody(req);
    const approval = await this.find(store, who, id);
    if (approval.state !== 'pending') throw answeredFirst(approval);
    if (decision === 'approve') {
      const why = refusal(who, approval, body.scope ?? 'once');
      if (why) throw new Refusal(403, `hookwise serve: ${why}`);
    }
    const result = await store.answer(id, { decision, by: who.name, ...body });
    if (result.ok) {
      this.feed?.answered(result.approval);
      return sendJson(res, 200, result.approval);
    }
    if (result.why === 'answered' && result.approval) throw answeredFirst(result.approval);
    throw new Refusal(result.why === 'not-found' ? 404 : 403, `hookwise serve: ${result.message}`);
  }

  /**
   * Server-Sent Events: `snapshot` (what is pending now), then `request` and `answered`
   * (or `gone`) as they happen. Read with fetch(), which can send the Authorization header.
   */
  private async events(res: ServerResponse, who: Identity): Promise<void> {
    const feed = this.feed!;
    let last = Date.now();
    const write = (text: string) => {
      last = Date.now();
      // A reader that stopped reading would make its events pile up here: drop it; it reconnects and gets a snapshot.
      if (res.writableLength > MAX_UNREAD_BYTES) {
        res.destroy();
        return;
      }
      res.write(text);
    };
    const listener: FeedListener = {
      send: (event, approval) => write(`event: ${event}\ndata: ${JSON.stringify(shown(who, approval))}\n\n`),
      tick: () => {
        if (Date.now() - last >= KEEPALIVE_MS) write(': keep-alive\n\n');
      },
      end: () => res.end(),
    };
    let gone = false;
    res.once('close', () => {
      gone = true;
      feed.unsubscribe(who.tenant.name, listener);
    });
    const pending = await feed.subscribe(who.tenant.name, listener).catch((error: Error) => {
      throw new Refusal(503, `hookwise serve: the approvals stream is not available: ${error.message}`);
    });
    if (gone) return feed.unsubscribe(who.tenant.name, listener);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      // nginx and friends would otherwise hold the stream back.
      'x-accel-buffering': 'no',
    });
    const snapshot = { now: new Date().toISOString(), you: you(who), approvals: pending.map((a) => shown(who, a)) };
    write(`event: snapshot\ndata: ${JSON.stringify(snapshot)}\n\n`);
  }
}

function decodePart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new Refusal(400, `hookwise serve: ${JSON.stringify(part)} is not a valid path segment`);
  }
}

function you(who: Identity) {
  return { name: who.name, kind: who.kind, tenant: who.tenant.name };
}

function answeredFirst(approval: Approval): Refusal {
  const first =
    approval.state === 'expired' || approval.answeredBy === 'expiry'
      ? `expired at ${approval.answeredAt} (${approval.onExpiry === 'approve' ? 'approved' : 'denied'} by its expiry rule)`
      : `was already ${approval.state} by ${approval.answeredBy} at ${approval.answeredAt}`;
  return new Refusal(409, `hookwise serve: approval ${approval.id} ${first}; this answer changed nothing`, undefined, {
    answeredBy: approval.answeredBy,
    approval,
  });
}

async function answerBody(req: IncomingMessage): Promise<z.infer<typeof answerSchema>> {
  let text: string;
  try {
    text = await readBody(req, 64 * 1024);
  } catch (error) {
    if (error instanceof BodyTooLarge) throw new Refusal(413, `hookwise serve: ${error.message}`);
    throw error;
  }
  if (text.trim() === '') return {};
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Refusal(400, `hookwise serve: the body is not JSON: ${(error as Error).message}`);
  }
  const parsed = answerSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Refusal(
      400,
      `hookwise serve: ${issue.path.join('.') || 'body'}: ${issue.message} (send { "note"?: string, "scope"?: "once" | "session" })`,
    );
  }
  return parsed.data;
}
