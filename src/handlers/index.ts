export type { CommandHandlerOptions, CommandProtocol, HttpHandlerOptions, PromptHandlerOptions } from './types.js';
export { commandHandler, DEFAULT_OUTPUT_LIMIT_BYTES } from './command.js';
export { httpHandler } from './http.js';
export { promptHandler, fillPrompt } from './prompt.js';
export { readVerdict, type TextVerdict } from './verdict-text.js';
export { interpolateEnv } from './interpolate-env.js';
export { urlAllowed } from './url-allowlist.js';
export { runProcess, SpawnError, type RunProcessOptions, type RunProcessResult } from './process.js';
export * from './protocols/index.js';
