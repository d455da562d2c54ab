import type { ApprovalStore } from '../approvals/types.js';
import type { AuditSink } from '../audit/types.js';
import type { HookwiseConfig } from '../config/define.js';
import type { HookEngine } from '../core/engine.js';
import type { HookInput } from '../core/input.js';
import type { HookRecord, Outcome } from '../core/outcome.js';
import type { AnyHook } from '../core/hook.js';
import type { ChatMessage, ModelProvider } from '../providers/types.js';
import type { Tool } from './tool.js';

/** When the transcript passes either limit, older messages are summarised (PreCompact/PostCompact). */
export interface CompactionBudget {
  /** Estimated tokens (characters / 4) of the messages sent to the model. */
  maxTranscriptTokens?: number;
  maxMessages?: number;
  /** Messages kept verbatim after compaction; default 4. */
  keepRecent?: number;
  /** Write the summary of the older messages; default: a short extract of each message, no model call. */
  summarize?: (messages: ChatMessage[]) => Promise<string> | string;
}

/** What the approval callback is asked when a hook answers `ask`: the tool gate's, one shape for every host. */
export type { ApprovalRequest } from '../gate/options.js';
import type { ApprovalRequest } from '../gate/options.js';

export interface AgentOptions {
  provider: ModelProvider;
  tools?: Tool[];
  /** An engine, or hooks / a config to register in a new engine. */
  hooks?: HookEngine | AnyHook[] | HookwiseConfig;
  /** Sent first, as a system message. */
  systemPrompt?: string;
  /** Model turns per run (subagents count their own). Default 50. */
  maxSteps?: number;
  compaction?: CompactionBudget;
  /** Decides `ask` when no `approvals` store is given. Without either (headless) ask is a denial. */
  approve?: (request: ApprovalRequest) => Promise<boolean> | boolean;
  /**
   * Durable human approval (docs/approvals.md): an `ask` no PermissionRequest hook
   * answered becomes a pending record in this store, answered from any channel; the
   * run waits for it, and a resumed run finds it again. Takes precedence over `approve`.
   */
  approvals?: ApprovalStore;
  /** The tenant the approval records belong to. Default `default`. */
  tenant?: string;
  /** How long an approval waits for an answer (default 10 minutes), and what its expiry answers (default `deny`). */
  approvalExpiry?: { afterMs?: number; onExpiry?: 'approve' | 'deny' };
  /** Working directory of the agent and its hooks. Default: process.cwd(). */
  cwd?: string;
  /** Default: a random UUID per run. */
  sessionId?: string;
  /** Where `<session>.jsonl` transcripts go. Default: `<os tmpdir>/hookwise/transcripts`. */
  transcriptDir?: string;
  /** Where `<session>.checkpoint.json` goes; `false` disables checkpoints. Default: transcriptDir. */
  checkpointDir?: string | false;
  /** Times a retried operation (retry outcome, rate limit) is attempted again. Default 3. */
  maxOperationRetries?: number;
  /** Gets a `tool` record before each tool runs and an `outcome` record for every fire. */
  audit?: AuditSink;
  signal?: AbortSignal;
  /** Live observer of everything the run does. */
  onEvent?: (event: RuntimeEvent) => void;
  /** Agent type given to the main agent's inputs; default none (Claude Code's main thread has none). */
  agentType?: string;
  /** `metadata` of every input (the `metadata` matcher reads it); a StepStart hook may replace it with `modify({ metadata })`. */
  metadata?: Record<string, unknown>;
  /** Rename the step phases in `step.name` (default `model`, `tools`, `final`), e.g. `{ model: 'Agent', tools: 'Agent', final: 'Agent' }`. */
  stepNames?: Partial<Record<'model' | 'tools' | 'final', string>>;
  /** Put the conversation (`messages`) on every input, not only on StepStart and PreModelCall. */
  messagesInInputs?: boolean;
  /** `permission_mode` of every input (Claude Code's); default `"default"`. */
  permissionMode?: string;
  /** Reasoning effort; when set, every input carries `effort: { level }` as in Claude Code. */
  effort?: string;
  /** Variables hooks run with (`ctx.env`, and the environment of command hooks), over the process's. */
  env?: Record<string, string | undefined>;
  /** `ctx.projectDir` of hooks (Claude Code's CLAUDE_PROJECT_DIR); default `cwd`. */
  projectDir?: string;
  /**
   * The event a failed tool call fires. Default `PostToolUseFailure` (Claude Code's);
   * `PostToolUse` (the A3S HookEngine's way) fires PostToolUse instead, with
   * `result.success: false` and `tool_response: { error }`. Either way, exactly one fires.
   */
  toolFailureEvent?: 'PostToolUseFailure' | 'PostToolUse';
}

