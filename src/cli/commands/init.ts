import type { Command } from 'commander';
import { AGENT_NAMES } from '../../hosts/registry.js';
import type { SetExit } from '../index.js';

interface InitFlags {
  dir?: string;
  serve?: boolean;
  print?: boolean;
  mod?: boolean;
  state?: string;
}

export function defineInit(program: Command, _setExit: SetExit): void {
  program
    .command('init')
    .description(
      'Start a policy: write a hookwise.config.ts with the built-in guards; with "claude-code", also add hookwise to .claude/settings.json (kept as it is otherwise).',
    )
    .argument('[host]', `${AGENT_NAMES.join(', ')}: wire the policy into that agent (docs/agents.md)`)
    .option('--dir <folder>', 'the project folder (default: the current folder)')
    .option('--serve', 'claude-code: call a running `hookwise serve` over HTTP instead of spawning `hookwise claude-code` per call')
    .option('--mod', "claude-code: Claude Code's in-process mod (2.1.328) instead of a command per hook (docs/claude-code.md#the-mod)")
    .option(
      '--state <where>',
      "where the audit trail, approvals and key go: user (recommended: the user's state folder, outside the workspace and the agent's reach) or project (.hookwise/, the default)",
    )
    .option('--print', 'print what would be written, write nothing')
    .action(async (host: string | undefined, flags: InitFlags) => {
      const { initProject } = await import('../init/index.js');
      await initProject({
        host,
        dir: flags.dir,
        serve: flags.serve === true,
        print: flags.print === true,
        mod: flags.mod === true,
        state: flags.state,
      });
    });
}
