import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

/**
 * The signature of an approval: HMAC-SHA256 with the audit key over the canonical
 * JSON of the approval as it stood (every field: id, tool, input, state, who
 * answered, scope, ...). The approvals store signs each row it writes and each
 * `approval` record it appends to the chain; a row or record someone changed
 * without the key does not verify, so an agent that can write the database still
 * cannot approve its own request (docs/approvals.md#the-chain-decides).
 */
export function approvalMac(key: Buffer, approval: object): string {
  return createHmac('sha256', key)
    .update(`hookwise-approval:v1\n${canonicalJson(approval)}`)
    .digest('hex');
}

export function approvalMacMatches(key: Buffer, approval: object, mac: unknown): boolean {
  if (typeof mac !== 'string' || !/^[0-9a-f]{64}$/.test(mac)) return false;
  return timingSafeEqual(Buffer.from(mac, 'hex'), Buffer.from(approvalMac(key, approval), 'hex'));
}

/**
 * An `approval` record's data as the store writes it: `{ action, ...approval, mac }`.
 * Returns the approval when the record is signed with the key, else undefined.
 */
export function signedApprovalOf(
  key: Buffer,
  data: unknown,
): { action: 'request' | 'answer'; approval: Record<string, unknown> } | undefined {
  if (data === null || typeof data !== 'object') return undefined;
  const { action, mac, ...approval } = data as Record<string, unknown>;
  if (action !== 'request' && action !== 'answer') return undefined;
  if (!approvalMacMatches(key, approval, mac)) return undefined;
  return { action, approval };
}
