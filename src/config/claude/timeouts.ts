/**
 * Claude Code's default hook timeouts, kept for hooks loaded from its configuration
 * files (docs/claude-code.md, "Handler entries"). An entry's own `timeout` (seconds) wins.
 */
export const COMMAND_TIMEOUT_S = 600;
export const HTTP_TIMEOUT_S = 600;
export const PROMPT_TIMEOUT_S = 30;
export const USER_PROMPT_SUBMIT_TIMEOUT_S = 30;
/** Claude Code gives SessionEnd hooks a short budget: the session is closing. */
export const SESSION_END_BUDGET_MS = 1_500;

/** Claude Code's agent hooks: 60 s unless the entry says otherwise. */
export const AGENT_TIMEOUT_S = 60;

export function defaultTimeoutMs(type: string, event: string): number {
  if (event === 'SessionEnd') return SESSION_END_BUDGET_MS;
  if (event === 'UserPromptSubmit') return USER_PROMPT_SUBMIT_TIMEOUT_S * 1000;
  if (type === 'prompt') return PROMPT_TIMEOUT_S * 1000;
  if (type === 'agent') return AGENT_TIMEOUT_S * 1000;
  return (type === 'http' ? HTTP_TIMEOUT_S : COMMAND_TIMEOUT_S) * 1000;
}
