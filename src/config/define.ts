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
  return (config.hooks ?? []).flat() as unknown as HookSpec<HookInput>[];
}
