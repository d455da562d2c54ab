import { allow, deny, fromHookResult, modify, stop, type HookResult, type ResultReader } from '../core/results.js';
import { InvalidResultError } from '../core/verdict.js';

/**
 * The UseHooks seed's HookOutcome (seed 001; docs/coming-from/usehooks.md), read as
 * a hookwise result at the edge: the public engine and every loaded config's engine
 * are given this reader (./engine.ts).
 */

/** A HookOutcome as UseHooks writes it. */
export interface UseHooksOutcome {
  decision?: 'allow' | 'deny' | 'stop' | 'continue';
  updatedToolArgs?: Record<string, unknown>;
  updatedState?: Record<string, unknown>;
  reason?: string;
}

const USEHOOKS_DECISIONS = new Set(['allow', 'deny', 'stop', 'continue']);

/**
 * `{ decision: allow | deny | stop | continue, updatedToolArgs?, updatedState?, reason? }`
 * as a result. Told apart from Claude Code's JSON by its own keys or decision words,
 * which Claude Code's output never uses; anything else is left to the next reader.
 */
export function fromUseHooksOutcome(o: Record<string, unknown>): HookResult | undefined {
  const ownKeys = 'updatedToolArgs' in o || 'updatedState' in o;
  if (!ownKeys && !(typeof o.decision === 'string' && USEHOOKS_DECISIONS.has(o.decision))) return undefined;
  const reason = typeof o.reason === 'string' ? o.reason : undefined;
  if (o.decision === 'deny') return deny(reason ?? 'denied by a hook');
  if (o.decision === 'stop') return stop(reason ?? 'stopped by a hook');
  const args = o.updatedToolArgs;
  const state = o.updatedState;
  if (args !== undefined && args !== null) {
    if (typeof args !== 'object' || Array.isArray(args))
      throw new InvalidResultError('updatedToolArgs must be an object of tool arguments');
    return modify(args as Record<string, unknown>, reason === undefined ? undefined : { reason });
  }
  if (state !== undefined && state !== null) {
    if (typeof state !== 'object' || Array.isArray(state))
      throw new InvalidResultError('updatedState must be an object (messages, metadata)');
    return modify(state as Record<string, unknown>, reason === undefined ? undefined : { reason });
  }
  return o.decision === 'allow' ? allow(reason) : { kind: 'none' };
}

export const useHooksOutcomeReader: ResultReader = {
  shape: 'a UseHooks HookOutcome',
  read: (value) => {
    const result = fromUseHooksOutcome(value);
    return result === undefined ? undefined : fromHookResult(result);
  },
};

declare module '../core/spec.js' {
  interface ResultShapes {
    /** The UseHooks seed's HookOutcome, read by useHooksOutcomeReader. */
    useHooks: UseHooksOutcome;
  }
}
