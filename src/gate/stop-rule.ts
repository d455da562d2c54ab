import type { Outcome } from '../core/outcome.js';

/** Claude Code's cap: after this many Stop blocks in a row the agent stops anyway. */
export const MAX_CONSECUTIVE_STOP_BLOCKS = 8;

export type StopRuling =
  | { continue: true; instruction: string }
  /** `stopped`: a hook stopped the agent; `limit`: the 8th block in a row was not obeyed. */
  | { continue: false; why: 'done' | 'stopped' | 'limit'; reason: string | null };

/**
 * Stop (or SubagentStop) when the model is done, read the same way by every host that
 * runs the loop: a stop ends the run; a block keeps the agent going with its reason
 * as the next instruction, unless it is the 8th block in a row (`blocksBefore` is
 * how many came right before this one). docs/model.md.
 */
export function ruleOnStop(outcome: Outcome, event: string, blocksBefore: number): StopRuling {
  if (outcome.stop) return { continue: false, why: 'stopped', reason: outcome.stopReason ?? outcome.reason };
  if (!outcome.blocked) return { continue: false, why: 'done', reason: null };
  const blocks = blocksBefore + 1;
  if (blocks >= MAX_CONSECUTIVE_STOP_BLOCKS)
    return {
      continue: false,
      why: 'limit',
      reason: `${event} hooks blocked ${blocks} times in a row; stopping anyway (last reason: ${outcome.reason ?? 'none'})`,
    };
  return { continue: true, instruction: outcome.reason ?? `A ${event} hook asked you to keep going.` };
}
