import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { ChatMessage, ToolCall } from '../providers/types.js';
import type { RunContext } from './run-context.js';
import type { CallResult } from './tool-executor.js';
import { HookwiseError } from '../core/errors.js';

/**
 * What a checkpoint file holds: enough to continue the session where it was.
 * Version 1 is written between steps; version 2 inside a step, when a tool call
 * began to wait for an approval (docs/approvals.md): then `batch` says how the
 * calls before it ended, and a resumed run runs the calls without a result
 * before it calls the model again. Both versions load.
 */
export interface CheckpointData {
  version: 1 | 2;
  session_id: string;
  saved_at: string;
  cwd: string;
  transcript_path: string;
  /** Index of the next step; with `batch`, of the step whose tool calls are running. */
  step: number;
  messages: ChatMessage[];
  usage: { inputTokens: number; outputTokens: number };
  stop_hook_blocks: number;
  subagents: number;
  /** Version 2 only: the calls of the last assistant message that have their result (in `messages`), in call order. */
  batch?: { results: BatchEntry[] };
}

/** One finished call of an unfinished batch, as PostToolBatch will report it. */
export interface BatchEntry {
  tool_use_id: string;
  status: CallResult['status'];
  tool_input: Record<string, unknown>;
}

/** The tool calls a resumed run owes the model: the last assistant message's calls that have no result yet. */
export interface UnfinishedBatch {
  /** The calls that ran before, with their results (already in the conversation). */
  done: Array<CallResult & { call: ToolCall }>;
  /** The calls still to run, in order. */
  calls: ToolCall[];
}

const toolCall = z.object({ id: z.string(), name: z.string(), input: z.record(z.string(), z.unknown()) });
/** One ChatMessage, as checkpoints store it and as hooks may write it (`modify({ messages })`). */
export const chatMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({ role: z.literal('assistant'), content: z.string(), toolCalls: z.array(toolCall).optional() }),
  z.object({ role: z.literal('tool'), toolCallId: z.string(), name: z.string(), content: z.string(), isError: z.boolean().optional() }),
]);
const batchEntry = z.object({
  tool_use_id: z.string().min(1),
  status: z.enum(['ok', 'error', 'denied', 'not_run']),
  tool_input: z.record(z.string(), z.unknown()),
});
const common = {
  session_id: z.string().min(1),
  saved_at: z.string(),
  cwd: z.string(),
  transcript_path: z.string(),
  step: z.number().int().min(0),
  messages: z.array(chatMessageSchema),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }),
  stop_hook_blocks: z.number().int().min(0),
  subagents: z.number().int().min(0),
};
const schema = z.discriminatedUnion('version', [
  z.object({ version: z.literal(1), ...common }),
  z.object({ version: z.literal(2), ...common, batch: z.object({ results: z.array(batchEntry) }) }).superRefine((data, ctx) => {
    const problem = batchProblem(data.messages, data.batch.results);
    if (problem) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  }),
]);

export class RunCheckpointError extends HookwiseError {
  override readonly code = 'RUN_CHECKPOINT';
  constructor(file: string, why: string) {
    super(`${file}: ${why}`);
  }
}

export function checkpointOf(run: RunContext): CheckpointData {
  const s = run.session;
  return {
    version: 1,
    session_id: s.sessionId,
    saved_at: new Date().toISOString(),
    cwd: s.cwd,
    transcript_path: s.transcriptPath,
    step: run.stepIndex,
    messages: run.messages,
    usage: { ...s.usage },
    stop_hook_blocks: run.stopBlocks,
    subagents: s.subagents,
  };
}

/** Written to a temporary file and renamed, so a crash never leaves half a checkpoint. */
export function saveCheckpoint(file: string, data: CheckpointData): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(data)}\n`);
  renameSync(tmp, file);
}

export function loadCheckpoint(file: string): CheckpointData {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new RunCheckpointError(file, `cannot read checkpoint: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new RunCheckpointError(
      file,
      `invalid checkpoint at ${issue.path.join('.') || '(root)'}: ${issue.message}; write it with the hookwise runtime, or start a new run`,
    );
  }
  return parsed.data as CheckpointData;
}

