import { z } from 'zod';
import type { Outcome } from '../core/outcome.js';
import type { ChatMessage } from '../providers/types.js';
import { chatMessageSchema } from './checkpoint.js';
import { rewritingHook } from '../gate/texts.js';
import type { RunContext } from './run-context.js';

/** The fields of the agent's state a hook may rewrite, and on which events (docs/runtime.md, "Rewriting the state"). */
export type StateField = 'messages' | 'metadata' | 'system_prompt' | 'prompt';

const messagesSchema = z.array(chatMessageSchema);
const metadataSchema = z.record(z.string(), z.unknown());

/**
 * Apply what `modify(...)` patched on StepStart or PreModelCall to the agent's
 * state: the conversation (`messages`), the session's `metadata`, the system
 * prompt, the latest user prompt. Fields outside `allowed` are ignored. Returns
 * an error message when a value has the wrong shape; then nothing is applied.
 */
export function applyStateRewrite(run: RunContext, outcome: Outcome, allowed: readonly StateField[]): string | null {
  const patch = outcome.updatedInput;
  if (!patch || outcome.blocked) return null;
  const fields = allowed.filter((f) => Object.hasOwn(patch, f));
  if (fields.length === 0) return null;

  let messages = run.messages;
  let metadata = run.session.metadata;
  for (const field of fields) {
    const value = patch[field];
    if (field === 'messages') {
      const parsed = messagesSchema.safeParse(value);
      if (!parsed.success) return invalid(outcome, field, parsed.error.issues[0]);
      messages = parsed.data as ChatMessage[];
    } else if (field === 'metadata') {
      const parsed = metadataSchema.safeParse(value);
      if (!parsed.success) return invalid(outcome, field, parsed.error.issues[0]);
      metadata = Object.freeze({ ...parsed.data });
    } else if (typeof value !== 'string') {
      return `${outcome.event} hook "${rewritingHook(outcome)}" set ${field} to ${typeof value}; it must be a string`;
    } else if (field === 'system_prompt') {
      messages = withSystemPrompt(messages, value);
    } else {
      messages = withPrompt(messages, value);
    }
  }
  run.messages = messages === run.messages ? messages : [...messages];
  run.session.metadata = metadata;
  run.transcript.append({
    type: 'state_rewrite',
    event: outcome.event,
    hook: rewritingHook(outcome),
    fields,
    message_count: run.messages.length,
  });
  return null;
}

function invalid(outcome: Outcome, field: string, issue: z.core.$ZodIssue | undefined): string {
  const where = issue?.path.length ? `${field}.${issue.path.join('.')}` : field;
  return `${outcome.event} hook "${rewritingHook(outcome)}" set an invalid ${where}${issue ? `: ${issue.message}` : ''}`;
}

/** Replace the first system message, or put one first. */
function withSystemPrompt(messages: ChatMessage[], text: string): ChatMessage[] {
  const i = messages.findIndex((m) => m.role === 'system');
  if (i < 0) return [{ role: 'system', content: text }, ...messages];
  return messages.map((m, j) => (j === i ? { role: 'system', content: text } : m));
}

/** Replace the latest user message, or add one. */
function withPrompt(messages: ChatMessage[], text: string): ChatMessage[] {
  const i = messages.findLastIndex((m) => m.role === 'user');
  if (i < 0) return [...messages, { role: 'user', content: text }];
  return messages.map((m, j) => (j === i ? { role: 'user', content: text } : m));
}

/** What StepStart and PreModelCall show of the state they may rewrite. */
export function promptOf(messages: ChatMessage[]): string {
  return messages.findLast((m) => m.role === 'user')?.content ?? '';
}

export function systemPromptOf(messages: ChatMessage[]): string | null {
  return messages.find((m) => m.role === 'system')?.content ?? null;
}
