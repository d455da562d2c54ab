import type { AuditRow } from './query.js';

/** A tool execution no allowing PreToolUse outcome accounts for. */
export interface UncoveredExecution {
  stream?: string;
  seq: number;
  ts: string;
  sessionId: string;
  tool: string | null;
  toolUseId: string | null;
  /** Why it is not covered, in words. */
  why: string;
}

export interface AuditCoverage {
  /** The database file or PostgreSQL URL (password hidden). */
  path: string;
  /** `tool` records seen. */
  executions: number;
  covered: number;
  uncovered: UncoveredExecution[];
}

/**
 * Matches every tool execution (`tool` record) with the PreToolUse outcome that
 * allowed it: an `outcome` record of the same session, before it, whose
 * `data.input.tool_use_id` is the execution's `tool_use_id`, that was neither a
 * deny nor a block nor a stop. Each outcome allows one execution: the same call
 * run twice needs two PreToolUse fires. `ask` and `defer` count as allowing (the
 * host asked someone, who said yes), as a PreToolUse with no decision does.
 */
export function coverageOf(rows: Iterable<AuditRow>, path: string): AuditCoverage {
  const allowing = new Map<string, number>();
  const refused = new Map<string, AuditRow>();
  const result: AuditCoverage = { path, executions: 0, covered: 0, uncovered: [] };
  for (const row of rows) {
    const data = (row.data ?? {}) as Record<string, unknown>;
    if (row.kind === 'outcome' && row.event === 'PreToolUse') {
      const id = (data.input as Record<string, unknown> | undefined)?.tool_use_id;
      if (typeof id !== 'string') continue;
      const key = keyOf(row.sessionId, id);
      if (data.blocked === true || data.stop === true || row.decision === 'deny') refused.set(key, row);
      else allowing.set(key, (allowing.get(key) ?? 0) + 1);
    } else if (row.kind === 'tool') {
      result.executions++;
      const id = typeof data.tool_use_id === 'string' && data.tool_use_id !== '' ? data.tool_use_id : null;
      const left = id === null ? 0 : (allowing.get(keyOf(row.sessionId, id)) ?? 0);
      if (left > 0) {
        allowing.set(keyOf(row.sessionId, id!), left - 1);
        result.covered++;
        continue;
      }
      const denied = id === null ? undefined : refused.get(keyOf(row.sessionId, id));
      const why =
        id === null
          ? 'the execution has no tool_use_id to match a PreToolUse outcome'
          : denied
            ? `PreToolUse refused tool_use_id ${id} (seq ${denied.seq}: ${denied.decision === 'deny' ? 'deny' : (denied.data as Record<string, unknown>).stop === true ? 'stop' : 'block'}), yet the tool ran`
            : `no PreToolUse outcome allowed tool_use_id ${id} in session ${row.sessionId} before it ran`;
      const uncovered: UncoveredExecution = { seq: row.seq, ts: row.ts, sessionId: row.sessionId, tool: row.tool, toolUseId: id, why };
      if (row.stream !== undefined) uncovered.stream = row.stream;
      result.uncovered.push(uncovered);
    }
  }
  return result;
}

function keyOf(sessionId: string, toolUseId: string): string {
  return `${sessionId}\u0000${toolUseId}`;
}
