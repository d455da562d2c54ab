/**
 * What each event's input holds, typed: the field names and types per event of
 * docs/model.md ("Types"), the wire format hookwise shares with the agents it hosts,
 * plus the fields the hookwise runtime adds. A handler registered for one event gets that event's
 * input; a misspelt field or event name is a compile error.
 *
 * These are type aliases, not interfaces, on purpose: aliases are assignable to the
 * engine's open `HookInput`, so typed handlers and the untyped engine meet without casts.
 */

/** Fields every input carries (the engine adds the first three when the host did not). */
export type CommonInput = {
  hook_event_name: string;
  session_id: string;
  cwd: string;
  transcript_path?: string;
  /** ISO time, stamped by the host. */
  timestamp?: string;
  /** The agent's permission mode: `default`, `plan`, `acceptEdits`, `bypassPermissions`, ... */
  permission_mode?: string;
  /** From the first prompt on: one id per submitted prompt, the same on every event that follows it. */
  prompt_id?: string;
  /** The agent's effort, when it has one (not on SessionStart and UserPromptSubmit). */
  effort?: { level: string };
  /** Inside a subagent. */
  agent_id?: string;
  agent_type?: string;
  agent_transcript_path?: string;
  /** The step of the agent loop (hookwise's runtime). */
  step?: { index?: number; name?: string };
  /** The host's own data for hooks (hookwise's runtime: the agent's `metadata` option). */
  metadata?: Record<string, unknown>;
};

/**
 * The arguments of a tool call. The built-in tools' fields are typed (Bash's
 * `command`, Write's `file_path` and `content`, ...); any other tool's arguments
 * are there too, as `unknown`, to be checked before use.
 */
export type ToolInput = {
  /** Bash */
  command?: string;
  description?: string;
  timeout?: number;
  run_in_background?: boolean;
  /** Read, Write, Edit, MultiEdit */
  file_path?: string;
  content?: string;
  old_string?: string;
  new_string?: string;
  replace_all?: boolean;
  offset?: number;
  limit?: number;
  edits?: Array<{ old_string: string; new_string: string; replace_all?: boolean }>;
  /** NotebookEdit */
  notebook_path?: string;
  new_source?: string;
  /** Glob, Grep, LS */
  pattern?: string;
  path?: string;
  glob?: string;
  /** WebFetch, WebSearch */
  url?: string;
  prompt?: string;
  query?: string;
  /** Task (subagents) */
  subagent_type?: string;
  [argument: string]: unknown;
};

type ToolCall = { tool_name: string; tool_input: ToolInput; tool_use_id?: string };

/** What the hookwise runtime adds to PostToolUse and PostToolUseFailure (docs/runtime.md). */
type ToolResult = { success: boolean; output: unknown; duration_ms: number; [annotation: string]: unknown };

/** The model's identity, as the hookwise runtime gives it on SessionStart and around model calls. */
type ModelFields = { model?: string; provider?: string; model_provider?: string; model_name?: string };

