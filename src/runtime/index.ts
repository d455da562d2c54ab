/**
 * hookwise/runtime: a small agent that fires every lifecycle event and honours
 * every hook decision (docs/runtime.md).
 */
// The engine createAgent builds reads other systems' formats (src/compat); this import
// also gives this entry's declarations their types (typed hooks on aliases, ctx.tool_input).
import '../compat/engine.js';
export { Agent, createAgent } from './agent.js';
export { defineTool, toolDefinition, validateToolInput, outputText } from './tool.js';
export type { Tool, ToolContext, ToolOutput, SubagentRequest, SubagentResult } from './tool.js';
export type { AgentOptions, ApprovalRequest, CompactionBudget, RunResult, RuntimeEvent, StopReason, Usage } from './types.js';
export { MAX_CONSECUTIVE_STOP_BLOCKS } from './continuation.js';
export { RETRY_LIMIT_REASON } from './hook-gateway.js';
export { HOOK_CONTEXT_HEADER } from './run-context.js';
export { DEFAULT_MAX_STEPS, DEFAULT_MAX_OPERATION_RETRIES, DEFAULT_TRANSCRIPT_DIR } from './session.js';
export { estimateTokens, extractSummary, SUMMARY_HEADER } from './compaction.js';
export { loadCheckpoint, saveCheckpoint, RunCheckpointError, type CheckpointData } from './checkpoint.js';
export { readTranscript, type TranscriptEntry } from './transcript.js';
export * from './tools/index.js';
export { scriptedProvider, loadScript, ScriptError, type Script, type ScriptTurn, type ScriptedProvider } from '../providers/scripted.js';
