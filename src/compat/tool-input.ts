import { Context } from '../core/context.js';

/**
 * The shadow agent SDK's `ctx.tool_input` (seed 004; docs/coming-from/shadow-agent-sdk.md):
 * the same sealed object as `input.tool_input`, so a handler ported from the SDK reads
 * its arguments where it did. Writing to it throws (the hook fails); return
 * `modify(...)` to rewrite. Given to the public engine and every loaded config's engine
 * (./engine.ts); the core's ctx has no such field.
 */
export class ToolInputContext extends Context {
  get tool_input(): Readonly<Record<string, unknown>> | undefined {
    return this.input.tool_input;
  }
}

declare module '../core/spec.js' {
  interface HookContext {
    /** The shadow agent SDK's name for `input.tool_input` (the same read-only object). */
    readonly tool_input?: Readonly<Record<string, unknown>>;
  }
}