export type StopReason =
  /** The model answered without tool calls and no Stop hook kept it going. */
  | 'end_turn'
  /** A hook said stop (`continue: false`). */
  | 'hook_stop'
  /** A blockable event was blocked where that ends the run (StepStart, PreModelCall, PostToolBatch). */
  | 'hook_blocked'
  | 'session_refused'
  | 'prompt_rejected'
  /** Stop (or SubagentStop) blocked 8 times in a row; the agent stopped anyway. */
  | 'stop_hook_limit'
  | 'max_steps'
  | 'error';

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

export interface RunResult {
  /** The last text the model gave. */
  text: string;
  stopReason: StopReason;
  /** The hook's reason, or the error's message. */
  reason: string | null;
  /** Set when stopReason is 'error' or 'max_steps': the kind ('rate_limit', 'http', 'max_steps', ...). */
  error: { type: string; message: string } | null;
  steps: number;
  usage: Usage;
  sessionId: string;
  transcriptPath: string;
  checkpointPath: string | null;
  messages: ChatMessage[];
}

/** What an observer sees, in order. `agentId` is set inside a subagent. */
export type RuntimeEvent =
  | { type: 'session_start'; sessionId: string; transcriptPath: string }
  | { type: 'hook'; event: string; input: HookInput; outcome: Outcome; durationMs: number; attempt: number; agentId?: string }
  | { type: 'hook_start'; event: string; hook: string; statusMessage?: string }
  | { type: 'hook_end'; event: string; hook: string; record: HookRecord }
  | { type: 'retry'; event: string; attempt: number; delayMs: number; why: string; agentId?: string }
  | { type: 'step_start'; step: number; agentId?: string }
  | { type: 'step_end'; step: number; agentId?: string }
  | { type: 'model_start'; step: number; messages: number; agentId?: string }
  | { type: 'model_end'; step: number; usage: Usage | null; durationMs: number; error?: string; agentId?: string }
  | { type: 'text'; text: string; agentId?: string }
  | { type: 'tool_start'; tool: string; input: Record<string, unknown>; toolUseId: string; agentId?: string }
  | { type: 'tool_end'; tool: string; toolUseId: string; ok: boolean; output: string; durationMs: number; agentId?: string }
  | { type: 'tool_denied'; tool: string; toolUseId: string; reason: string; agentId?: string }
  | {
      type: 'approval';
      tool: string;
      toolUseId: string;
      approved: boolean;
      /** `store`: an answer to a durable approval; `standing`: a session-wide approval given earlier. */
      by: 'hook' | 'callback' | 'headless' | 'store' | 'standing';
      /** With `store` and `standing`: the approval record, who answered it and their note. */
      approvalId?: string;
      answeredBy?: string | null;
      note?: string | null;
      agentId?: string;
    }
  /** A tool call waits for a durable approval: once when the wait begins (`waitedMs` 0), then as it goes on. */
  | { type: 'approval_wait'; approvalId: string; tool: string; toolUseId: string; waitedMs: number; expiresAt: string; agentId?: string }
  | { type: 'system_message'; text: string; event: string }
  | { type: 'compaction'; before: number; after: number; agentId?: string }
  /** `waiting`: written inside the step, as a tool call began to wait for an approval. */
  | { type: 'checkpoint'; path: string; step: number; waiting?: boolean }
  | { type: 'subagent_start'; agentId: string; agentType: string }
  | { type: 'subagent_end'; agentId: string; agentType: string; stopReason: StopReason }
  | { type: 'session_end'; result: RunResult };
