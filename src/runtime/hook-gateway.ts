import type { FireOptions } from '../core/engine.js';
import { eventInfo } from '../core/events.js';
import type { HookInput } from '../core/input.js';
import type { Outcome } from '../core/outcome.js';
import { decidingHook } from '../gate/texts.js';
import type { RunContext } from './run-context.js';
import { sleep } from './sleep.js';

/** Events whose additionalContext the runtime puts somewhere itself (prompt, model call, tool result, child prompt). */
const DELIVERS_CONTEXT = new Set([
  'SessionStart',
  'UserPromptSubmit',
  'PreModelCall',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'SubagentStart',
]);

export interface FireHow {
  /**
   * 'refire' (default): a retry outcome means wait and fire the same event again,
   * bounded, then a block "retry limit reached". 'return': the caller gives retry
   * its own meaning (PostModelCall: redo the model call).
   */
  retry?: 'refire' | 'return';
}

export const RETRY_LIMIT_REASON = 'retry limit reached';

/** FireOptions with the fields the engine reads into `ctx.env` and `ctx.projectDir` (see docs/runtime.md). */
type RuntimeFireOptions = FireOptions & { env?: Readonly<Record<string, string | undefined>>; projectDir?: string };

/**
 * The one place the runtime fires events: it adds the fields every input carries,
 * applies the retry rule, writes the fire to the transcript and tells observers.
 */
export class HookGateway {
  constructor(private readonly run: RunContext) {}

  /**
   * The input of an event: Claude Code's common fields, the runtime's own
   * (`step`, `metadata`, `messages` when asked for), then the event's fields,
   * which may override them.
   */
  input(event: string, fields: Record<string, unknown>): HookInput {
    const run = this.run;
    const s = run.session;
    const input: HookInput = {
      hook_event_name: event,
      session_id: s.sessionId,
      transcript_path: s.transcriptPath,
      cwd: s.cwd,
    };
    if (s.promptId !== null) input.prompt_id = s.promptId;
    input.permission_mode = s.permissionMode;
    if (run.identity.agentId !== undefined) input.agent_id = run.identity.agentId;
    if (run.identity.agentType !== undefined) input.agent_type = run.identity.agentType;
    // Claude Code sends the effort on events inside a turn, not on SessionStart or UserPromptSubmit.
    if (s.effort !== undefined && event !== 'SessionStart' && event !== 'UserPromptSubmit') input.effort = { level: s.effort };
    input.timestamp = new Date().toISOString();
    if (run.identity.agentId !== undefined) input.agent_transcript_path = run.transcript.path;
    if (run.step !== null) input.step = { index: run.step.index, name: run.step.name };
    if (s.metadata !== undefined) input.metadata = s.metadata;
    if (s.options.messagesInInputs === true) input.messages = run.messages.slice();
    return Object.assign(input, fields);
  }

  async fire(event: string, fields: Record<string, unknown> = {}, how: FireHow = {}): Promise<Outcome> {
    const s = this.run.session;
    for (let attempt = 0; ; attempt++) {
      const input = this.input(event, fields);
      const t0 = performance.now();
      const outcome = await s.engine.fire(event, input, this.options(s.signal));
      this.record(event, input, outcome, performance.now() - t0, attempt);
      // Context from any other event (or left by an async hook) still reaches the model, before its next call.
      if (outcome.additionalContext && !DELIVERS_CONTEXT.has(outcome.event)) this.run.pendingContext.push(outcome.additionalContext);
      if (outcome.retry === null || how.retry === 'return') return outcome;
      if (attempt >= s.maxOperationRetries) return retryLimitReached(outcome);
      s.observer.emit({
        type: 'retry',
        event,
        attempt: attempt + 1,
        delayMs: outcome.retry.delayMs,
        why: 'hook asked to retry',
        ...this.run.tag,
      });
      await sleep(outcome.retry.delayMs, s.signal);
    }
  }

  /** Fire once, without the run's abort signal: for SessionEnd after the caller aborted. */
  fireAfterAbort(event: string, fields: Record<string, unknown>): Promise<Outcome> {
    return this.run.session.engine.fire(event, this.input(event, fields), this.options(undefined));
  }

  private options(signal: AbortSignal | undefined): RuntimeFireOptions {
    const s = this.run.session;
    return { sessionId: s.sessionId, cwd: s.cwd, signal, env: s.env, projectDir: s.projectDir };
  }

  private record(event: string, input: HookInput, outcome: Outcome, durationMs: number, attempt: number): void {
    const s = this.run.session;
    this.run.transcript.append({
      type: 'hook',
      event,
      decision: outcome.decision,
      blocked: outcome.blocked,
      reason: outcome.reason,
      stop: outcome.stop,
      hooks: outcome.hooks.map((h) => h.name),
    });
    s.observer.emit({ type: 'hook', event, input, outcome, durationMs, attempt, ...this.run.tag });
    if (outcome.systemMessage) s.observer.emit({ type: 'system_message', text: outcome.systemMessage, event });
  }
}

/** A retry that ran out of attempts is a block (docs/model.md, "Merging"). */
export function retryLimitReached(outcome: Outcome): Outcome {
  return {
    ...outcome,
    retry: null,
    blocked: true,
    reason: RETRY_LIMIT_REASON,
    decision: eventInfo(outcome.event).permission ? 'deny' : outcome.decision,
  };
}

/** "hook X: reason" for a blocked outcome. */
export function blockedBy(outcome: Outcome): string {
  const reason = outcome.stop ? (outcome.stopReason ?? outcome.reason) : outcome.reason;
  return `hook "${decidingHook(outcome)}"${reason ? `: ${reason}` : ''}`;
}
