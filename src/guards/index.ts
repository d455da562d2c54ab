/**
 * hookwise/guards: built-in guards that parse, canonicalise, and refuse what
 * they cannot prove safe. Each factory returns hook specs for
 * `defineConfig({ hooks: [...] })` or `engine.register(...)`.
 */
export { shellGuard, loadShellJudge, type ShellGuardOptions, type ShellJudge } from './shell-guard.js';
export { pathGuard, judgePath, READ_TOOLS, WRITE_TOOLS, type PathGuardOptions } from './path-guard.js';
export { secretGuard, type SecretGuardOptions } from './secret-guard.js';
export { checkpointGuard, type CheckpointGuardOptions } from './checkpoint-guard.js';
export { budgetGuard, tokensOf, type BudgetGuardOptions } from './budget-guard.js';
export { PathPolicy, type PathPolicyOptions, type PathVerdict, type Access } from '../path-policy/judge.js';
export { createScanner, type SecretScanner, type SecretHit } from '../secrets/scan.js';
export { DEFAULT_SECRET_PATTERNS, type SecretPattern } from '../secrets/patterns.js';
export { DEFAULT_PROTECTED, DEFAULT_SECRETS } from '../path-policy/protected.js';
export type { ShellRule } from './shell/rules.js';
export type { CommonGuardOptions, GuardDecision } from './common.js';
export { DEFAULT_GUARD_PRIORITY } from './common.js';
