import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ApprovalPolicyError, approvalPolicySchema, parseApprovalPolicy, type ApprovalPolicy } from './policy.js';

/**
 * A policy file (JSON or YAML) for channels that have no tenants file, such as the
 * CLI: the top level is every tenant's policy, and `tenants.<name>` replaces it
 * for that tenant.
 *
 *   approvers: [{ name: alice }, { name: bob, tools: [Read, "mcp__github__*"] }]
 *   standing: [Read]
 *   tenants: { acme: { approvers: [{ name: carol }] } }
 */
const policyFileSchema = approvalPolicySchema.extend({ tenants: z.record(z.string(), z.unknown()).optional() });

export async function loadApprovalPolicyFile(file: string): Promise<(tenant: string) => ApprovalPolicy | undefined> {
  const abs = path.resolve(file);
  let text: string;
  try {
    text = readFileSync(abs, 'utf8');
  } catch (error) {
    throw new ApprovalPolicyError(`${abs}: cannot read the approvals policy: ${(error as Error).message}`);
  }
  const yaml = /\.ya?ml$/i.test(abs);
  let data: unknown;
  try {
    data = yaml ? (await import('yaml')).parse(text) : JSON.parse(text);
  } catch (error) {
    throw new ApprovalPolicyError(`${abs}: not valid ${yaml ? 'YAML' : 'JSON'}: ${(error as Error).message}`);
  }
  const parsed = policyFileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ApprovalPolicyError(`${abs}: ${issue.path.join('.') || '(top level)'}: ${issue.message}`);
  }
  const { tenants = {}, ...every } = parsed.data;
  const byTenant = new Map(Object.entries(tenants).map(([name, value]) => [name, parseApprovalPolicy(value, `${abs}: tenants.${name}`)]));
  return (tenant) => byTenant.get(tenant) ?? every;
}
