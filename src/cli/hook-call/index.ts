/**
 * One hook call, from an agent's raw input to its answer (ARCHITECTURE.md, "One event
 * through each host"): the pieces the spawned `hookwise <agent>` process
 * (src/cli/commands/claude-code.ts), the resident (src/cli/resident/server.ts) and the
 * mod's resident (src/cli/resident/mod-server.ts) share, and the entries init writes
 * so that each agent finds hookwise (./entry-command.ts).
 */
export { answerFor, eventOf, MAX_ANSWER_BYTES } from './answer.js';
export { auditTo, loadFor } from './engine.js';
export { failureAnswer } from './failure.js';
export { type HookCallFlags, loadTimeoutOf, parseHookCallArgs, stallTimeoutOf } from './flags.js';
export { configFiles, noConfig, projectDirOf } from './project.js';
