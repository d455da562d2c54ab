/**
 * Gemini CLI's hook events as hookwise's. The five a policy usually needs map to Claude
 * Code's names; Gemini's model and compression events map to hookwise's nearest
 * (`PreModelCall`, `PostModelCall`, `PreCompact`). Gemini's own name stays in the input
 * as `agent_event_name`, so a hook can tell a `BeforeModel` from another agent's model call.
 * `BeforeToolSelection` has no hookwise event (it only narrows the tools offered): init
 * does not register it, and a call for it is answered as a failure that changes nothing there.
 */
export const GEMINI_EVENTS: Readonly<Record<string, string>> = {
  BeforeTool: 'PreToolUse',
  AfterTool: 'PostToolUse',
  BeforeAgent: 'UserPromptSubmit',
  AfterAgent: 'Stop',
  SessionStart: 'SessionStart',
  SessionEnd: 'SessionEnd',
  BeforeModel: 'PreModelCall',
  AfterModel: 'PostModelCall',
  PreCompress: 'PreCompact',
  Notification: 'Notification',
};

/**
 * The events `hookwise init gemini` registers: the ones hookwise answers on every agent.
 * The others fire on every model call (PreCompress, BeforeModel) or every streamed
 * chunk (AfterModel): each would start a hook process there; add them by hand when a
 * policy needs them.
 */
export const GEMINI_INIT_EVENTS = ['SessionStart', 'BeforeAgent', 'BeforeTool', 'AfterTool', 'AfterAgent'] as const;
