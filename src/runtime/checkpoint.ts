import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { ChatMessage } from '../providers/types.js';
import type { RunContext } from './run-context.js';

/** What a checkpoint file holds: enough to continue the session where it was. */
export interface CheckpointData {
  version: 1;
  session_id: string;
  saved_at: string;
  cwd: string;
  transcript_path: string;
  /** Index of the next step. */
  step: number;
  messages: ChatMessage[];
  usage: { inputTokens: number; outputTokens: number };
  stop_hook_blocks: number;
  subagents: number;
}

const toolCall = z.object({ id: z.string(), name: z.string(), input: z.record(z.string(), z.unknown()) });
/** One ChatMessage, as checkpoints store it and as hooks may write it (`modify({ messages })`). */
export const chatMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({ role: z.literal('assistant'), content: z.string(), toolCalls: z.array(toolCall).optional() }),
  z.object({ role: z.literal('tool'), toolCallId: z.string(), name: z.string(), content: z.string(), isError: z.boolean().optional() }),
]);
const schema = z.object({
  version: z.literal(1),
  session_id: z.string().min(1),
  saved_at: z.string(),
  cwd: z.string(),
  transcript_path: z.string(),
  step: z.number().int().min(0),
  messages: z.array(chatMessageSchema),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }),
  stop_hook_blocks: z.number().int().min(0),
  subagents: z.number().int().min(0),
});

export class CheckpointError extends Error {
  constructor(file: string, why: string) {
    super(`${file}: ${why}`);
    this.name = 'CheckpointError';
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
    throw new CheckpointError(file, `cannot read checkpoint: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new CheckpointError(
      file,
      `invalid checkpoint at ${issue.path.join('.') || '(root)'}: ${issue.message}; write it with the hookwise runtime, or start a new run`,
    );
  }
  return parsed.data as CheckpointData;
}

/** After each step of the main agent: persist the state, then fire Checkpoint. */
export async function checkpointStep(run: RunContext): Promise<void> {
  const file = run.session.checkpointPath;
  if (file === null || run.isSubagent) return;
  saveCheckpoint(file, checkpointOf(run));
  run.session.observer.emit({ type: 'checkpoint', path: file, step: run.stepIndex - 1 });
  await run.hooks.fire('Checkpoint', { checkpoint_path: file, message_count: run.messages.length });
}
