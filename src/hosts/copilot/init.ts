import os from 'node:os';
import path from 'node:path';
import { entryShape, type HostInit } from '../init-targets.js';
import { COPILOT_TIMEOUT_S, copilotHost } from './index.js';

/**
 * Copilot runs the repository's `.github/hooks/` only in a folder it trusts, and always
 * the user's `~/.copilot/hooks/`. So init writes both: the user's file protects this
 * machine in any folder, trusted or not, headless too; the project's, committed,
 * protects a clone on a machine where init never ran (it refuses until hookwise is
 * installed there), and stays silent where the user's file answers, so nothing is
 * answered twice.
 */
export const copilotInit: HostInit = {
  kind: 'hooks-files',
  targets: (projectDir, env) => [
    {
      agent: 'copilot',
      file: path.join(env.COPILOT_HOME || path.join(env.HOME || os.homedir(), '.copilot'), 'hooks', 'hookwise.json'),
      scope: 'user',
      shape: entryShape(copilotHost, COPILOT_TIMEOUT_S),
      note: 'Copilot runs your own hooks in every folder, trusted or not, headless too: this machine is protected here',
    },
    {
      agent: 'copilot',
      file: path.join(projectDir, '.github', 'hooks', 'hookwise.json'),
      scope: 'project',
      shape: entryShape(copilotHost, COPILOT_TIMEOUT_S, '"${COPILOT_HOME:-$HOME/.copilot}/hooks/hookwise.json"'),
      note: 'commit it: a teammate whose Copilot trusts this folder is refused every call until hookwise is installed there (and `hookwise init copilot` covers untrusted folders on their machine)',
    },
  ],
};
