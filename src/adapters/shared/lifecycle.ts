import type { Outcome } from '../../core/outcome.js';
import { HookwiseStopError } from './errors.js';
import { ruleOnStop, stopText, type ToolGate } from '../../gate/index.js';

export { MAX_CONSECUTIVE_STOP_BLOCKS } from '../../gate/index.js';

/** A hook blocked the session or the prompt; the agent did not run. */
export class HookwiseBlockedError extends Error {
  override readonly name = 'HookwiseBlockedError';
  static override [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof Error && value.name === 'HookwiseBlockedError';
  }
  constructor(
    readonly reason: string,
    readonly event: string,
  ) {
    super(`${event} hook blocked: ${reason}`);
  }
}

export type StopVerdict = { continue: false } | { continue: true; instruction: string };

/**
 * SessionStart, UserPromptSubmit, Stop and SessionEnd, read the same way for every
 * framework: a stop throws HookwiseStopError, a block of the start or the prompt
 * throws HookwiseBlockedError, a Stop block means "keep going" with its reason.
 */
export class Lifecycle {
  private stopBlocks = 0;

  constructor(private readonly gate: ToolGate) {}

  /** SessionStart; resolves to the context hooks added. */
  async start(source = 'startup'): Promise<string | null> {
    const outcome = await this.gate.fire('SessionStart', { source });
    halt(outcome);
    return outcome.additionalContext;
  }

  /** UserPromptSubmit; resolves to the prompt to send (rewritten, with added context). */
  async prompt(prompt: string, startContext: string | null = null): Promise<string> {
    const outcome = await this.gate.fire('UserPromptSubmit', { prompt });
    halt(outcome);
    const rewritten = typeof outcome.updatedInput?.prompt === 'string' ? outcome.updatedInput.prompt : prompt;
    const context = [startContext, outcome.additionalContext].filter((c): c is string => typeof c === 'string' && c !== '');
    return context.length === 0 ? rewritten : [rewritten, ...context].join('\n\n');
  }

  /** Stop, when the model is done: a block means keep going with the reason as the next instruction (../../gate/stop-rule.ts). */
  async stop(lastText: string, event: 'Stop' | 'SubagentStop' = 'Stop', fields: Record<string, unknown> = {}): Promise<StopVerdict> {
    const outcome = await this.gate.fire(event, { ...fields, stop_hook_active: this.stopBlocks > 0, last_assistant_message: lastText });
    const ruling = ruleOnStop(outcome, event, this.stopBlocks);
    if (ruling.continue) {
      this.stopBlocks++;
      return ruling;
    }
    this.stopBlocks = 0;
    if (ruling.why === 'stopped') throw new HookwiseStopError(stopText(outcome), event);
    return { continue: false };
  }

  async end(reason = 'other'): Promise<void> {
    await this.gate.fire('SessionEnd', { reason });
  }
}

function halt(outcome: Outcome): void {
  if (outcome.stop) throw new HookwiseStopError(stopText(outcome), outcome.event);
  if (outcome.blocked) throw new HookwiseBlockedError(outcome.reason ?? 'blocked', outcome.event);
}
