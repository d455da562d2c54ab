#!/usr/bin/env node
// `hookwise claude-code` runs on every tool call of Claude Code: it skips the
// command-line parser and the other commands' modules to start as fast as it can.
const [, , command, ...rest] = process.argv;
const fastPath = command === 'claude-code' && !rest.some((a) => a === '-h' || a === '--help');

const run = fastPath
  ? import('../dist/cli/commands/claude-code.js').then((m) => m.runClaudeCode(rest))
  : import('../dist/cli/index.js').then((m) => m.main(process.argv));

run.then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`hookwise: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
