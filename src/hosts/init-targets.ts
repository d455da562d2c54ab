import os from 'node:os';
import path from 'node:path';
import { entryCommand, runsHookwiseFor } from './entry-command.js';
import { CODEX_TIMEOUT_S } from './codex/index.js';
import { COPILOT_TIMEOUT_S } from './copilot/index.js';
import { DROID_TIMEOUT_S } from './droid/index.js';
import { GEMINI_EVENTS, GEMINI_INIT_EVENTS } from './gemini/events.js';
import { GEMINI_TIMEOUT_MS } from './gemini/index.js';
import type { HooksFileShape } from './hooks-file.js';
import { hostNamed } from './index.js';

/**
 * Where `hookwise init <agent>` writes the agent's hooks, and in which shape. Every entry
 * runs the same short command (src/hosts/entry-command.ts), which finds the project's
 * hookwise when the agent calls it: no file names one install.
 *
 * - Codex and droid read hooks only from the user's folder (`$CODEX_HOME`, `~/.factory`).
 * - Copilot runs the repository's `.github/hooks/` only in a folder it trusts, and Gemini
 *   CLI the project's `.gemini/settings.json` only in a trusted folder; both always run
 *   the user's hooks (`~/.copilot/hooks/`, `~/.gemini/settings.json`). So init writes
 *   both: the user's file protects this machine in any folder, trusted or not, headless
 *   too; the project's, committed, protects a clone on a machine where init never ran (it
 *   refuses until hookwise is installed there), and stays silent where the user's file
 *   answers, so nothing is answered twice.
 */
export interface InitTarget {
  agent: 'codex' | 'copilot' | 'droid' | 'gemini';
  file: string;
  /** Shown to the user: where it went and what else the agent needs. */
  scope: 'user' | 'project';
  shape: HooksFileShape;
  note: string;
}

export function initTargets(agent: string, projectDir: string, env: NodeJS.ProcessEnv = process.env): InitTarget[] {
  const host = hostNamed(agent);
  const runsHookwise = runsHookwiseFor(agent);
  const home = env.HOME || os.homedir();
  const shape = (timeoutSeconds: number, deferTo?: string): HooksFileShape => ({
    wrapped: true,
    command: (event) => entryCommand(host, { event, deferTo }),
    timeoutSeconds,
    runsHookwise,
  });
  switch (agent) {
    case 'codex':
      return [
        {
          agent,
          file: path.join(env.CODEX_HOME || path.join(home, '.codex'), 'hooks.json'),
          scope: 'user',
          shape: shape(CODEX_TIMEOUT_S),
          note: 'Codex runs these in every folder, trusted or not; it asks you to trust new hooks once (`codex exec` runs untrusted hooks only with --dangerously-bypass-hook-trust)',
        },
      ];
    case 'copilot': {
      const userFile = path.join(env.COPILOT_HOME || path.join(home, '.copilot'), 'hooks', 'hookwise.json');
      return [
        {
          agent,
          file: userFile,
          scope: 'user',
          shape: shape(COPILOT_TIMEOUT_S),
          note: 'Copilot runs your own hooks in every folder, trusted or not, headless too: this machine is protected here',
        },
        {
          agent,
          file: path.join(projectDir, '.github', 'hooks', 'hookwise.json'),
          scope: 'project',
          shape: shape(COPILOT_TIMEOUT_S, '"${COPILOT_HOME:-$HOME/.copilot}/hooks/hookwise.json"'),
          note: 'commit it: a teammate whose Copilot trusts this folder is refused every call until hookwise is installed there (and `hookwise init copilot` covers untrusted folders on their machine)',
        },
      ];
    }
    case 'droid':
      return [
        {
          agent,
          file: path.join(home, '.factory', 'hooks.json'),
          scope: 'user',
          shape: { ...shape(DROID_TIMEOUT_S), wrapped: false },
          note: 'droid reads ~/.factory/hooks.json for every project; each finds its own hookwise.config.* and hookwise',
        },
      ];
    case 'gemini': {
      const gemini = (deferTo?: string): HooksFileShape => ({
        wrapped: true,
        // Gemini names its events its own way; the refusal written in is the one for hookwise's event.
        command: (event) => entryCommand(host, { event: GEMINI_EVENTS[event] ?? event, deferTo }),
        timeoutSeconds: GEMINI_TIMEOUT_MS / 1000,
        timeoutMs: GEMINI_TIMEOUT_MS,
        events: GEMINI_INIT_EVENTS,
        runsHookwise,
      });
      return [
        {
          agent,
          file: path.join(home, '.gemini', 'settings.json'),
          scope: 'user',
          shape: gemini(),
          note: 'Gemini CLI runs your own hooks in every folder, trusted or not, headless too (with hooksConfig.enabled not false)',
        },
        {
          agent,
          file: path.join(projectDir, '.gemini', 'settings.json'),
          scope: 'project',
          shape: gemini('"$HOME/.gemini/settings.json"'),
          note: 'commit it: a teammate whose Gemini CLI trusts this folder is refused every call until hookwise is installed there',
        },
      ];
    }
    default:
      throw new Error(`unknown agent "${agent}"`);
  }
}
