import type { ModelProvider } from '../providers/types.js';

/**
 * Options of the handler factories in this folder. Each factory returns a plain
 * HookHandler; failures (non-blocking errors) are thrown, so the engine's
 * `onError` policy applies; blocking answers are returned as results.
 */
export type CommandProtocol = 'claude-code' | 'workflow' | 'claude-agent-rs';

export interface CommandHandlerOptions {
  /** The shell line (run with `sh -c`), or the program when `args` is given (exec form, no shell). */
  command: string;
  args?: string[];
  /** The shell that runs `command` when there are no `args`: `sh` (default), `bash`, or `powershell` (pwsh). */
  shell?: 'sh' | 'bash' | 'powershell';
  protocol?: CommandProtocol;
  /** Extra environment: CLAUDE_PROJECT_DIR, CLAUDE_PLUGIN_ROOT, CLAUDE_ENV_FILE, ... */
  env?: Record<string, string>;
  cwd?: string;
  /** Claude Code's asyncRewake: an async hook whose exit 2 wakes the model with stderr. */
  asyncRewake?: boolean;
  /** Cap on stdout and on stderr, each; default 1 MiB. */
  outputLimitBytes?: number;
}

export interface HttpHandlerOptions {
  url: string;
  headers?: Record<string, string>;
  /** Only these environment variables may be interpolated into headers (`$VAR`, `${VAR}`). */
  allowedEnvVars?: string[];
  /** When set, the URL must start with one of these. */
  allowedUrls?: string[];
}

export interface PromptHandlerOptions {
  /** Template: {event}, {toolName}, {toolArgs}, {stepName}, $ARGUMENTS. */
  prompt: string;
  provider: ModelProvider;
}
