/**
 * hookwise: lifecycle hooks for AI agents.
 * The core is pure; this entry also installs the shell parser the `if` rules use.
 */
import { setShellSplitterLoader } from './core/shell-split.js';

setShellSplitterLoader(() => import('./shell/index.js').then((m) => m.loadShellSplitter()));

export * from './core/index.js';
export { defineConfig, type HookwiseConfig } from './config/define.js';
export { definePolicyTest, type PolicyCase, type PolicyExpectation, type PolicyTestFile } from './policy-test/define.js';
// Handlers (`hookwise/handlers`) and model providers (`hookwise/providers`) live on
// subpaths: every config file imports this entry, and `hookwise claude-code` runs it
// on every tool call, so it carries only the engine.
