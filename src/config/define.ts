import type { AnyHook } from '../core/hook.js';
import type { HookInput } from '../core/input.js';
import type { HookSpec } from '../core/spec.js';

/** What a `hookwise.config.ts` default-exports. */
export interface HookwiseConfig {
  /** Hooks, or arrays of hooks (a guard factory may return several). */
  hooks: Array<AnyHook | readonly AnyHook[]>;
  /** Run the hooks of this source concurrently, on the original input. */
  parallel?: boolean;
}

/** Gives a config file its types; returns the config unchanged. */
export function defineConfig(config: HookwiseConfig): HookwiseConfig {
  return config;
}

/** The hooks of a config, flattened. */
export function hooksOf(config: HookwiseConfig): HookSpec<HookInput>[] {
  return positionedHooks(config).map((h) => h.spec);
}

/**
 * The hooks of a config, flattened, each with its position as the user wrote it:
 * `hooks[3]`, or `hooks[1][0]` for the first hook of a factory that returned several
 * (`secretGuard()`), so a message names the element the user can find.
 */
export function positionedHooks(config: HookwiseConfig): Array<{ spec: HookSpec<HookInput>; at: string }> {
  return (config.hooks ?? []).flatMap((entry, i) =>
    Array.isArray(entry)
      ? entry.map((spec, j) => ({ spec: spec as unknown as HookSpec<HookInput>, at: `hooks[${i}][${j}]` }))
      : [{ spec: entry as unknown as HookSpec<HookInput>, at: `hooks[${i}]` }],
  );
}
