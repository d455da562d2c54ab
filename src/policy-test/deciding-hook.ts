import type { Outcome } from '../core/outcome.js';

const REFUSALS = new Set(['deny', 'block', 'stop']);
const DECISIONS = new Set(['allow', 'ask', 'defer', 'modify']);

/**
 * The hook whose answer decided the Outcome: the first, in run order, that refused
 * (deny, block, stop) when the call was blocked; else the first that decided or
 * rewrote; null when no hook had a say.
 */
export function decidingHook(outcome: Outcome): string | null {
  const ran = outcome.hooks.filter((h) => h.status !== 'skipped');
  if (outcome.blocked || outcome.decision === 'deny') {
    const refused = ran.find((h) => (h.result !== null && REFUSALS.has(h.result)) || (h.status !== 'ok' && h.status !== 'async'));
    if (refused) return refused.name;
  }
  return ran.find((h) => h.result !== null && DECISIONS.has(h.result))?.name ?? null;
}
