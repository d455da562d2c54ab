import { judgeRow } from './approval-trust.js';
import type { ApprovalRow } from './approval-record.js';
import type { AuditProblem } from './verify.js';

/**
 * `verify`'s check of the approvals table against the chain: every row must be
 * what the audit key vouches for (src/audit/approval-trust.ts). A row changed outside
 * hookwise (an agent that flipped `state` to approved) is an `approval` problem
 * naming the approval id; the store itself ignores such a row.
 *
 * `rows` are the approvals rows (a missing `mac` column reads as unsigned),
 * `records` the `data` of the chain's `approval` records, in chain order.
 */
export function checkApprovals(
  rows: Iterable<ApprovalRow & { seq?: unknown }>,
  records: Iterable<unknown>,
  key: Buffer,
  problems: AuditProblem[],
): void {
  const byId = new Map<string, unknown[]>();
  for (const data of records) {
    const id = (data as { id?: unknown } | null)?.id;
    if (typeof id !== 'string') continue;
    const list = byId.get(id);
    if (list) list.push(data);
    else byId.set(id, [data]);
  }
  for (const raw of rows) {
    const row: ApprovalRow = { ...raw, mac: raw.mac ?? null, chained: Number(raw.chained) };
    const judged = judgeRow(key, row, byId.get(row.id) ?? []);
    if (judged.disagreement === undefined) continue;
    problems.push({
      seq: Number(raw.seq ?? 0),
      kind: 'approval',
      approval: row.id,
      message: `${judged.disagreement} (the row is ignored)`,
      event: row.event,
      tool: row.tool,
    });
  }
}

/** A record's data text as JSON; text that is not JSON holds nothing signed. */
export function parsedRecord(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
