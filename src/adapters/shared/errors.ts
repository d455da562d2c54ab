import { HookwiseError } from '../../core/errors.js';
/** A hook stopped the agent (`stop(...)`, Claude Code's `continue: false`). The run ends with it. */
export class HookwiseStopError extends HookwiseError {
  override readonly code = 'STOPPED';
  override readonly name = 'HookwiseStopError';
  /**
   * By name: frameworks rethrow copies of what a tool threw (LangGraph does), and an
   * application may load hookwise twice (ESM and CJS); both still are a stop. So is a
   * framework's wrapper around one (OpenAI Agents' ToolCallError keeps it as `error`).
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return stopInside(value) !== null;
  }
  constructor(
    readonly reason: string,
    readonly event: string,
  ) {
    super(reason);
  }
}

/** A tool the adapter cannot put hooks around (provider-executed, no execute, added after wrapping). */
export class UngovernedToolError extends HookwiseError {
  override readonly code = 'UNGOVERNED_TOOL';
  override readonly name = 'UngovernedToolError';
  constructor(
    readonly toolName: string,
    why: string,
    fix: string,
  ) {
    super(`hookwise cannot govern tool "${toolName}": ${why}. ${fix}`);
  }
}

/** The stop an error is, or wraps (`error`, `cause`), if any. */
export function stopInside(value: unknown, depth = 0): (Error & { reason?: string }) | null {
  if (!(value instanceof Error) || depth > 3) return null;
  if (value.name === 'HookwiseStopError') return value;
  return stopInside((value as { error?: unknown }).error, depth + 1) ?? stopInside(value.cause, depth + 1);
}
