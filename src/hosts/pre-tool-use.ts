import type { HookInput } from '../core/input.js';
import type { Outcome } from '../core/outcome.js';
import { denormaliseInput, type ToolTable } from './tools.js';

/**
 * A PreToolUse Outcome reduced to what every agent can be told without ambiguity:
 * `deny` with a reason, `allow` with the rewritten input, or nothing to say. `ask` and
 * `defer` become a deny for agents that would run the tool on them (Codex: `ask` fails
 * open), naming why: a person must approve, and this agent cannot ask one from a hook.
 * A rewrite that cannot be delivered (a patch judged per file) is a deny too: running
 * the original instead would be a silent allow.
 */
export type PreToolAnswer =
  | { kind: 'deny'; reason: string; context?: string }
  | { kind: 'allow'; updatedInput?: Record<string, unknown>; reason?: string; context?: string }
  | { kind: 'ask'; reason: string; context?: string }
  | { kind: 'none'; context?: string };

export function preToolAnswer(
  o: Outcome,
  input: HookInput,
  options: { askAllowed: boolean; agent: string; table?: ToolTable },
): PreToolAnswer {
  const context = o.additionalContext ?? undefined;
  const extra = context ? { context } : {};
  if (o.blocked || o.decision === 'deny') return { kind: 'deny', reason: o.reason ?? 'denied by a hookwise hook', ...extra };
  if (o.decision === 'ask' || o.decision === 'defer') {
    const why = o.reason ?? 'a hookwise hook asks for a person';
    if (options.askAllowed) return { kind: 'ask', reason: why, ...extra };
    return {
      kind: 'deny',
      reason: `${why} (a person must approve this call, and ${options.agent} cannot ask one from a hook: refused)`,
      ...extra,
    };
  }
  if (o.updatedInput) {
    if (input.agent_tool_input !== undefined)
      return {
        kind: 'deny',
        reason: `hookwise cannot rewrite a ${String(input.agent_tool_name)} call it judged file by file; refused`,
        ...extra,
      };
    const updatedInput = options.table ? denormaliseInput(o.updatedInput, input, options.table) : o.updatedInput;
    return { kind: 'allow', updatedInput, ...(o.reason && { reason: o.reason }), ...extra };
  }
  if (o.decision === 'allow') return { kind: 'allow', ...(o.reason && { reason: o.reason }), ...extra };
  return { kind: 'none', ...extra };
}

/** The answer in Claude Code's PreToolUse form, which Codex, Copilot and droid all read. */
export function claudePreToolOutput(a: PreToolAnswer): Record<string, unknown> | undefined {
  const specific: Record<string, unknown> = { hookEventName: 'PreToolUse' };
  if (a.kind === 'deny' || a.kind === 'ask') {
    specific.permissionDecision = a.kind;
    specific.permissionDecisionReason = a.reason;
  } else if (a.kind === 'allow') {
    // Codex ignores updatedInput unless allow comes with it; the others read it either way.
    specific.permissionDecision = 'allow';
    if (a.reason) specific.permissionDecisionReason = a.reason;
    if (a.updatedInput) specific.updatedInput = a.updatedInput;
  }
  if (a.context) specific.additionalContext = a.context;
  return Object.keys(specific).length > 1 ? { hookSpecificOutput: specific } : undefined;
}
