import type { HookInput } from '../../core/input.js';
import type { HandlerReturn } from '../../core/spec.js';
import type { CommandProtocol } from '../types.js';

/** What a finished hook process left behind. */
export interface ProcessOutput {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** stdout went past the output limit and was cut. */
  stdoutTruncated?: boolean;
}

export interface ReadOptions {
  /** Claude Code's asyncRewake: exit 2 becomes context for the session's next outcome. */
  asyncRewake?: boolean;
  /** A plugin's hook: Claude Code's missing-script rule also covers UserPromptSubmit. */
  plugin?: boolean;
  /** The hook's input: updatedMCPToolOutput counts for MCP tools only, updatedToolOutput must fit tool_response. */
  input?: HookInput;
}

/**
 * A command protocol: what the process gets on stdin, and what its exit code
 * and output mean. `read` throws for a failure (the hook's onError applies)
 * and returns a result for everything the protocol defines as an answer.
 */
export interface Protocol {
  readonly name: CommandProtocol;
  stdin(input: HookInput, event: string): string;
  read(output: ProcessOutput, event: string, options?: ReadOptions): HandlerReturn;
}
