import type { Command } from 'commander';
import type { SetExit } from '../index.js';
import { collect } from '../load-engine.js';

interface RunFlags {
  model: string;
  baseUrl?: string;
  workspace?: string;
  config?: string[];
  db?: string;
  maxSteps?: string;
}

export function defineRun(program: Command, setExit: SetExit): void {
  program
    .command('run')
    .description(
      'Run an agent with a real model on a folder (default: the current one) under its hook policy (hookwise.config.* and Claude Code settings found there, or --config), with the live timeline and the audit trail.',
    )
    .argument('<prompt>', 'what the agent should do')
    .requiredOption('-m, --model <provider:model>', 'openai:<model> (any OpenAI-compatible server) or anthropic:<model>')
    .option('--base-url <url>', 'the API base URL, e.g. http://127.0.0.1:8080/v1 for a local llama.cpp, Ollama or vLLM server')
    .option('--workspace <dir>', 'the folder the agent works in (default: the current folder)')
    .option('-c, --config <file>', 'a configuration source; repeat to merge several', collect)
    .option('--db <path>', 'audit database (default: $HOOKWISE_AUDIT_DB, else .hookwise/audit.db under the current folder)')
    .option('--max-steps <n>', 'model turns at most', '30')
    .action(async (prompt: string, flags: RunFlags) => {
      const path = await import('node:path');
      const [{ createProvider }, { defaultAuditPath }, { runAgentSession }, { UserError }] = await Promise.all([
        import('../../providers/index.js'),
        import('../../audit/index.js'),
        import('../agent-session.js'),
        import('../errors.js'),
      ]);
      let provider;
      try {
        provider = createProvider(flags.model, { baseUrl: flags.baseUrl });
      } catch (error) {
        throw new UserError(`--model: ${(error as Error).message}`);
      }
      const maxSteps = Number(flags.maxSteps);
      if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new UserError(`--max-steps: expected a whole number >= 1, got ${flags.maxSteps}`);
      const { result } = await runAgentSession({
        provider,
        prompt,
        workspace: path.resolve(flags.workspace ?? process.cwd()),
        configFiles: flags.config?.map((f) => path.resolve(f)),
        auditPath: path.resolve(flags.db ?? defaultAuditPath(process.cwd())),
        maxSteps,
        interactive: true,
      });
      setExit(result.stopReason === 'error' ? 1 : 0);
    });
}
