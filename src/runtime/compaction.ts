import type { ChatMessage } from '../providers/types.js';
import { blockedBy } from './hook-gateway.js';
import { stopHalt, type Halt, type RunContext } from './run-context.js';
import type { CompactionBudget } from './types.js';

const DEFAULT_KEEP_RECENT = 4;
const EXTRACT_CHARS = 160;
export const SUMMARY_HEADER = 'Summary of the earlier conversation (compacted):';

/** A rough, deterministic token count: characters / 4, tool call inputs included. */
export function estimateTokens(messages: ChatMessage[]): number {
  let chars = 0;
  for (const m of messages) {
    chars += m.content.length;
    if (m.role === 'assistant' && m.toolCalls) chars += JSON.stringify(m.toolCalls).length;
  }
  return Math.ceil(chars / 4);
}

export function overBudget(messages: ChatMessage[], budget: CompactionBudget): boolean {
  if (budget.maxMessages !== undefined && messages.length > budget.maxMessages) return true;
  return budget.maxTranscriptTokens !== undefined && estimateTokens(messages) > budget.maxTranscriptTokens;
}

/**
 * Split into what stays at the head (system messages), what gets summarised, and
 * the recent messages kept verbatim. The recent part never starts with a tool
 * result, so no result is separated from the call that asked for it.
 */
export function planCompaction(
  messages: ChatMessage[],
  keepRecent: number,
): { head: ChatMessage[]; older: ChatMessage[]; recent: ChatMessage[] } {
  let start = 0;
  while (start < messages.length && messages[start]!.role === 'system') start++;
  const head = messages.slice(0, start);
  let cut = Math.max(start, messages.length - keepRecent);
  while (cut > start && messages[cut]?.role === 'tool') cut--;
  return { head, older: messages.slice(start, cut), recent: messages.slice(cut) };
}

/** The default summary: one short extract per message, no model call (deterministic). */
export function extractSummary(messages: ChatMessage[]): string {
  return messages
    .map((m) => {
      const calls = m.role === 'assistant' && m.toolCalls?.length ? ` [called ${m.toolCalls.map((c) => c.name).join(', ')}]` : '';
      const label = m.role === 'tool' ? `tool ${m.name}` : m.role;
      const text = m.content.replace(/\s+/g, ' ').trim();
      return `- ${label}: ${text.length > EXTRACT_CHARS ? `${text.slice(0, EXTRACT_CHARS)}...` : text}${calls}`;
    })
    .join('\n');
}

/**
 * Before each model call: when the messages pass the budget, fire PreCompact
 * (a block skips compaction), summarise the older messages, fire PostCompact.
 */
export async function compactIfNeeded(run: RunContext): Promise<Halt | undefined> {
  const budget = run.session.options.compaction;
  if (!budget || !overBudget(run.messages, budget)) return undefined;
  const plan = planCompaction(run.messages, budget.keepRecent ?? DEFAULT_KEEP_RECENT);
  if (plan.older.length === 0) return undefined;

  const before = run.messages.length;
  const pre = await run.hooks.fire('PreCompact', {
    trigger: 'auto',
    custom_instructions: null,
    message_count: before,
    estimated_tokens: estimateTokens(run.messages),
  });
  if (pre.stop) return stopHalt(pre);
  if (pre.blocked) {
    run.session.observer.emit({ type: 'system_message', text: `compaction skipped: PreCompact ${blockedBy(pre)}`, event: 'PreCompact' });
    return undefined;
  }

  const summary = await (budget.summarize ?? extractSummary)(plan.older);
  const summaryMessage: ChatMessage = { role: 'user', content: `${SUMMARY_HEADER}\n${summary}` };
  run.messages = [...plan.head, summaryMessage, ...plan.recent];
  run.transcript.append({ type: 'compaction', summary, before, after: run.messages.length });
  run.session.observer.emit({ type: 'compaction', before, after: run.messages.length, ...run.tag });
  await run.hooks.fire('PostCompact', {
    trigger: 'auto',
    compact_summary: summary,
    messages_before: before,
    messages_after: run.messages.length,
  });
  return undefined;
}
