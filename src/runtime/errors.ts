import { HookwiseError } from '../core/errors.js';

/** An option of `createAgent`, `defineTool` or `Agent.on` that cannot be used: the message names the function, the field and what it takes. */
export class RuntimeOptionError extends HookwiseError {
  override readonly code = 'RUNTIME_OPTION';
}

/** A built-in tool of the runtime refused its input or failed (a file not found, a command's exit code); the model reads the message as the tool's result. */
export class ToolFailedError extends HookwiseError {
  override readonly code = 'TOOL_FAILED';
}
