import type { Command } from 'commander';
import type { SetExit } from '../index.js';

/**
 * `hookwise codex|copilot|droid|cline`: `hookwise claude-code` for another agent (src/hosts,
 * docs/agents.md). bin/hookwise.js runs them without commander on every call; this
 * declaration is for `--help` and the list of commands.
 */
const AGENTS = {
  codex: 'Codex CLI ($CODEX_HOME/hooks.json)',
  copilot: 'GitHub Copilot CLI (.github/hooks/hookwise.json)',
  droid: 'Factory droid (~/.factory/hooks.json)',
  cline: 'Cline CLI (.clinerules/hooks/)',
  gemini: 'Gemini CLI (.gemini/settings.json)',
  opencode: "OpenCode (hookwise's plugin, .opencode/plugins/hookwise.js)",
};

export function defineAgents(program: Command, setExit: SetExit): void {
  for (const [agent, where] of Object.entries(AGENTS)) {
    program
      .command(agent)
      .description(
        `Run as a hook of ${where}: read its event on stdin, fire the project's hookwise config, answer so that it fails closed.`,
      )
      .allowUnknownOption()
      .argument('[args...]')
      .action(async (args: string[]) => {
        const { runClaudeCode } = await import('./claude-code.js');
        setExit(await runClaudeCode(['--agent', agent, ...args]));
      });
  }
}
