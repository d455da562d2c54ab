/** A hook stopped the agent (`stop(...)`, Claude Code's `continue: false`). The run ends with it. */
export class HookwiseStopError extends Error {
  override readonly name = 'HookwiseStopError';
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