/** The input of each event, by canonical name (with the runtime's fields: docs/runtime.md, "When each event fires"). */
export type EventInputs = {
  SessionStart: ModelFields & { source?: 'startup' | 'resume' | 'clear' | 'compact' | (string & {}); system_prompt?: string };
  SessionEnd: { reason?: string; stop_reason?: string; total_tokens?: number; total_tool_calls?: number; duration_ms?: number };
  UserPromptSubmit: { prompt: string; prompt_id?: string };
  PreModelCall: ModelFields & {
    messages?: unknown[];
    prompt?: string;
    system_prompt?: string | null;
    available_tools?: string[];
    tool_names?: string[];
    message_count?: number;
  };
  PostModelCall: ModelFields & {
    response?: unknown;
    response_text?: string;
    tool_calls?: unknown[];
    usage?: Record<string, number>;
    prompt?: string;
    stop_reason?: string;
    duration_ms?: number;
    /** Instead of the response, when the call failed. */
    error?: { type: string; message: string; status: number | null; retry_after_ms: number | null };
  };
  StepStart: { step_name?: string; state?: Record<string, unknown>; messages?: unknown[] };
  StepEnd: {
    step_name?: string;
    state?: Record<string, unknown>;
    status?: 'completed' | 'halted' | 'failed';
    final?: boolean;
    duration_ms?: number;
  };
  PreToolUse: ToolCall & { recent_tools?: string[] };
  PermissionRequest: ToolCall & { permission_suggestions?: unknown[]; reason?: string };
  PostToolUse: ToolCall & { tool_response: unknown; duration_ms?: number; result?: ToolResult };
  PostToolUseFailure: ToolCall & { error: string; is_interrupt?: boolean; duration_ms?: number; result?: ToolResult };
  PostToolBatch: { tool_calls?: unknown[] };
  Stop: { stop_hook_active: boolean; last_assistant_message?: string; background_tasks?: unknown[]; session_crons?: unknown[] };
  StopFailure: { error: string; error_details?: string; last_assistant_message?: string };
  SubagentStart: { agent_id?: string; agent_type: string; prompt?: string; description?: string; agent_transcript_path?: string };
  SubagentStop: {
    stop_hook_active: boolean;
    agent_id?: string;
    agent_type: string;
    agent_transcript_path?: string;
    last_assistant_message?: string;
    success?: boolean;
    /** Why the child failed; null when it succeeded. */
    error?: string | null;
  };
  PreCompact: {
    trigger: 'manual' | 'auto' | (string & {});
    custom_instructions?: string | null;
    message_count?: number;
    estimated_tokens?: number;
  };
  PostCompact: { trigger: 'manual' | 'auto' | (string & {}); compact_summary?: string; messages_before?: number; messages_after?: number };
  Checkpoint: { checkpoint_path?: string; message_count?: number };
  /** `approval_id` when an approval store waits for a person (docs/approvals.md). */
  Notification: { message: string; title?: string; notification_type?: string; approval_id?: string };
  Setup: { trigger?: string };
  InstructionsLoaded: { file_path?: string; load_reason?: string };
  PermissionDenied: ToolCall & { reason?: string };
  TaskCreated: { task_id?: string; task_subject?: string; task_description?: string };
  TaskCompleted: { task_id?: string; task_subject?: string; task_description?: string };
  TeammateIdle: { teammate_name?: string; team_name?: string };
  ConfigChange: { source?: string; file_path?: string };
  CwdChanged: { old_cwd?: string; new_cwd?: string };
  FileChanged: { file_path: string; event?: string };
  WorktreeCreate: { name?: string };
  WorktreeRemove: { worktree_path?: string };
  Elicitation: { mcp_server_name: string; message?: string; requested_schema?: unknown };
  ElicitationResult: { mcp_server_name: string; action?: string; content?: unknown };
  PreModelSwitch: { from_model?: string; to_model: string };
};

/**
 * Events of your own: declare them, with their input, and they type-check
 * like the built-in ones:
 *
 * ```ts
 * declare module 'hookwise' {
 *   interface CustomEvents {
 *     DeployRequested: { environment: string };
 *   }
 * }
 * ```
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in users' code
export interface CustomEvents {}

/**
 * Other names for the canonical events (name → canonical), for typed hooks: empty
 * here, filled by declaration merging by the layer that gives engines those names
 * (src/compat/event-aliases.ts; docs/model.md, "Event names").
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging
export interface EventAliases {}

export type CanonicalEventName = keyof EventInputs;
/** Every name an event can be registered or fired under: canonical, alias, or declared in `CustomEvents`. */
export type EventName = CanonicalEventName | keyof EventAliases | (keyof CustomEvents & string);

/** The input a handler of event `E` receives. */
export type InputOf<E extends string> = E extends CanonicalEventName
  ? CommonInput & { hook_event_name: E } & EventInputs[E]
  : E extends keyof EventAliases
    ? CommonInput & { hook_event_name: EventAliases[E] } & EventInputs[EventAliases[E]]
    : E extends keyof CustomEvents
      ? CommonInput & { hook_event_name: E } & CustomEvents[E]
      : never;

/** The input of event `E`; of any known event by default (narrow it on `hook_event_name`). */
export type HookInput<E extends EventName = EventName> = InputOf<E>;
