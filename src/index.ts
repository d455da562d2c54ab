/**
 * hookwise: lifecycle hooks for AI agents.
 * The core is pure; this entry also installs the shell parser the `if` rules use, and
 * gives its `HookEngine` what other hook systems' configs and hooks need (src/compat):
 * their event names, their return shapes, `ctx.tool_input`.
 */
import { setShellSplitterLoader } from './core/shell-split.js';

setShellSplitterLoader(() => import('./shell/index.js').then((m) => m.loadShellSplitter()));

export * from './core/index.js';
// Local exports win over the core's of the same name: the engine and event lookups know the aliases.
export { HookEngine } from './compat/engine.js';
export { canonicalEvent, isKnownEvent, eventInfo, knownEventNames } from './compat/event-aliases.js';
export type { ClaudeCodeJsonOutput } from './compat/claude-code.js';
export type { UseHooksOutcome } from './compat/usehooks.js';
export { defineConfig, type HookwiseConfig } from './config/define.js';
export { definePolicyTest, type PolicyCase, type PolicyExpectation, type PolicyTestFile } from './policy-test/define.js';
// Handlers (`hookwise/handlers`) and model providers (`hookwise/providers`) live on
// subpaths: every config file imports this entry, and `hookwise claude-code` runs it
// on every tool call, so it carries only the engine.
