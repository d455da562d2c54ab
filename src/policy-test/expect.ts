import { isDeepStrictEqual } from 'node:util';
import type { Outcome } from '../core/outcome.js';
import type { PolicyExpectation } from './define.js';
import { decidingHook } from './deciding-hook.js';

/** One expectation a case did not meet. */
export interface Mismatch {
  field: keyof PolicyExpectation;
  expected: unknown;
  actual: unknown;
}

/** What the Outcome says for each field a case can expect. */
export function answersOf(outcome: Outcome): Required<PolicyExpectation> {
  return {
    decision: outcome.decision,
    blocked: outcome.blocked,
    reason: outcome.reason,
    updatedInput: outcome.updatedInput,
    additionalContext: outcome.additionalContext,
    hook: decidingHook(outcome),
  };
}

const PATTERN = /^\/(.*)\/([dgimsuy]*)$/s;

/** Text fields accept `/pattern/flags`; everything else is compared as data. */
function meets(field: keyof PolicyExpectation, expected: unknown, actual: unknown): boolean {
  if ((field === 'reason' || field === 'additionalContext') && typeof expected === 'string') {
    const pattern = PATTERN.exec(expected);
    if (pattern) return typeof actual === 'string' && new RegExp(pattern[1]!, pattern[2]).test(actual);
  }
  return isDeepStrictEqual(expected, actual);
}

/** The expectations the Outcome does not meet, in the order the case lists them. */
export function mismatchesOf(expect: PolicyExpectation, outcome: Outcome): Mismatch[] {
  const answers = answersOf(outcome);
  const out: Mismatch[] = [];
  for (const field of Object.keys(expect) as Array<keyof PolicyExpectation>) {
    if (!meets(field, expect[field], answers[field])) out.push({ field, expected: expect[field], actual: answers[field] });
  }
  return out;
}
