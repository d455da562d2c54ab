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
    const message = error instanceof Error ? error.message : String(error);
    // claude-code ends the process itself; reaching here means hookwise could not even load
    // (a broken install): that fails closed too (docs/claude-code.md#failures).
    const failOpen = !fastPath || rest.includes('--fail-open') || process.env.HOOKWISE_FAIL_OPEN === '1';
    process.stderr.write(`${failOpen ? 'hookwise' : 'hookwise failed closed'}: ${message.split('\n')[0]}\n`);
    process.exitCode = failOpen ? 1 : 2;
  },
);
