#!/usr/bin/env node
// CommonJS (bin/package.json): `hookwise claude-code` runs on every tool call, and
// Node starts a CommonJS entry faster than an ES module. That command skips the
// command-line parser and the other commands' modules, and is answered by a
// resident hookwise when one serves it (docs/claude-code.md#the-resident).
// `hookwise codex|copilot|droid|cline` are the same command for another agent (src/hosts).
const [, , command, ...rest] = process.argv;
const AGENTS = ['codex', 'copilot', 'droid', 'cline', 'gemini', 'opencode'];
const agent = AGENTS.includes(command);
const fastPath = (command === 'claude-code' || agent) && !rest.some((a) => a === '-h' || a === '--help');
const args = agent ? ['--agent', command, ...rest] : rest;

const run = fastPath
  ? Promise.resolve().then(() => require('../dist/cli/resident/client.cjs').runClaudeCodeCommand(args))
  : import('../dist/cli/index.js').then((m) => m.main(process.argv));

run.then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    const message = error instanceof Error ? error.message : String(error);
    // claude-code ends the process itself; reaching here means hookwise could not even load
    // (a broken install): that fails closed too (docs/claude-code.md#failures).
    const failOpen = !fastPath || rest.includes('--fail-open') || process.env.HOOKWISE_FAIL_OPEN === '1';
    const line = `${failOpen ? 'hookwise' : 'hookwise failed closed'}: ${message.split('\n')[0]}`;
    process.stderr.write(`${line}\n`);
    // Codex and droid run the tool on exit 1 and may on 2: they are answered a JSON deny on stdout (exit 0).
    // Cline reads no deny: only `cancel` (the run ends) keeps its tool from running.
    if (command === 'cline' && !failOpen) {
      process.stdout.write(`${JSON.stringify({ cancel: true, errorMessage: line })}\n`);
      process.exitCode = 0;
      return;
    }
    if (agent && !failOpen) {
      // Gemini reads its own form (src/hosts/gemini): nothing runs, and the run ends whatever the event was.
      const deny =
        command === 'gemini'
          ? { continue: false, stopReason: line, decision: 'deny', reason: line }
          : { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: line } };
      process.stdout.write(`${JSON.stringify(deny)}\n`);
      process.exitCode = 0;
      return;
    }
    process.exitCode = failOpen ? 1 : 2;
  },
);
