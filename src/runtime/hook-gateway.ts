import type { HookEngine } from '../core/engine.js';
import { eventInfo } from '../core/events.js';
import type { HookInput } from '../core/input.js';
import type { Outcome } from '../core/outcome.js';
import type { Observer } from './observer.js';
import { sleep } from './sleep.js';
import type { Transcript } from './transcript.js';

export interface GatewayScope {
  engine: HookEngine;
  sessionId: string;
  cwd: string;
  /** The session's main transcript (Claude Code's `transcript_path`). */
  transcriptPath: string;
  /** Where this agent's lines go (a subagent has its own file). */
  transcript: Transcript;
  observer: Observer;
  signal: AbortSignal;
  maxOperationRetries: number;
  agentId?: string;
  agentType?: string;
  /** additionalContext of events that do not deliver it themselves waits here for the next model call. */
  pendingContext: string[];
}

/** Events whose additionalContext the runtime puts somewhere itself (prompt, tool result, child prompt). */
const DELIVERS_CONTEXT = new Set(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'SubagentStart']);

export interface FireHow {
  /**
   * 'refire' (default): a retry outcome means wait and fire the same event again,
   * bounded, then a block "retry limit reached". 'return': the caller gives retry
   * its own meaning (PostModelCall: redo the model call).
   */
  retry?: 'refire' | 'return';
}

export const RETRY_LIMIT_REASON = 'retry limit reached';

/**
 * The one place the runtime fires events: it adds the fields every input carries,
 * applies the retry rule, writes the fire to the transcript and tells observers.
 */
export class HookGateway {
  constructor(private readonly scope: GatewayScope) {}

  /** The input of an event: the common fields, then the event's own (which may override them). */
  input(event: string, fields: Record<string, unknown>): HookInput {
    const s = this.scope;
    const input: HookInput = {
      hook_event_name: event,
      session_id: s.sessionId,
      cwd: s.cwd,
      timestamp: new Date().toISOString(),
      transcript_path: s.transcriptPath,
    };
    if (s.agentId !== undefined) {
      input.agent_id = s.agentId;
      input.agent_type = s.agentType;
      input.agent_transcript_path = s.transcript.path;
    }
    return Object.assign(input, fields);
  }

  async fire(event: string, fields: Record<string, unknown> = {}, how: FireHow = {}): Promise<Outcome> {
    const s = this.scope;
    for (let attempt = 0; ; attempt++) {
      const input = this.input(event, fields);
      const t0 = performance.now();
      const outcome = await s.engine.fire(event, input, { sessionId: s.sessionId, cwd: s.cwd, signal: s.signal });
      this.record(event, input, outcome, performance.now() - t0, attempt);
      // Context from any other event (or left by an async hook) still reaches the model, before its next call.
      if (outcome.additionalContext && !DELIVERS_CONTEXT.has(outcome.event)) s.pendingContext.push(outcome.additionalContext);
      if (outcome.retry === null || how.retry === 'return') return outcome;
      if (attempt >= s.maxOperationRetries) return retryLimitReached(outcome);
      s.observer.emit({ type: 'retry', event, attempt: attempt + 1, delayMs: outcome.retry.delayMs, why: 'hook asked to retry', ...this.agent() });
      await sleep(outcome.retry.delayMs, s.signal);
    }
  }

  private record(event: string, input: HookInput, outcome: Outcome, durationMs: number, attempt: number): void {
    const s = this.scope;
    s.transcript.append({
      type: 'hook',
      event,
      decision: outcome.decision,
      blocked: outcome.blocked,
      reason: outcome.reason,
      stop: outcome.stop,
      hooks: outcome.hooks.map((h) => h.name),
    });
    s.observer.emit({ type: 'hook', event, input, outcome, durationMs, attempt, ...this.agent() });
    if (outcome.systemMessage) s.observer.emit({ type: 'system_message', text: outcome.systemMessage, event });
  }

  private agent(): { agentId?: string } {
    return this.scope.agentId === undefined ? {} : { agentId: this.scope.agentId };
  }
}

/** A retry that ran out of attempts is a block (SEMANTICS.md section 5). */
export function retryLimitReached(outcome: Outcome): Outcome {
  return {
    ...outcome,
    retry: null,
    blocked: true,
    reason: RETRY_LIMIT_REASON,
    decision: eventInfo(outcome.event).permission ? 'deny' : outcome.decision,
  };
}

/** The hook that decided a blocked outcome, for messages such as "hook X denied ...". */
export function decidingHook(outcome: Outcome): string {
  const deciding = outcome.hooks.find((h) => h.result === 'deny' || h.result === 'block' || h.result === 'stop');
  if (deciding) return deciding.name;
  const failed = outcome.hooks.find((h) => (h.status === 'error' || h.status === 'timeout') && outcome.reason?.startsWith(`hook ${h.name} failed`));
  if (failed) return failed.name;
  const retried = outcome.hooks.find((h) => h.result === 'retry');
  if (retried) return retried.name;
  return outcome.hooks.find((h) => h.status !== 'skipped')?.name ?? '(unknown)';
}

/** "hook X: reason" for a blocked outcome. */
export function blockedBy(outcome: Outcome): string {
  const reason = outcome.stop ? (outcome.stopReason ?? outcome.reason) : outcome.reason;
  return `hook "${decidingHook(outcome)}"${reason ? `: ${reason}` : ''}`;
}
