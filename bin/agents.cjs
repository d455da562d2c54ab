// The table of agents hookwise answers: one row per agent, each with a folder of its own
// in src/hosts/<agent>/ (its `host`: input, answer, failure, deadline, how init wires it).
// Everything that lists agents reads this table: the launcher (./hookwise.js, before any
// of hookwise's modules, so it lives here in plain CommonJS), the hosts (src/hosts/registry.ts
// loads each row's folder), `hookwise init <agent>` and the CLI's commands.
// A new agent is its folder and its row (ARCHITECTURE.md, "A new coding agent");
// test/hosts/registry.test.ts holds the rows, the folders and ARCHITECTURE.md's table equal.
//
// A row:
//   about     the agent, and where `hookwise init <agent>` wires it (the command's help);
//   unloaded  its refusal when hookwise itself cannot even load (a broken install, no
//             dist/): what the host's own failure answer, `failure(undefined, …)`, is for an
//             event not yet read (checked by test/hosts/hook-call.test.ts).

const json = (value) => ({ stdout: `${JSON.stringify(value)}\n`, code: 0 });
/** Codex, Copilot and droid run the tool on exit 1 and may on 2: a JSON deny on exit 0. */
const claudeShapedDeny = (line) =>
  json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: line } });

/** @type {Readonly<Record<string, { about: string, unloaded: (line: string) => { stdout?: string; code: number } }>>} */
const AGENTS = {
  // Exit 2 blocks whatever the event was (its stderr is the reason).
  'claude-code': { about: 'Claude Code (.claude/settings.json, or its mod)', unloaded: () => ({ code: 2 }) },
  codex: { about: 'Codex CLI ($CODEX_HOME/hooks.json)', unloaded: claudeShapedDeny },
  copilot: { about: 'GitHub Copilot CLI (~/.copilot/hooks/ and .github/hooks/hookwise.json)', unloaded: claudeShapedDeny },
  droid: { about: 'Factory droid (~/.factory/hooks.json)', unloaded: claudeShapedDeny },
  // Cline reads no deny: only `cancel` (the run ends) keeps its tool from running.
  cline: { about: 'Cline CLI (.clinerules/hooks/)', unloaded: (line) => json({ cancel: true, errorMessage: line }) },
  // Gemini: nothing runs, and the run ends, whatever the event was.
  gemini: {
    about: 'Gemini CLI (~/.gemini/settings.json and .gemini/settings.json)',
    unloaded: (line) => json({ continue: false, stopReason: line, decision: 'deny', reason: line }),
  },
  // OpenCode's plugin refuses on `deny` (and on anything it cannot read).
  opencode: {
    about: "OpenCode (hookwise's plugin, .opencode/plugins/hookwise.js)",
    unloaded: (line) => json({ hookwise: 'opencode', deny: line }),
  },
};

module.exports = { AGENTS };
