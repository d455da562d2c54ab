import type { AuditFilters, AuditRow } from '../audit/query.js';
import type { Outcome } from '../core/outcome.js';
import { happenedOf } from './classify.js';
import type { SourceBatch, SourceItem } from './types.js';

const BATCH = 512;

export interface AuditSelection {
  sessionId?: string;
  since?: string;
  until?: string;
}

/**
 * The PreToolUse decisions of hookwise's audit trail (SQLite file or `postgres://` URL),
 * oldest first: each `outcome` record keeps the call (tool_name, tool_input,
 * tool_use_id) beside the whole Outcome. SQLite rows are streamed.
 */
export async function* auditCalls(target: string, selection: AuditSelection): AsyncGenerator<SourceBatch> {
  const filters: AuditFilters = { kind: 'outcome', event: 'PreToolUse', ...selection };
  const { isPostgresUrl } = await import('../audit/postgres-url.js');
  let items: Iterable<SourceItem>;
  if (isPostgresUrl(target)) {
    const rows = await (await import('../audit/trail.js')).queryAuditTrail(target, filters);
    items = rows.map((row) => fromRow(target, row));
  } else {
    const { existsSync } = await import('node:fs');
    const { AuditDatabaseMissingError } = await import('../audit/errors.js');
    if (!existsSync(target)) throw new AuditDatabaseMissingError(target);
    items = (await import('./sqlite-decisions.js')).sqliteDecisions(target, filters);
  }
  let batch: SourceItem[] = [];
  for (const item of items) {
    batch.push(item);
    if (batch.length === BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/** The parts of an outcome record's `data` a replay reads. */
export type DecisionData = Partial<Pick<Outcome, 'blocked' | 'decision' | 'reason' | 'updatedInput' | 'hooks'>> & {
  input?: { tool_name?: unknown; tool_input?: unknown; tool_use_id?: unknown };
};

export function fromRow(source: string, row: Pick<AuditRow, 'seq' | 'sessionId' | 'data'>): SourceItem {
  const data = row.data as DecisionData;
  const call = data?.input;
  if (!call || typeof call.tool_name !== 'string' || typeof call.tool_input !== 'object' || call.tool_input === null)
    return { problem: { source, at: row.seq, problem: 'an outcome record without the call (data.input.tool_name, tool_input)' } };
  const outcome = {
    blocked: data.blocked === true,
    decision: data.decision ?? null,
    updatedInput: data.updatedInput ?? null,
    hooks: data.hooks,
  };
  const happened = happenedOf(outcome);
  return {
    call: {
      source,
      at: row.seq,
      sessionId: row.sessionId,
      turn: null,
      tool: call.tool_name,
      toolInput: call.tool_input as Record<string, unknown>,
      toolUseId: typeof call.tool_use_id === 'string' ? call.tool_use_id : undefined,
      cwd: undefined,
      permissionMode: undefined,
      happened,
      reason: typeof data.reason === 'string' ? data.reason : null,
      // The sandbox's line is not a rewrite of the call: only another hook's is compared.
      updatedInput: happened === 'rewritten' ? outcome.updatedInput : null,
      recordsRewrites: true,
    },
  };
}
