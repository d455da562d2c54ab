import { allow, ask, deny, type HookResult } from '../core/results.js';

/** Options every guard takes. */
export interface CommonGuardOptions {
  /** The root folder. Default: process.cwd() when the guard is made. */
  workspace?: string;
  /** false (default): what cannot be proven safe is denied; true: it is asked. */
  interactive?: boolean;
  /** Hook priority; guards run before user hooks. Default 1000. */
  priority?: number;
  /** Hook name. Default `guard:<kind>`. */
  name?: string;
}

export const DEFAULT_GUARD_PRIORITY = 1000;

/** A guard's answer about one operation. */
export interface GuardDecision {
  /** `allow`: nothing to object to (the hook then has no opinion unless `explicit`). */
  decision: 'allow' | 'ask' | 'deny';
  reason: string;
  /** A user allow rule matched: the hook answers allow (pre-approves) instead of no opinion. */
  explicit?: boolean;
  /** Everything found, worst first. */
  findings: Array<{ level: 'deny' | 'unprovable' | 'ask'; reason: string }>;
}

/** Turn a decision into what the hook returns. A guard never pre-approves by itself. */
export function toHookResult(d: GuardDecision): HookResult | undefined {
  if (d.decision === 'deny') return deny(d.reason);
  if (d.decision === 'ask') return ask(d.reason);
  return d.explicit ? allow(d.reason) : undefined;
}

/** Fold findings into one decision: deny > unprovable (ask or deny) > ask > allow. */
export function decide(findings: GuardDecision['findings'], interactive: boolean, allowReason: string, explicit = false): GuardDecision {
  const order = { deny: 0, unprovable: 1, ask: 2 } as const;
  const sorted = [...findings].sort((a, b) => order[a.level] - order[b.level]);
  const worst = sorted[0];
  if (!worst) {
    const d: GuardDecision = { decision: 'allow', reason: allowReason, findings: [] };
    if (explicit) d.explicit = true;
    return d;
  }
  const same = sorted.filter((f) => f.level === worst.level).map((f) => f.reason);
  const listed = same.length > 3 ? [...same.slice(0, 3), `and ${same.length - 3} more`] : same;
  let reason = listed.join('; ');
  if (worst.level === 'unprovable') reason = `hookwise cannot prove this safe: ${reason}`;
  const decision = worst.level === 'deny' ? 'deny' : worst.level === 'ask' ? 'ask' : interactive ? 'ask' : 'deny';
  return { decision, reason, findings: sorted };
}

export function assertBoolean(value: unknown, field: string, guard: string): void {
  if (value !== undefined && typeof value !== 'boolean') throw new TypeError(`${guard}: ${field} must be true or false, got ${JSON.stringify(value)}`);
}

export function assertStringArray(value: unknown, field: string, guard: string): void {
  if (value !== undefined && (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))) {
    throw new TypeError(`${guard}: ${field} must be an array of strings`);
  }
}
