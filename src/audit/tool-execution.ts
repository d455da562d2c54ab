import type { AuditRecord } from './types.js';
import { AuditRecordError } from './errors.js';

/**
 * A tool execution: written by a host (the runtime, an adapter, the MCP proxy)
 * just before it runs a tool, after PreToolUse allowed the call. `toolUseId` is
 * the id the PreToolUse fire carried as `tool_use_id`: it names the outcome that
 * allowed this execution, and `hookwise audit coverage` matches the two by it.
 */
export interface ToolExecution {
  sessionId: string;
  toolName: string;
  toolInput: unknown;
  /** The `tool_use_id` given to the PreToolUse fire that allowed this call. */
  toolUseId: string;
  /** Which host ran it, e.g. `ai-sdk`, `openai-agents`, `langchain`, `mcp-proxy`, `runtime`. */
  host?: string;
  agentId?: string;
  /** PostgreSQL stream (default: the session id). */
  stream?: string;
  /** Default: now. */
  ts?: string;
}

/** The `tool` record of an execution, shaped as the runtime has always written it. */
export function toolExecutionRecord(execution: ToolExecution): AuditRecord {
  if (typeof execution?.toolUseId !== 'string' || execution.toolUseId === '') {
    throw new AuditRecordError('recordToolExecution: toolUseId must be the non-empty tool_use_id the PreToolUse fire carried');
  }
  if (typeof execution.toolName !== 'string' || execution.toolName === '')
    throw new AuditRecordError('recordToolExecution: toolName must be a non-empty string');
  const data: Record<string, unknown> = {
    tool_name: execution.toolName,
    tool_input: execution.toolInput,
    tool_use_id: execution.toolUseId,
  };
  if (execution.host !== undefined) data.host = execution.host;
  if (execution.agentId !== undefined) data.agent_id = execution.agentId;
  const record: AuditRecord = {
    kind: 'tool',
    ts: execution.ts ?? new Date().toISOString(),
    sessionId: execution.sessionId,
    tool: execution.toolName,
    data,
  };
  if (execution.stream !== undefined) record.stream = execution.stream;
  return record;
}
