import crypto from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { approvalPolicySchema, type ApprovalApprover, type ApprovalPolicy } from '../approvals/policy.js';
import { HookwiseError } from '../core/errors.js';

/** One tenant: who it is, how it proves it, which policy it runs under. */
export interface Tenant {
  name: string;
  /** sha256 of the bearer token, lowercase hex. The token itself is never stored. */
  tokenSha256: string;
  /** Absolute paths of the tenant's configuration sources (merged, as `--config` repeated). */
  config: string[];
  /** At most `requests` per `windowMs`, counted across every replica sharing the counters. */
  rateLimit?: { requests: number; windowMs: number };
  /** When set, the project directory a request names must be inside one of these. */
  projectRoots?: string[];
  /** The tenant's approval policy, with a token for each approver (docs/approvals.md). */
  approvals?: TenantApprovals;
}

/** A person who answers a tenant's approvals through serve: a policy approver with a token of their own. */
export interface Approver extends ApprovalApprover {
  /** sha256 of the approver's bearer token, lowercase hex. */
  tokenSha256: string;
}

/**
 * The approval policy the store enforces (who may approve which tools, what may stand for
 * a session, expiry), where each approver proves who they are with a token.
 */
export interface TenantApprovals extends ApprovalPolicy {
  approvers?: Approver[];
}

const HEX64 = /^[0-9a-f]{64}$/;

/** The policy's approver, with a token: the name is what `answeredBy` records, so it cannot look like `tenant:<name>` or `expiry`. */
const approverSchema = approvalPolicySchema.shape.approvers.unwrap().element.extend({
  name: z
    .string()
    .regex(/^[\p{L}\p{N} ._@+-]{1,64}$/u, 'a name of 1 to 64 letters, digits, spaces, dots, dashes, underscores, @ or +')
    .refine((name) => name !== 'expiry', '"expiry" is what an expiry answers as; give the approver another name'),
  tokenSha256: z
    .string()
    .regex(HEX64, 'the sha256 of the approver\'s own token as 64 lowercase hex digits (printf %s "$TOKEN" | sha256sum)'),
});
const approvalsSchema = approvalPolicySchema.extend({ approvers: z.array(approverSchema).optional() });

const tenantSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'a name of 1 to 64 letters, digits, dots, dashes or underscores'),
  tokenSha256: z.string().regex(HEX64, 'the sha256 of the token as 64 lowercase hex digits (printf %s "$TOKEN" | sha256sum)'),
  config: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  rateLimit: z.strictObject({ requests: z.number().int().positive(), windowMs: z.number().int().positive().default(60_000) }).optional(),
  projectRoots: z.array(z.string().min(1)).min(1).optional(),
  approvals: approvalsSchema.optional(),
});

const fileSchema = z.strictObject({ tenants: z.array(tenantSchema).min(1) });

/**
 * The token's sha256 as the tenants file stores it. Every request is looked up by it:
 * crypto.hash, one call where the runtime has it (Node 20.12), is a third of the cost of
 * createHash().update().digest().
 */
export const hashToken: (token: string) => string =
  typeof (crypto as { hash?: unknown }).hash === 'function'
    ? (token) => crypto.hash('sha256', token, 'hex')
    : (token) => crypto.createHash('sha256').update(token, 'utf8').digest('hex');

export class TenantsError extends HookwiseError {
  override readonly code = 'TENANTS';
}

/**
 * Reads a tenants file (JSON or YAML). Relative config and project-root paths are
 * resolved from the file's folder. Errors name the file and the field.
 */
export async function loadTenantsFile(file: string): Promise<Tenant[]> {
  const abs = path.resolve(file);
  let text: string;
  try {
    text = readFileSync(abs, 'utf8');
  } catch (error) {
    throw new TenantsError(`${abs}: cannot read the tenants file: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = /\.ya?ml$/i.test(abs) ? (await import('yaml')).parse(text) : JSON.parse(text);
  } catch (error) {
    throw new TenantsError(`${abs}: not valid ${/\.ya?ml$/i.test(abs) ? 'YAML' : 'JSON'}: ${(error as Error).message}`);
  }
  const parsed = fileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new TenantsError(`${abs}: ${issue.path.join('.') || '(top level)'}: ${issue.message}`);
  }
  const dir = path.dirname(abs);
  const tenants = parsed.data.tenants.map((t) => ({
    name: t.name,
    tokenSha256: t.tokenSha256,
    config: (Array.isArray(t.config) ? t.config : [t.config]).map((c) => path.resolve(dir, c)),
    ...(t.rateLimit && { rateLimit: t.rateLimit }),
    ...(t.projectRoots && { projectRoots: t.projectRoots.map((r) => path.resolve(dir, r)) }),
    ...(t.approvals && { approvals: t.approvals }),
  }));
  const seen = new Map<string, string>();
  for (const [i, t] of tenants.entries()) {
    if (seen.has(`name:${t.name}`)) throw new TenantsError(`${abs}: tenants.${i}.name: "${t.name}" is used by another tenant`);
    if (seen.has(`token:${t.tokenSha256}`))
      throw new TenantsError(`${abs}: tenants.${i}.tokenSha256: the same token is given to "${seen.get(`token:${t.tokenSha256}`)}"`);
    seen.set(`name:${t.name}`, t.name);
    seen.set(`token:${t.tokenSha256}`, t.name);
  }
  // One token is one identity: an approver's token cannot also be a tenant's or another approver's.
  const holders = new Map(tenants.map((t) => [t.tokenSha256, `tenant "${t.name}"`]));
  for (const [i, t] of tenants.entries()) {
    const names = new Set<string>();
    for (const [j, a] of (t.approvals?.approvers ?? []).entries()) {
      const field = `tenants.${i}.approvals.approvers.${j}`;
      if (names.has(a.name)) throw new TenantsError(`${abs}: ${field}.name: "${a.name}" is listed twice in tenant "${t.name}"`);
      names.add(a.name);
      const holder = holders.get(a.tokenSha256);
      if (holder)
        throw new TenantsError(
          `${abs}: ${field}.tokenSha256: the same token is given to ${holder}; give each approver a token of their own`,
        );
      holders.set(a.tokenSha256, `approver "${a.name}" of tenant "${t.name}"`);
    }
  }
  return tenants;
}

/** Whether `dir` is one of `roots` or inside one. */
export function insideRoots(dir: string, roots: string[]): boolean {
  return roots.some((root) => {
    const rel = path.relative(root, dir);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  });
}