/**
 * The batch a checkpoint left unfinished, or null when the last assistant message's
 * calls all have results (every checkpoint written between steps). A call's status
 * comes from `batch` when the runtime wrote one; otherwise from its result.
 */
export function unfinishedBatch(checkpoint: CheckpointData): UnfinishedBatch | null {
  const { messages } = checkpoint;
  const at = lastAssistant(messages);
  const calls = at < 0 ? [] : ((messages[at] as Extract<ChatMessage, { role: 'assistant' }>).toolCalls ?? []);
  const results = new Map<string, Extract<ChatMessage, { role: 'tool' }>>();
  for (const m of messages.slice(at + 1)) if (m.role === 'tool') results.set(m.toolCallId, m);
  const open = calls.filter((c) => !results.has(c.id));
  if (open.length === 0) return null;
  const entries = new Map((checkpoint.batch?.results ?? []).map((e) => [e.tool_use_id, e]));
  const done = calls
    .filter((c) => results.has(c.id))
    .map((call) => {
      const message = results.get(call.id)!;
      const entry = entries.get(call.id);
      const status: CallResult['status'] = entry?.status ?? (message.isError ? 'error' : 'ok');
      return { call, message, status, input: entry?.tool_input ?? call.input };
    });
  return { done, calls: open };
}

/**
 * Inside a step, as a call of the main agent begins to wait for an approval: the
 * conversation with the results of the batch so far, so a process killed while it
 * waits resumes into the same ask. Then Checkpoint fires, with `waiting_for_approval`.
 */
export async function checkpointWaiting(run: RunContext, call: ToolCall, results: CallResult[]): Promise<void> {
  const file = run.session.checkpointPath;
  if (file === null || run.isSubagent) return;
  const inConversation = new Set(run.messages.slice(lastAssistant(run.messages) + 1).map((m) => (m.role === 'tool' ? m.toolCallId : '')));
  const messages = [...run.messages, ...results.filter((r) => !inConversation.has(r.message.toolCallId)).map((r) => r.message)];
  const batch = { results: results.map((r) => ({ tool_use_id: r.message.toolCallId, status: r.status, tool_input: r.input })) };
  saveCheckpoint(file, { ...checkpointOf(run), version: 2, messages, batch });
  run.session.observer.emit({ type: 'checkpoint', path: file, step: run.stepIndex, waiting: true });
  await run.hooks.fire('Checkpoint', {
    checkpoint_path: file,
    message_count: messages.length,
    waiting_for_approval: { tool_name: call.name, tool_use_id: call.id },
  });
}

/** After each step of the main agent: persist the state, then fire Checkpoint. */
export async function checkpointStep(run: RunContext): Promise<void> {
  const file = run.session.checkpointPath;
  if (file === null || run.isSubagent) return;
  saveCheckpoint(file, checkpointOf(run));
  run.session.observer.emit({ type: 'checkpoint', path: file, step: run.stepIndex - 1 });
  await run.hooks.fire('Checkpoint', { checkpoint_path: file, message_count: run.messages.length });
}

function lastAssistant(messages: ChatMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'assistant') return i;
  return -1;
}

/** A version 2 checkpoint must describe a batch that is really unfinished, with a result for each finished call. */
function batchProblem(messages: ChatMessage[], entries: BatchEntry[]): { path: Array<string | number>; message: string } | null {
  const at = lastAssistant(messages);
  const last = at < 0 ? undefined : (messages[at] as Extract<ChatMessage, { role: 'assistant' }>);
  if (!last?.toolCalls?.length)
    return { path: ['messages'], message: 'a version 2 checkpoint must end with an assistant message that has tool calls' };
  const ids = new Set(last.toolCalls.map((c) => c.id));
  const answered = new Set(messages.slice(at + 1).map((m) => (m.role === 'tool' ? m.toolCallId : '')));
  for (const [i, entry] of entries.entries()) {
    if (!ids.has(entry.tool_use_id) || !answered.has(entry.tool_use_id))
      return {
        path: ['batch', 'results', i, 'tool_use_id'],
        message: `"${entry.tool_use_id}" is not a call of the last assistant message with a result`,
      };
  }
  if (last.toolCalls.every((c) => answered.has(c.id)))
    return { path: ['batch'], message: 'every call of the last assistant message has a result: nothing is unfinished' };
  return null;
}
