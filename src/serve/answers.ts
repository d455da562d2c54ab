import { toClaudeCodeOutput } from '../compat/claude-code.js';
import { eventInfo } from '../core/events.js';
import { emptyOutcome, type Outcome } from '../core/outcome.js';

/** What the model gets instead of a tool's output that hookwise could not check. */
export const WITHHELD_OUTPUT = '[hookwise: output withheld: hookwise serve could not check it]';

/**
 * What a fire that could not run answers: on an event that can be blocked, a block
 * (a `deny` where the event carries a permission decision), so a failure never lets
 * the thing through; on PostToolUse, the tool's output replaced by a placeholder (the
 * tool ran, but what it printed was never checked for secrets); on any other event,
 * nothing but the reason as a system message.
 */
export function failureOutcome(event: string, reason: string, toolName?: string): Outcome {
  const info = eventInfo(event);
  const outcome = emptyOutcome(info.name);
  if (info.blockable) {
    outcome.blocked = true;
    outcome.reason = reason;
    if (info.permission) outcome.decision = 'deny';
  } else if (info.name === 'PostToolUse') {
    // Claude Code keeps the original output when a replacement does not fit the tool's: Bash's is an object.
    outcome.updatedOutput =
      toolName === 'Bash' ? { stdout: WITHHELD_OUTPUT, stderr: '', interrupted: false, isImage: false } : WITHHELD_OUTPUT;
    outcome.systemMessage = reason;
  } else {
    outcome.systemMessage = reason;
  }
  return outcome;
}

/**
 * The Claude Code answer (a 200) to a hook request serve could not decide, or undefined
 * where the real status is the answer (events that cannot block, and whose output
 * nothing needs to hold back). `event` is undefined when no one can tell which event it
 * was: then a `decision: "block"`, which every blockable event honours (PreToolUse and
 * PermissionRequest as a deny) and the others ignore.
 */
export function claudeCodeFailure(event: string | undefined, reason: string, toolName?: string): Record<string, unknown> | undefined {
  if (event === undefined) return { decision: 'block', reason };
  const info = eventInfo(event);
  if (!info.blockable && info.name !== 'PostToolUse') return undefined;
  return toClaudeCodeOutput(failureOutcome(event, reason, toolName), toolName);
}

/** `"name": "<a JSON string>"`, its value read as JSON reads it (escapes and all). */
function sniffString(body: string, name: string): string | undefined {
  const m = new RegExp(`"${name}"\\s*:\\s*"((?:[^"\\\\\\n]|\\\\.){1,256})"`).exec(body);
  if (!m) return undefined;
  try {
    const value: unknown = JSON.parse(`"${m[1]}"`);
    return typeof value === 'string' && value !== '' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The event a (possibly cut, possibly invalid) request body names, when it names one. */
export function sniffEvent(body: string): string | undefined {
  return sniffString(body, 'hook_event_name');
}

/** The tool a (possibly cut) request body names. */
export function sniffToolName(body: string): string | undefined {
  return sniffString(body, 'tool_name');
}
