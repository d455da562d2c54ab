import type { HookInput } from '../../core/input.js';
import { answerOf, claudeShapedAnswer, eventName, jsonFailure, replacedOutputAsBlock } from '../claude-shaped.js';
import { AGENT_DEADLINE_MS, type Host } from '../host.js';
import { claudePreToolOutput, preToolAnswer } from '../pre-tool-use.js';
import { codexInputs } from './tools.js';

/**
 * Codex CLI 0.169.0 (`hookwise codex`, written to `$CODEX_HOME/hooks.json` by
 * `hookwise init codex`). Its hooks read Claude Code's protocol with these differences,
 * each absorbed here: exit 1, a timeout, `ask`, and `continue:false` on PreToolUse all
 * let the tool run (so hookwise answers a JSON deny itself, before AGENT_DEADLINE_MS);
 * `updatedInput` counts only with `permissionDecision: "allow"`; file edits are patch text;
 * `updatedToolOutput` fails the hook (the original output reaches the model).
 */
export const CODEX_TIMEOUT_S = 60;

export const codexHost: Host = {
  name: 'codex',
  label: 'Codex CLI 0.169.0',
  deadlineMs: AGENT_DEADLINE_MS,
  init: async () => (await import('./init.js')).codexInit,
  inputs(raw) {
    const input = { ...raw, hook_event_name: eventName(raw) } as HookInput;
    return input.hook_event_name === 'PreToolUse' || input.hook_event_name === 'PostToolUse' ? codexInputs(input) : [input];
  },
  answer(outcome, input) {
    // A replaced output goes as a block, whose reason Codex shows in the output's place.
    if (outcome.event !== 'PreToolUse') return answerOf(replacedOutputAsBlock(outcome, claudeShapedAnswer(outcome, input)));
    return answerOf(claudePreToolOutput(preToolAnswer(outcome, input, { askAllowed: false, agent: 'Codex' })));
  },
  failure: jsonFailure,
};

export { codexHost as host };
