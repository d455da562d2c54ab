#!/usr/bin/env node
// CommonJS (bin/package.json): `hookwise claude-code` runs on every tool call, and
// Node starts a CommonJS entry faster than an ES module. That command skips the
// command-line parser and the other commands' modules, and is answered by a
// resident hookwise when one serves it (docs/claude-code.md#the-resident).
// `hookwise codex|copilot|droid|cline|gemini|opencode` are the same command for another
// agent (src/hosts); the agents, and their refusals, are one table (./agents.cjs).
const { AGENTS } = require('./agents.cjs');
const [, , command, ...rest] = process.argv;
const hook = Object.hasOwn(AGENTS, command);
const fastPath = hook && !rest.some((a) => a === '-h' || a === '--help');
const args = hook && command !== 'claude-code' ? ['--agent', command, ...rest] : rest;

const run = fastPath
  ? Promise.resolve().then(() => require('../dist/cli/resident/client.cjs').runClaudeCodeCommand(args))
  : import('../dist/cli/index.js').then((m) => m.main(process.argv));

run.then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    const message = error instanceof Error ? error.message : String(error);
    // A hook call ends the process itself; reaching here means hookwise could not even load
    // (a broken install): that fails closed too (docs/claude-code.md#failures).
    const failOpen = !fastPath || rest.includes('--fail-open') || process.env.HOOKWISE_FAIL_OPEN === '1';
    const line = `${failOpen ? 'hookwise' : 'hookwise failed closed'}: ${message.split('\n')[0]}`;
    process.stderr.write(`${line}\n`);
    if (failOpen) {
      process.exitCode = 1;
      return;
    }
    const answer = AGENTS[command].unloaded(line);
    if (answer.stdout) process.stdout.write(answer.stdout);
    process.exitCode = answer.code;
  },
);
