/**
 * One hook call, from an agent's raw input to its answer (ARCHITECTURE.md, "One event
 * through each host"): the pipeline itself is src/hosts/call.ts (`answerCall`); here is
 * what the CLI's callers of it share: the spawned `hookwise <agent>` process
 * (src/cli/commands/claude-code.ts), the resident (src/cli/resident/server.ts) and the
 * mod's resident (src/cli/resident/mod-server.ts) read the same flags, find the same
 * config files and load the same engine.
 */
export { answerCall, type CallAnswer, type CallEngine, eventOf, MAX_ANSWER_BYTES } from '../../hosts/call.js';
export { auditTo, loadFor } from './engine.js';
export { failureAnswer } from './failure.js';
export { type HookCallFlags, loadTimeoutOf, parseHookCallArgs, stallTimeoutOf } from './flags.js';
export { configFiles, noConfig, projectDirOf } from './project.js';
