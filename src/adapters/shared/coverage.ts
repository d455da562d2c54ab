import type { AuditSink } from '../../audit/types.js';
import type { Outcome } from '../../core/outcome.js';

/**
 * One tool execution and the PreToolUse outcome that let it run. An adapter records
 * it just before the tool runs, so a coverage check can prove every execution went
 * through the policy (`allowedBy` is null only for a tool nobody governed).
 */
export interface ToolExecution {
  /** The framework that ran the tool: `ai-sdk`, `openai-agents`, `langchain`, `mcp-proxy`. */
  host: string;
  ts: string;
  sessionId: string;
  toolName: string;
  toolUseId: string;
  toolInput: Record<string, unknown>;
  /** The PreToolUse outcome that allowed this execution (after any PermissionRequest or approval). */
  allowedBy: Outcome | null;
  /** How the call got permission: the policy, a PermissionRequest hook, or an approver (human). */
  approvedBy: 'policy' | 'hook' | 'approver';
}

/** Where adapters report tool executions. */
export interface CoverageSink {
  toolExecuted(execution: ToolExecution): void;
}

/** Keeps executions in memory; `uncovered()` lists the ones no PreToolUse allowed. */
export class MemoryCoverage implements CoverageSink {
  readonly executions: ToolExecution[] = [];

  toolExecuted(execution: ToolExecution): void {
    this.executions.push(execution);
  }

  uncovered(): ToolExecution[] {
    return this.executions.filter((e) => e.allowedBy === null || e.allowedBy.event !== 'PreToolUse' || e.allowedBy.blocked);
  }
}

/**
 * Writes each execution to an audit store as a `tool` record (the same kind the
 * runtime writes before a tool runs), durably when the store can: a tool whose
 * execution cannot be recorded does not run.
 */
export class AuditCoverage implements CoverageSink {
  constructor(private readonly audit: AuditSink) {}

  toolExecuted(e: ToolExecution): void {
    const record = {
      kind: 'tool' as const,
      ts: e.ts,
      sessionId: e.sessionId,
      tool: e.toolName,
      event: 'PreToolUse',
      decision: e.allowedBy?.decision ?? null,
      data: {
        tool_name: e.toolName,
        tool_input: e.toolInput,
        tool_use_id: e.toolUseId,
        host: e.host,
        approved_by: e.approvedBy,
        allowed_by: e.allowedBy,
      },
    };
    if (this.audit.appendDurable) this.audit.appendDurable(record);
    else this.audit.append(record);
  }
}
