import type { Command } from 'commander';
import { AGENT_NAMES, AGENT_ROWS } from '../../hosts/registry.js';
import type { SetExit } from '../index.js';

/**
 * `hookwise <agent>` for each agent of the table of agents (src/hosts/registry.ts) but
 * Claude Code, whose command has flags of its own (./claude-code.ts): the same hook call
 * for another agent (docs/agents.md). bin/hookwise.js runs them without commander on
 * every call; this declaration is for `--help` and the list of commands.
 */
export function defineAgents(program: Command, setExit: SetExit): void {
  for (const agent of AGENT_NAMES) {
    if (agent === 'claude-code') continue;
    program
      .command(agent)
      .description(
        `Run as a hook of ${AGENT_ROWS[agent]!.about}: read its event on stdin, fire the project's hookwise config, answer so that it fails closed.`,
      )
      .allowUnknownOption()
      .argument('[args...]')
      .action(async (args: string[]) => {
        const { runClaudeCode } = await import('./claude-code.js');
        setExit(await runClaudeCode(['--agent', agent, ...args]));
      });
  }
}
