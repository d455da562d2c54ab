import type { ApprovalRequest } from '../../src/approvals/index.js';
import { hashToken, type Tenant } from '../../src/serve/index.js';

/** Tokens of the approvals tests: two tenants (their agents' tokens) and three approvers. */
export const TOKENS = {
  acme: 'acme-agents-token-0123456789',
  globex: 'globex-agents-token-0123456789',
  alice: 'alice-approver-token-0123456789',
  bob: 'bob-approver-token-0123456789',
  carol: 'carol-approver-token-0123456789',
} as const;

/**
 * acme: alice approves anything, bob only Read; only Read may stand for a session.
 * globex: carol approves anything; nothing else said.
 */
export function approvalTenants(config: string): Tenant[] {
  return [
    {
      name: 'acme',
      tokenSha256: hashToken(TOKENS.acme),
      config: [config],
      approvals: {
        approvers: [
          { name: 'alice', tokenSha256: hashToken(TOKENS.alice) },
          { name: 'bob', tokenSha256: hashToken(TOKENS.bob), tools: ['Read'] },
        ],
        standing: ['Read'],
      },
    },
    {
      name: 'globex',
      tokenSha256: hashToken(TOKENS.globex),
      config: [config],
      approvals: { approvers: [{ name: 'carol', tokenSha256: hashToken(TOKENS.carol) }] },
    },
  ];
}

/** The policy of each tenant, as the store gets it from serve. */
export const policyOf = (tenants: Tenant[]) => (tenant: string) => tenants.find((t) => t.name === tenant)?.approvals;

export const askFor = (tenant: string, overrides: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  tenant,
  sessionId: 'session-1',
  event: 'PreToolUse',
  tool: 'Bash',
  input: { command: 'npm publish --access public', cwd: '/work/app' },
  toolUseId: 'toolu_1',
  hook: 'publish-guard',
  reason: 'publishing needs a person',
  ...overrides,
});

export interface Called {
  status: number;
  headers: Headers;
  json: Record<string, unknown> & { error?: string };
}

/** One API call with a token (or none). */
export async function call(url: string, token: string | null, init: { method?: string; body?: unknown } = {}): Promise<Called> {
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: {
      ...(token !== null && { authorization: `Bearer ${token}` }),
      ...(init.body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(init.body !== undefined && { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : {} };
}

export interface SseEvent {
  event: string;
  data: Record<string, unknown> & { id?: string; state?: string; approvals?: Array<{ id: string }> };
}

/** Reads `GET /v1/approvals/events` as the page does (fetch with the Authorization header). */
export async function openEvents(url: string, token: string) {
  const controller = new AbortController();
  const res = await fetch(`${url}/v1/approvals/events`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
  const events: SseEvent[] = [];
  let done = false;
  let wake = () => {};
  let arrived = new Promise<void>((resolve) => (wake = resolve));
  const arrive = () => {
    wake();
    arrived = new Promise<void>((resolve) => (wake = resolve));
  };
  const reading = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body ?? []) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) });
          arrive();
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    } finally {
      done = true;
      arrive();
    }
  })();
  let seen = 0;
  return {
    status: res.status,
    headers: res.headers,
    events,
    /** The next event (after those already taken) that passes `test`. */
    async next(test: (e: SseEvent) => boolean): Promise<SseEvent> {
      for (;;) {
        while (seen < events.length) {
          const e = events[seen++]!;
          if (test(e)) return e;
        }
        if (done) throw new Error(`the event stream ended; it carried ${JSON.stringify(events.map((e) => e.event))}`);
        await arrived;
      }
    },
    /** Resolves once the stream has ended (the server ended it, or close()). */
    ended: reading,
    close: async () => {
      controller.abort();
      await reading;
    },
  };
}
