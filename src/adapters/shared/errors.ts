/** A hook stopped the agent (`stop(...)`, Claude Code's `continue: false`). The run ends with it. */
export class HookwiseStopError extends Error {
  override readonly name = 'HookwiseStopError';
  /**
   * By name: frameworks rethrow copies of what a tool threw (LangGraph does), and an
   * application may load hookwise twice (ESM and CJS); both still are a stop.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof Error && value.name === 'HookwiseStopError';
  }
  constructor(
    readonly reason: string,
    readonly event: string,
  ) {
    super(reason);
  }
}

/** A tool the adapter cannot put hooks around (provider-executed, no execute, added after wrapping). */
export class UngovernedToolError extends Error {
  override readonly name = 'UngovernedToolError';
  constructor(
    readonly toolName: string,
    why: string,
    fix: string,
  ) {
    super(`hookwise cannot govern tool "${toolName}": ${why}. ${fix}`);
  }
}
