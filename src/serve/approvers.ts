import { checkAnswer } from '../approvals/policy.js';
import type { Approval, ApprovalScope } from '../approvals/types.js';
import type { Tenant } from './tenants.js';

/** Who a token on the approvals API is: one of a tenant's approvers, or the tenant itself (its agents). */
export interface Identity {
  tenant: Tenant;
  /** What an answer records as `answeredBy`: the approver's name, or `tenant:<name>` for the tenant's own token. */
  name: string;
  kind: 'approver' | 'tenant';
}

/** Every token the approvals API accepts, by its sha256. */
export function identitiesOf(tenants: Tenant[]): Map<string, Identity> {
  const byToken = new Map<string, Identity>();
  for (const tenant of tenants) {
    byToken.set(tenant.tokenSha256, { tenant, name: `tenant:${tenant.name}`, kind: 'tenant' });
    for (const a of tenant.approvals?.approvers ?? []) byToken.set(a.tokenSha256, { tenant, name: a.name, kind: 'approver' });
  }
  return byToken;
}

/** What this identity may do with a pending request, for the page to offer only that. */
export interface Allowed {
  approve: boolean;
  /** Approve for the rest of the session (`scope: 'session'`). */
  session: boolean;
  /** Why approving is refused, when it is. */
  why?: string;
}

/** The tenant's policy decides: who may approve which tool, and which tools may stand for a session. A denial is always allowed. */
export function allowedFor(who: Identity, approval: Approval): Allowed {
  const once = refusal(who, approval, 'once');
  if (once) return { approve: false, session: false, why: once };
  return { approve: true, session: refusal(who, approval, 'session') === undefined };
}

/**
 * Why this identity may not approve, or undefined when the policy lets it stand. The
 * tenant's own token is what its agents hold: it reads and denies, never approves, with
 * approvers listed or not (an agent must not answer its own ask).
 */
export function refusal(who: Identity, approval: Approval, scope: ApprovalScope): string | undefined {
  if (who.kind === 'tenant') {
    return `${who.name} is the token of tenant "${who.tenant.name}"'s agents, which may deny but never approve: approve with an approver's own token (approvals.approvers in the tenants file), or with \`hookwise approvals approve ${approval.id}\` where the store is`;
  }
  const check = checkAnswer(who.tenant.approvals, approval, { decision: 'approve', by: who.name, scope });
  return check.ok ? undefined : check.message;
}
