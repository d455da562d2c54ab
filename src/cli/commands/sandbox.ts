import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import type { SetExit } from '../index.js';
import { UserError } from '../errors.js';
import { collect, loadEngine } from '../load-engine.js';

interface SandboxFlags {
  config?: string[];
}

/** What `hookwise sandbox` exits with when the policy refuses the command or cannot sandbox it. */
export const SANDBOX_REFUSED_EXIT = 2;

export function defineSandbox(program: Command, setExit: SetExit): void {
  program
    .command('sandbox')
    .description(
      "Run a command as the policy would let a host run it: judged by the shell guard, then inside the OS sandbox derived from the policy (docs/security.md#the-os-sandbox). Exits with the command's status, or 2 when the policy refuses it.",
    )
    .argument('<command...>', 'the command and its arguments (after --), or one quoted shell line')
    .option('-c, --config <file>', 'a configuration source; repeat to merge several (default: what is found in the cwd)', collect)
    .action(async (words: string[], flags: SandboxFlags) => setExit(await runSandboxed(words, flags)));
}

async function runSandboxed(words: string[], flags: SandboxFlags): Promise<number> {
  const { shq } = await import('../../sandbox/command.js');
  const command = words.length === 1 ? words[0]! : words.map(shq).join(' ');
  const cwd = process.cwd();
  const { engine } = await loadEngine({ config: flags.config, cwd });
  // A network allowlist's proxy lives in this process for this run, unless one already serves it.
  const { serveInProcess } = await import('../../sandbox/proxy/daemon.js');
  const proxies = serveInProcess();
  try {
    return await judgeAndRun(engine, command, cwd);
  } finally {
    await proxies.close();
  }
}

async function judgeAndRun(engine: Awaited<ReturnType<typeof loadEngine>>['engine'], command: string, cwd: string): Promise<number> {
  const outcome = await engine.fire(
    'PreToolUse',
    { tool_name: 'Bash', tool_input: { command }, cwd, session_id: 'hookwise-sandbox' },
    { env: process.env },
  );
  if (outcome.blocked || outcome.decision === 'deny' || outcome.decision === 'ask') {
    process.stderr.write(`hookwise: refused: ${outcome.reason ?? 'the policy refused this command'}\n`);
    return SANDBOX_REFUSED_EXIT;
  }
  const line = (outcome.updatedInput as { command?: unknown } | null)?.command;
  const sandboxed = outcome.hooks.some((h) => h.last === true && h.sandboxed === true);
  if (typeof line !== 'string' || !sandboxed) {
    throw new UserError(
      'the policy does not run commands in the OS sandbox: add the shell guard (`shellGuard()` from hookwise/guards, sandbox on by default) to the config',
    );
  }
  const child = spawn('/bin/bash', ['-c', line], { stdio: 'inherit', cwd });
  return new Promise((resolve) => {
    child.on('close', (code, signal) => resolve(code ?? (signal ? 128 + 9 : 1)));
    child.on('error', () => resolve(SANDBOX_REFUSED_EXIT));
  });
}
