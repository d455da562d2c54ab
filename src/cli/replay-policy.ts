import type { HookSpec } from '../core/spec.js';
import { shellGuardPacks } from '../guards/shell-guard.js';
import { loadPolicy, type LoadedPolicy, type PolicyOptions } from '../policy-test/load-policy.js';

/**
 * The policy as replay and explain judge with it: as every host loads it, without the
 * shell guard's OS sandbox wrap. The wrap is how an allowed command runs, not whether
 * it may: the judge still knows the sandbox is there (what it contains is allowed), but
 * no `bwrap` line is built per call (the slowest part of a replay), and the decision
 * compared is the one on the agent's own command (../replay/classify.ts).
 */
export function loadJudgingPolicy(options: PolicyOptions): Promise<LoadedPolicy> {
  const given = options.transform;
  return loadPolicy({ ...options, transform: (spec) => withoutSandboxWrap(given ? given(spec) : spec) });
}

function withoutSandboxWrap(spec: HookSpec): HookSpec {
  if (spec.last === undefined || shellGuardPacks(spec) === undefined) return spec;
  const { last: _wrap, ...judging } = spec;
  return judging as HookSpec;
}
