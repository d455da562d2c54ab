import { ruleOnStop } from '../gate/index.js';
import { stopHalt, type RunContext } from './run-context.js';
import type { StopReason } from './types.js';

export { MAX_CONSECUTIVE_STOP_BLOCKS } from '../gate/index.js';

export type Continuation = { continue: true; instruction: string } | { continue: false; stopReason: StopReason; reason: string | null };

/**
 * Stop hooks as a continuation criterion: when the model is done, fire Stop
 * (SubagentStop in a subagent) and rule on it as every host does (../gate/stop-rule.ts):
 * a block keeps the agent going with the reason as its next instruction; the next
 * input says `stop_hook_active: true`; the 8th consecutive block is not obeyed.
 */
export async function evaluateStop(run: RunContext, lastText: string): Promise<Continuation> {
  const event = run.isSubagent ? 'SubagentStop' : 'Stop';
  const outcome = await run.hooks.fire(event, stopFields(run, lastText, { success: true, error: null }));
  const ruling = ruleOnStop(outcome, event, run.stopBlocks);
  if (ruling.continue) {
    run.stopBlocks++;
    return ruling;
  }
  if (ruling.why === 'stopped') return { continue: false, ...stopHalt(outcome) };
  if (ruling.why === 'limit') {
    run.stopBlocks++;
    return { continue: false, stopReason: 'stop_hook_limit', reason: ruling.reason };
  }
  run.stopBlocks = 0;
  return { continue: false, stopReason: 'end_turn', reason: null };
}

/**
 * Stop / SubagentStop input: Claude Code's fields (no background work or crons
 * in this runtime: empty lists), and on SubagentStop the child's `success` and
 * `error` (the claude-agent-rs design).
 */
export function stopFields(run: RunContext, lastText: string, ending: { success: boolean; error: string | null }): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    stop_hook_active: run.stopBlocks > 0,
    last_assistant_message: lastText,
    background_tasks: [],
    session_crons: [],
  };
  if (run.isSubagent) Object.assign(fields, ending);
  return fields;
}
