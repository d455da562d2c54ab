import type { HookRecord, Outcome } from '../core/outcome.js';
import type { Happened } from './types.js';

/**
 * What a host does with a PreToolUse Outcome: refuse it, ask a person, run a rewritten
 * call, or run it. A call whose only rewrite is the OS sandbox's (the shell guard's
 * `last` handler wrapping the command in its `bwrap` line) ran as the agent asked,
 * contained: that is `allowed`. Replay judges without the wrap (./sandbox-wrap.ts), so
 * both sides of a comparison read the same.
 */
export function happenedOf(outcome: Pick<Outcome, 'blocked' | 'decision' | 'updatedInput'> & { hooks?: HookRecord[] }): Happened {
  if (outcome.blocked || outcome.decision === 'deny') return 'refused';
  if (outcome.decision === 'ask') return 'asked';
  if (outcome.updatedInput !== null && outcome.updatedInput !== undefined && !onlySandboxed(outcome.hooks)) return 'rewritten';
  return 'allowed';
}

/** Every hook that rewrote the call is a sandbox wrap (a `last` record annotated `sandboxed`). */
function onlySandboxed(hooks: HookRecord[] | undefined): boolean {
  if (!Array.isArray(hooks)) return false;
  const rewrites = hooks.filter((h) => h?.result === 'modify');
  return rewrites.length > 0 && rewrites.every((h) => h.last === true && h.sandboxed === true);
}
