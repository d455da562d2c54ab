#!/usr/bin/env node
// CommonJS (bin/package.json): `hookwise claude-code` runs on every tool call, and
// Node starts a CommonJS entry faster than an ES module. That command skips the
// command-line parser and the other commands' modules, and is answered by a
// resident hookwise when one serves it (docs/claude-code.md#the-resident).
const [, , command, ...rest] = process.argv;
const fastPath = command === 'claude-code' && !rest.some((a) => a === '-h' || a === '--help');

const run = fastPath
  ? Promise.resolve().then(() => require('../dist/cli/resident/client.cjs').runClaudeCodeCommand(rest))
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
