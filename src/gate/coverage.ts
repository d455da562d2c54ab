import type { AuditSink } from '../audit/types.js';
import type { HookEngine } from '../core/engine.js';
import type { Outcome } from '../core/outcome.js';
import { auditEngine } from '../audit/engine.js';
import { toolExecutionRecord } from '../audit/tool-execution.js';

/**
 * One tool execution and the PreToolUse outcome that let it run. An adapter records
 * it just before the tool runs, so a coverage check can prove every execution went
 * through the policy (`allowedBy` is null only for a tool nobody governed).
 */
export interface ToolExecution {
  /** The host that ran the tool: `runtime`, `ai-sdk`, `openai-agents`, `langchain`, `mcp-proxy`. */
  host: string;
  ts: string;
  sessionId: string;
  toolName: string;
  toolUseId: string;
  toolInput: Record<string, unknown>;
  /** The PreToolUse outcome that allowed this execution (after any PermissionRequest or approval). */
  allowedBy: Outcome | null;
  /** How the call got permission: the policy, a PermissionRequest hook, an approver (human), or a durable approval (docs/approvals.md). */
  approvedBy: 'policy' | 'hook' | 'approver' | 'approval';
  /** With `approval`: the approval record that let it run. */
  approvalId?: string;
  /** The subagent that ran it (the runtime's). */
  agentId?: string;
}

/** Where adapters report tool executions. */
export interface CoverageSink {
  /** Resolves once recorded; the tool runs only then. A throw or rejection refuses the call. */
  toolExecuted(execution: ToolExecution): void | Promise<unknown>;
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
 * Writes each execution to an audit store as a `tool` record (the record the
 * runtime writes before a tool runs), and records every Outcome of the engine,
 * so `hookwise audit coverage` finds the PreToolUse outcome that allowed each
 * execution (and the denials next to them).
 */
export class AuditCoverage implements CoverageSink {
  constructor(
    private readonly audit: AuditSink,
    engine?: HookEngine,
  ) {
    if (engine) recordOutcomes(engine, audit);
  }

  async toolExecuted(e: ToolExecution): Promise<void> {
    const record = toolExecutionRecord({
      sessionId: e.sessionId,
      toolName: e.toolName,
      toolInput: e.toolInput,
      toolUseId: e.toolUseId,
      host: e.host,
      ts: e.ts,
      ...(e.agentId === undefined ? {} : { agentId: e.agentId }),
    });
    // The durable approval that let it run, as the runtime records it.
    if (e.approvalId !== undefined) record.data.approval_id = e.approvalId;
    if (this.audit.appendDurable) await this.audit.appendDurable(record);
    else this.audit.append(record);
  }
}

/** Engines already recording into a store: wrapping several tool sets over one engine records each Outcome once. */
const recording = new WeakMap<HookEngine, WeakSet<AuditSink>>();

function recordOutcomes(engine: HookEngine, audit: AuditSink): void {
  const stores = recording.get(engine) ?? new WeakSet<AuditSink>();
  recording.set(engine, stores);
  if (stores.has(audit)) return;
  stores.add(audit);
  auditEngine(engine, audit);
}
