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
  /** false with --no-policy */
  policy: boolean;
  approvals?: boolean;
}

const KEY_OF: Record<string, string> = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' };
const BASE_URL_OF: Record<string, string> = { openai: 'OPENAI_BASE_URL', anthropic: 'ANTHROPIC_BASE_URL' };

/**
 * Found before the first model call, not after the agent started: the official
 * APIs need a key; a server named by --base-url (llama.cpp, Ollama, vLLM) may not.
 */
function missingKey(model: string, baseUrl: string | undefined): string | undefined {
  const kind = model.slice(0, model.indexOf(':'));
  const key = KEY_OF[kind];
  if (!key || process.env[key] || baseUrl || process.env[BASE_URL_OF[kind]!]) return undefined;
  return `${key} is not set: export it (or pass --base-url for a server that needs no key)`;
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
    .option('--max-steps <n>', "model turns at most (default: the runtime's, 50)")
    .option('--no-policy', 'run even when no policy is found: every tool call the model asks for runs')
    .option(
      '--approvals',
      "a hook that answers ask makes a durable approval in the audit database; the run waits until `hookwise approvals approve|deny` (or serve's page) answers it (docs/approvals.md)",
    )
    .action(async (prompt: string, flags: RunFlags) => {
      const [path, { statSync }] = await Promise.all([import('node:path'), import('node:fs')]);
      const [{ createProvider }, { defaultAuditPath }, { runAgentSession }, { UserError }, { DEFAULT_MAX_STEPS }] = await Promise.all([
        import('../../providers/index.js'),
        import('../../audit/index.js'),
        import('../agent-session.js'),
        import('../errors.js'),
        import('../../runtime/index.js'),
      ]);
      const workspace = path.resolve(flags.workspace ?? process.cwd());
      if (!statSync(workspace, { throwIfNoEntry: false })?.isDirectory()) {
        throw new UserError(`--workspace ${flags.workspace}: no such folder (${workspace})`);
      }
      let provider: ReturnType<typeof createProvider>;
      try {
        provider = createProvider(flags.model, { baseUrl: flags.baseUrl });
      } catch (error) {
        throw new UserError(`--model: ${(error as Error).message}`);
      }
      const noKey = missingKey(flags.model, flags.baseUrl);
      if (noKey) throw new UserError(`--model ${flags.model}: ${noKey}`);
      const maxSteps = flags.maxSteps === undefined ? DEFAULT_MAX_STEPS : Number(flags.maxSteps);
      if (!Number.isInteger(maxSteps) || maxSteps < 1)
        throw new UserError(`--max-steps: expected a whole number >= 1, got ${flags.maxSteps}`);
      const { result } = await runAgentSession({
        provider,
        prompt,
        workspace,
        requirePolicy: flags.policy,
        configFiles: flags.config?.map((f) => path.resolve(f)),
        auditPath: path.resolve(flags.db ?? defaultAuditPath(process.cwd())),
        maxSteps,
        interactive: true,
        approvals: flags.approvals === true,
      });
      setExit(result.stopReason === 'error' ? 1 : 0);
    });
}
