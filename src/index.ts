/**
 * hookwise: lifecycle hooks for AI agents.
 * The core is pure; this entry also installs the shell parser the `if` rules use.
 */
import { setShellSplitterLoader } from './core/shell-split.js';

setShellSplitterLoader(() => import('./shell/index.js').then((m) => m.loadShellSplitter()));

export * from './core/index.js';
export { defineConfig, type HookwiseConfig } from './config/define.js';
export { commandHandler, httpHandler, promptHandler } from './handlers/index.js';
export type { CommandHandlerOptions, CommandProtocol, HttpHandlerOptions, PromptHandlerOptions } from './handlers/index.js';
export { createProvider, OpenAIProvider, AnthropicProvider } from './providers/index.js';
export { ModelError, type ModelProvider, type ModelRequest, type ModelResponse, type ChatMessage, type ToolCall, type ToolDefinition } from './providers/types.js';
