import { HookwiseError } from '../core/errors.js';

/** A command, http, prompt, agent or MCP hook whose options cannot be used: the message names the hook kind and the field. */
export class HandlerOptionError extends HookwiseError {
  override readonly code = 'HANDLER_OPTION';
}

/** A hook ran and failed (killed, not found, a non-zero exit, an HTTP error, a refused redirect, no verdict in time); its `onError` applies. */
export class HookFailedError extends HookwiseError {
  override readonly code = 'HOOK_FAILED';
}

/** An agent hook's model asked one of its tools for something it may not have (a path outside the project, a tool that does not exist); the model reads why. */
export class AgentToolRefusedError extends HookwiseError {
  override readonly code = 'AGENT_TOOL_REFUSED';
}
