import { Context } from '../core/context.js';
import { thawValue } from '../core/input.js';

/**
 * The shadow agent SDK's `ctx.tool_input` (seed 004; docs/coming-from/shadow-agent-sdk.md):
 * a writable copy of `input.tool_input`, so a handler ported from the SDK reads its
 * arguments where it did and edits them in place, as the SDK's hooks do. The engine
 * turns an edit into the hook's `modify` (recorded, rechecked, schema-checked like a
 * returned one); `input.tool_input` itself stays sealed. Given to the public engine and
 * every loaded config's engine (./engine.ts); the core's ctx has no such field.
 */
export class ToolInputContext extends Context {
  get tool_input(): Record<string, unknown> | undefined {
    if (this.draft === undefined) {
      const sealed = this.input.tool_input;
      if (sealed === undefined) return undefined;
      this.draft = thawValue(sealed);
    }
    return this.draft;
  }
}

declare module '../core/spec.js' {
  interface HookContext {
    /** The shadow agent SDK's name for `input.tool_input`: a copy the hook may edit in place (the edit is its `modify`). */
    readonly tool_input?: Record<string, unknown>;
  }
}
