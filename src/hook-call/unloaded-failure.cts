/**
 * Each agent's refusal when hookwise itself cannot even load (a broken install): the one
 * table of agents `bin/hookwise.js` reads, before any of hookwise's ES modules. A row is
 * what the host's own failure answer (src/hosts/<agent>, `failure(undefined, …)`) is for
 * an event not yet read; test/hosts/hook-call.test.ts holds the two equal. CommonJS, so
 * the launcher can require it when nothing else loads. A new agent is a folder in
 * src/hosts and a row here.
 */
export interface UnloadedAnswer {
  stdout?: string;
  code: number;
}

const json = (value: Record<string, unknown>): UnloadedAnswer => ({ stdout: `${JSON.stringify(value)}\n`, code: 0 });
/** Codex, Copilot and droid run the tool on exit 1 and may on 2: a JSON deny on exit 0. */
const claudeShapedDeny = (line: string) =>
  json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: line } });

export const UNLOADED_FAILURE: Readonly<Record<string, (line: string) => UnloadedAnswer>> = {
  // Exit 2 blocks whatever the event was (its stderr is the reason).
  'claude-code': () => ({ code: 2 }),
  codex: claudeShapedDeny,
  copilot: claudeShapedDeny,
  droid: claudeShapedDeny,
  // Cline reads no deny: only `cancel` (the run ends) keeps its tool from running.
  cline: (line) => json({ cancel: true, errorMessage: line }),
  // Gemini: nothing runs, and the run ends, whatever the event was.
  gemini: (line) => json({ continue: false, stopReason: line, decision: 'deny', reason: line }),
  // OpenCode's plugin refuses on `deny` (and on anything it cannot read).
  opencode: (line) => json({ hookwise: 'opencode', deny: line }),
};

/** The agents `hookwise <agent>` answers besides Claude Code (`hookwise claude-code`). */
export const AGENT_COMMANDS: readonly string[] = Object.keys(UNLOADED_FAILURE).filter((name) => name !== 'claude-code');
