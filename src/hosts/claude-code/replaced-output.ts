import { outputFitsTool } from '../../compat/claude-code.js';
import type { HookInput } from '../../core/input.js';
import type { Outcome } from '../../core/outcome.js';
import { replacementOf, withheldOutput } from '../claude-shaped.js';

/**
 * A replaced tool output Claude Code would not use. Claude Code checks an
 * `updatedToolOutput` against the tool's output schema and, when it does not fit (a
 * string for Bash's `{stdout, stderr, …}`), silently sends the original to the model:
 * the replacement, a redaction included, would fail open. hookwise checks the shape
 * (src/compat/claude-code.ts, outputFitsTool) and ends the run instead, before the
 * model reads the output. Verified with Claude Code 2.1.328 (the mod) by the agent suite.
 */
export function unfitReplacementEndsTheRun(
  outcome: Outcome,
  input: HookInput,
  out: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  const replacement = replacementOf(outcome);
  if (replacement === undefined || outputFitsTool(input.tool_response, replacement, input.tool_name)) return out;
  const tool = String(input.tool_name ?? 'a tool');
  return withheldOutput(tool, `the policy replaces it with a value that does not fit ${tool}'s output, which Claude Code would ignore`);
}
