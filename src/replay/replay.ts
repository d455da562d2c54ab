import { isDeepStrictEqual } from 'node:util';
import type { HookEngine } from '../core/engine.js';
import type { Outcome } from '../core/outcome.js';
import { decidingHook } from '../policy-test/deciding-hook.js';
import { happenedOf } from './classify.js';
import { JudgementCache } from './judgement-cache.js';
import type { Happened, RecordedCall, SourceBatch, SourceProblem } from './types.js';

/** A call today's policy decides differently from what happened. */
export interface Difference {
  call: RecordedCall;
  /** What the policy does now. */
  now: Happened;
  /** `would have refused`, `would have allowed`, `would have asked`, `would have rewritten` (or rewritten differently). */
  change: string;
  reason: string | null;
  hook: string | null;
  updatedInput: Record<string, unknown> | null;
}

export interface ReplaySummary {
  calls: number;
  same: number;
  differences: number;
  problems: number;
  skipped: number;
}

export interface ReplayListener {
  difference(d: Difference): void;
  problem(p: SourceProblem): void;
  skipped(p: SourceProblem): void;
  /** Called after each batch of calls; `calls` so far. */
  progress?(calls: number): void;
}

export interface ReplayOptions {
  projectDir: string;
  /** Replaces each call's recorded cwd (sessions recorded in another folder or machine). */
  cwd?: string;
  /**
   * Judge identical calls once (./judgement-cache.ts). Default true: a policy decides a
   * call by the call (tool, input, folder, permission mode). False for a policy whose
   * hooks count or remember calls (a budget guard, a once-per-session ask).
   */
  cache?: boolean;
}

/**
 * Fire each recorded call's PreToolUse through the engine (no tool runs: replay only
 * asks the policy) and report the calls where today's answer differs from what
 * happened. A transcript cannot tell a rewrite from an allow, so there a rewrite
 * counts as allowed.
 */
export async function replayCalls(
  engine: HookEngine,
  items: AsyncIterable<SourceBatch>,
  options: ReplayOptions,
  listener: ReplayListener,
): Promise<ReplaySummary> {
  const summary: ReplaySummary = { calls: 0, same: 0, differences: 0, problems: 0, skipped: 0 };
  const judged = options.cache === false ? undefined : new JudgementCache<Judgement>();
  for await (const batch of items) {
    for (const item of batch) {
      if ('problem' in item) {
        summary.problems++;
        listener.problem(item.problem);
        continue;
      }
      if ('skipped' in item) {
        summary.skipped++;
        listener.skipped(item.skipped);
        continue;
      }
      const call = options.cwd === undefined ? item.call : { ...item.call, cwd: options.cwd };
      const projectDir = call.cwd ?? options.projectDir;
      const key = judged?.keyOf(call, projectDir);
      let now = key === undefined ? undefined : judged!.get(key);
      if (now === undefined) {
        // Without a promise when every hook answers at once: a replay fires 100,000s of times.
        const fired = engine.fireMaybeSync('PreToolUse', inputOf(call), { projectDir, dryRun: true });
        now = judgementOf(fired instanceof Promise ? await fired : fired);
        if (key !== undefined) judged!.set(key, now);
      }
      summary.calls++;
      const difference = compare(call, now);
      if (difference) {
        summary.differences++;
        listener.difference(difference);
      } else summary.same++;
    }
    listener.progress?.(summary.calls);
  }
  await engine.drain();
  return summary;
}

function inputOf(call: RecordedCall): Record<string, unknown> {
  const input: Record<string, unknown> = {
    session_id: call.sessionId,
    hook_event_name: 'PreToolUse',
    tool_name: call.tool,
    tool_input: call.toolInput,
  };
  if (call.toolUseId !== undefined) input.tool_use_id = call.toolUseId;
  if (call.cwd !== undefined) input.cwd = call.cwd;
  if (call.permissionMode !== undefined) input.permission_mode = call.permissionMode;
  if (call.turn !== null) input.transcript_path = call.source;
  return input;
}

/** What a fire decided, as much of it as a comparison and a report need. */
interface Judgement {
  happened: Happened;
  reason: string | null;
  hook: string | null;
  updatedInput: Record<string, unknown> | null;
}

function judgementOf(outcome: Outcome): Judgement {
  return { happened: happenedOf(outcome), reason: outcome.reason, hook: decidingHook(outcome), updatedInput: outcome.updatedInput };
}

function compare(call: RecordedCall, judgement: Judgement): Difference | undefined {
  let now = judgement.happened;
  if (!call.recordsRewrites && now === 'rewritten') now = 'allowed';
  const same = now === call.happened && (now !== 'rewritten' || isDeepStrictEqual(judgement.updatedInput, call.updatedInput));
  if (same) return undefined;
  const change = now === call.happened ? 'would have rewritten differently' : `would have ${now === 'allowed' ? 'allowed' : now}`;
  return { call, now, change, reason: judgement.reason, hook: judgement.hook, updatedInput: judgement.updatedInput };
}
