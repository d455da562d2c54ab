import { canonicalEvent, isKnownEvent } from '../../compat/event-aliases.js';
import { EXIT_2_BLOCKS, toClaudeCodeOutput } from '../../compat/claude-code.js';
import type { HookInput } from '../../core/input.js';
import { END_OF_TURN, type Host, jsonLine } from '../host.js';
import { answerOf } from '../claude-shaped.js';
import { unfitReplacementEndsTheRun } from './replaced-output.js';

/**
 * Claude Code (`hookwise claude-code`, docs/claude-code.md): its input is hookwise's
 * own, its answer Claude Code's JSON. hookwise's own failure answers exit 2 where exit 2
 * blocks (exit 1 elsewhere), except on end-of-turn events: there exit 2 would keep the
 * agent going, so the failure ends the run (`continue: false`). A replaced output Claude
 * Code would ignore ends the run too (./replaced-output.ts).
 */
export const claudeCodeHost: Host = {
  name: 'claude-code',
  label: 'Claude Code 2.1.197',
  deadlineMs: undefined,
  init: async () => ({ kind: 'claude-code' }),
  inputs: (raw) => [raw as HookInput],
  answer: (outcome, input) => answerOf(unfitReplacementEndsTheRun(outcome, input, toClaudeCodeOutput(outcome, input.tool_name))),
  failure(event, reason, failOpen) {
    const known = event !== undefined && isKnownEvent(event);
    if (!failOpen && known && END_OF_TURN.has(canonicalEvent(event))) {
      const line = `hookwise failed closed: ${reason}`;
      return { stdout: jsonLine({ continue: false, stopReason: line }), stderr: line, code: 0 };
    }
    const blocks = event === undefined || !known || EXIT_2_BLOCKS.has(canonicalEvent(event));
    if (blocks && !failOpen) return { stderr: `hookwise failed closed: ${reason}`, code: 2 };
    return { stderr: `hookwise: ${reason}`, code: 1 };
  },
};

export { claudeCodeHost as host };
