import os from 'node:os';
import path from 'node:path';
import { CODEX_TIMEOUT_S } from './codex/index.js';
import { COPILOT_TIMEOUT_S } from './copilot/index.js';
import { DROID_TIMEOUT_S } from './droid/index.js';
import { GEMINI_INIT_EVENTS } from './gemini/events.js';
import { GEMINI_TIMEOUT_MS } from './gemini/index.js';
import type { HooksFileShape } from './hooks-file.js';

/**
 * Where `hookwise init <agent>` writes the agent's hooks, and in which shape. Codex and
 * droid read hooks only from the user's folder (`$CODEX_HOME`, `~/.factory`): there the
 * command finds each project's policy from the call's `cwd`. Copilot reads the
 * repository's `.github/hooks/` (once the folder is trusted); Gemini CLI the project's
 * `.gemini/settings.json` `hooks`, under its own event names, with the timeout in ms.
 */
export interface InitTarget {
  agent: 'codex' | 'copilot' | 'droid' | 'gemini';
  file: string;
  /** Shown to the user: where it went and what else the agent needs. */
  scope: 'user' | 'project';
  shape: HooksFileShape;
  note: string;
}

export function initTarget(agent: string, projectDir: string, bin: string, env: NodeJS.ProcessEnv = process.env): InitTarget {
  const command = `node ${JSON.stringify(bin)} ${agent}`;
  const runsHookwise = new RegExp(`\\bhookwise(\\.js")?\\s+${agent}\\b`);
  const home = env.HOME || os.homedir();
  switch (agent) {
    case 'codex':
      return {
        agent,
        file: path.join(env.CODEX_HOME || path.join(home, '.codex'), 'hooks.json'),
        scope: 'user',
        shape: { wrapped: true, command, timeoutSeconds: CODEX_TIMEOUT_S, runsHookwise },
        note: 'Codex asks you to trust new hooks once (`codex exec` runs untrusted hooks only with --dangerously-bypass-hook-trust)',
      };
    case 'copilot':
      return {
        agent,
        file: path.join(projectDir, '.github', 'hooks', 'hookwise.json'),
        scope: 'project',
        shape: { wrapped: true, command, timeoutSeconds: COPILOT_TIMEOUT_S, runsHookwise },
        note: 'Copilot runs repository hooks once the folder is trusted',
      };
    case 'droid':
      return {
        agent,
        file: path.join(home, '.factory', 'hooks.json'),
        scope: 'user',
        shape: { wrapped: false, command, timeoutSeconds: DROID_TIMEOUT_S, runsHookwise },
        note: 'droid reads ~/.factory/hooks.json for every project; each finds its own hookwise.config.*',
      };
    case 'gemini':
      return {
        agent,
        file: path.join(projectDir, '.gemini', 'settings.json'),
        scope: 'project',
        shape: {
          wrapped: true,
          command,
          timeoutSeconds: GEMINI_TIMEOUT_MS / 1000,
          timeoutMs: GEMINI_TIMEOUT_MS,
          events: GEMINI_INIT_EVENTS,
          runsHookwise,
        },
        note: 'Gemini CLI runs project hooks only in a trusted folder (trust it when asked; headless: GEMINI_CLI_TRUST_WORKSPACE=true), and with hooksConfig.enabled not false',
      };
    default:
      throw new Error(`unknown agent "${agent}"`);
  }
}
