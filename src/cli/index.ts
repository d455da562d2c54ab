import { Command, CommanderError } from 'commander';
import { UserError } from './errors.js';
import { defineFire } from './commands/fire.js';
import { defineCheck } from './commands/check.js';
import { defineClaudeCode } from './commands/claude-code.js';
import { defineAgents } from './commands/agents.js';
import { defineResidents } from './commands/residents.js';
import { defineAudit } from './commands/audit.js';
import { defineApprovals } from './commands/approvals.js';
import { defineGuard } from './commands/guard.js';
import { defineDemo } from './commands/demo.js';
import { defineRun } from './commands/run.js';
import { defineInit } from './commands/init.js';
import { defineServe } from './commands/serve.js';
import { defineMcpProxy } from './commands/mcp-proxy.js';
import { defineSandbox } from './commands/sandbox.js';
import { defineNetProxy } from './commands/net-proxy.js';
import { definePolicyTest } from './commands/policy-test.js';
import { defineReplay } from './commands/replay.js';
import { defineExplain } from './commands/explain.js';
import { defineUndo } from './commands/undo.js';

/**
 * The CLI. Each command lives in `commands/<name>.ts` and exports a `define*`
 * function that declares its options; heavy modules are imported inside the
 * action so `hookwise claude-code` starts fast.
 */
export async function main(argv: string[]): Promise<number> {
  endQuietlyWhenStdoutCloses();
  const program = new Command('hookwise')
    .description('Lifecycle hooks for AI agents: run, check and explain hook policies.')
    .version(await version(), '-v, --version')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  let exitCode = 0;
  const setExit = (code: number) => {
    exitCode = code;
  };
  for (const define of [
    defineInit,
    defineDemo,
    defineRun,
    defineFire,
    defineCheck,
    defineAudit,
    defineApprovals,
    defineClaudeCode,
    defineAgents,
    defineResidents,
    defineGuard,
    defineServe,
    defineMcpProxy,
    defineSandbox,
    defineNetProxy,
    definePolicyTest,
    defineReplay,
    defineExplain,
    defineUndo,
  ])
    define(program, setExit);
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof UserError) {
      process.stderr.write(`hookwise: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  return exitCode;
}

async function version(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export type SetExit = (code: number) => void;

/**
 * `hookwise check | head -1`: the reader has what it wanted and closed the pipe; the
 * rest of the output has nowhere to go. End as Unix tools do, quietly, instead of an
 * unhandled EPIPE and its stack trace.
 */
function endQuietlyWhenStdoutCloses(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(0);
  });
}
