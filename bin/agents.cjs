// The table of agents `hookwise <agent>` answers, with each one's refusal when hookwise
// itself cannot even load (a broken install, no dist/): read by ./hookwise.js before any
// of hookwise's modules, so it lives beside the launcher, in plain CommonJS. A row is
// what the host's own failure answer (src/hosts/<agent>, `failure(undefined, …)`) is for
// an event not yet read; test/hosts/hook-call.test.ts holds the table equal to the hosts.
// A new agent is a folder in src/hosts and a row here (ARCHITECTURE.md).

const json = (value) => ({ stdout: `${JSON.stringify(value)}\n`, code: 0 });
/** Codex, Copilot and droid run the tool on exit 1 and may on 2: a JSON deny on exit 0. */
const claudeShapedDeny = (line) =>
  json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: line } });

/** @type {Readonly<Record<string, (line: string) => { stdout?: string; code: number }>>} */
const UNLOADED_FAILURE = {
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
const AGENT_COMMANDS = Object.keys(UNLOADED_FAILURE).filter((name) => name !== 'claude-code');

module.exports = { UNLOADED_FAILURE, AGENT_COMMANDS };
