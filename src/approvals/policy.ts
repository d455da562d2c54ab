import { z } from 'zod';
import { picomatch } from '../core/lazy-deps.js';
import { DEFAULT_EXPIRES_IN_MS } from '../audit/approval-record.js';
import type { Approval, ApprovalAnswer } from './types.js';
import { HookwiseError } from '../core/errors.js';

/** Someone who may approve: every tool, or only those matching `tools` (picomatch globs over tool names). */
export interface ApprovalApprover {
  name: string;
  tools?: string[];
}

/**
 * A tenant's rules for its approvals (docs/approvals.md).
 * - `approvers`: who may approve what. Absent: anyone who can reach the channel
 *   (the CLI on the database, serve's API with the tenant's token). A denial needs
 *   no listing: it never lets anything run.
 * - `expiresInMs`, `onExpiry`: what a request that does not say gets (default 10 minutes, deny).
 * - `standing`: the tools (globs) an approval may cover for the rest of the session
 *   (`scope: 'session'`). Absent: any tool; `[]`: none. An answer asking for more is
 *   refused, not narrowed, so the person learns at once that it was not granted.
 */
export interface ApprovalPolicy {
  approvers?: ApprovalApprover[];
  expiresInMs?: number;
  onExpiry?: 'approve' | 'deny';
  standing?: string[];
}

/** One policy for every tenant, or the policy of each (undefined: no rules). */
export type ApprovalPolicySource = ApprovalPolicy | ((tenant: string) => ApprovalPolicy | undefined);

const glob = z.string().min(1, 'a tool name or glob such as Bash or mcp__github__*');

export const approvalPolicySchema = z.strictObject({
  approvers: z
    .array(
      z.strictObject({
        name: z.string().min(1, "the approver's name, as they give it to --as or their token maps to"),
        tools: z.array(glob).min(1, 'at least one tool glob; leave tools out to let this approver approve every tool').optional(),
      }),
    )
    .optional(),
  expiresInMs: z
    .number()
    .int()
    .min(1)
    .max(2 ** 31 - 1, 'at most 2147483647 ms (about 24 days)')
    .optional(),
  onExpiry: z.enum(['approve', 'deny']).optional(),
  standing: z.array(glob).optional(),
});

/** Checks a policy read from a file or a config; the error names `where` and the field. */
export function parseApprovalPolicy(value: unknown, where: string): ApprovalPolicy {
  const parsed = approvalPolicySchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new ApprovalPolicyError(`${where}: ${issue.path.join('.') || '(top level)'}: ${issue.message}`);
}

export class ApprovalPolicyError extends HookwiseError {
  override readonly code = 'APPROVAL_POLICY';
}

export function policyOf(source: ApprovalPolicySource | undefined, tenant: string): ApprovalPolicy | undefined {
  return typeof source === 'function' ? source(tenant) : source;
}

/** What a request that does not say gets. */
export function requestDefaults(policy: ApprovalPolicy | undefined): { expiresInMs: number; onExpiry: 'approve' | 'deny' } {
  return { expiresInMs: policy?.expiresInMs ?? DEFAULT_EXPIRES_IN_MS, onExpiry: policy?.onExpiry ?? 'deny' };
}

export type AnswerCheck = { ok: true } | { ok: false; why: 'not-allowed'; message: string; approval: Approval };

/**
 * Whether the policy lets this answer stand. The store calls it before writing an
 * answer; the CLI and serve's API call it too (through the store's `answer`, or
 * directly to explain a refusal before asking). A refusal names who may.
 */
export function checkAnswer(policy: ApprovalPolicy | undefined, approval: Approval, answer: ApprovalAnswer): AnswerCheck {
  if (answer.decision !== 'approve') return { ok: true };
  const tool = approval.tool ?? '';
  const what = approval.tool === null ? `the ${approval.event} question` : approval.tool;
  const of = `tenant ${JSON.stringify(approval.tenant)}`;
  if (policy?.approvers !== undefined) {
    const may = policy.approvers.filter((a) => a.tools === undefined || (approval.tool !== null && matchesAny(a.tools, tool)));
    if (!may.some((a) => a.name === answer.by)) {
      const who =
        may.length === 0 ? 'nobody may approve it: add an approver to the policy' : `only ${may.map((a) => a.name).join(', ')} may`;
      return refuse(approval, `${answer.by} may not approve ${what} (${of}): ${who}`);
    }
  }
  if (answer.scope === 'session' && policy?.standing !== undefined && !(approval.tool !== null && matchesAny(policy.standing, tool))) {
    const tools = policy.standing.length === 0 ? 'no tool may' : `only ${policy.standing.join(', ')} may`;
    return refuse(approval, `${what} may not be approved for the whole session (${of}): ${tools}; approve it once instead`);
  }
  return { ok: true };
}

function refuse(approval: Approval, message: string): AnswerCheck {
  return { ok: false, why: 'not-allowed', message, approval };
}

function matchesAny(globs: string[], tool: string): boolean {
  return globs.some((g) => picomatch()(g)(tool));
}
