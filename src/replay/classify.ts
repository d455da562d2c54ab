import type { Outcome } from '../core/outcome.js';
import type { Happened } from './types.js';

/** What a host does with a PreToolUse Outcome: refuse it, ask a person, run a rewritten call, or run it. */
export function happenedOf(outcome: Pick<Outcome, 'blocked' | 'decision' | 'updatedInput'>): Happened {
  if (outcome.blocked || outcome.decision === 'deny') return 'refused';
  if (outcome.decision === 'ask') return 'asked';
  if (outcome.updatedInput !== null && outcome.updatedInput !== undefined) return 'rewritten';
  return 'allowed';
}
