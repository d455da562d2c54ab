import type { Command } from 'commander';
import type { SetExit } from '../index.js';

interface DemoFlags {
  db?: string;
  workspace?: string;
}

export function defineDemo(program: Command, setExit: SetExit): void {
  program
    .command('demo')
    .description(
      'Run a scripted coding agent (no key, no network) in a scratch workspace under the example policy in examples/demo, ' +
        'showing live what every hook decided; ends with a summary and the audit database path.',
    )
    .option('--db <path>', 'audit database (default: $HOOKWISE_AUDIT_DB, else .hookwise/audit.db under the current folder)')
    .option('--workspace <dir>', 'where to create the scratch workspace (default: a new folder under the system temp dir)')
    .action(async (flags: DemoFlags) => {
      const { runDemo } = await import('../demo.js');
      const { result, auditOk } = await runDemo(flags);
      setExit(result.stopReason === 'end_turn' && auditOk ? 0 : 1);
    });
}
