import type { Command } from 'commander';
import type { SetExit } from '../index.js';

interface DemoFlags {
  db?: string;
  workspace?: string;
  keepWorkspace?: boolean;
}

export function defineDemo(program: Command, setExit: SetExit): void {
  program
    .command('demo')
    .description(
      'Run a scripted coding agent (no key, no network) in a scratch workspace under the example policy in examples/demo, ' +
        "showing live what every hook decided; ends with a summary and the path of the demo's own audit database.",
    )
    .option(
      '--db <path>',
      "audit database (default: the demo's own, .hookwise/demo/audit.db under the current folder; never the project's audit database)",
    )
    .option(
      '--workspace <dir>',
      'where to create the scratch workspace (default: a new folder under the system temp dir); removed when the demo ends',
    )
    .option('--keep-workspace', 'keep the scratch workspace after the demo, to look at what the agent did')
    .action(async (flags: DemoFlags) => {
      const { runDemo } = await import('../demo.js');
      const { result, auditOk } = await runDemo(flags);
      setExit(result.stopReason === 'end_turn' && auditOk ? 0 : 1);
    });
}
