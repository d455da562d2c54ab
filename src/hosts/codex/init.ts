import os from 'node:os';
import path from 'node:path';
import { entryShape, type HostInit } from '../init-targets.js';
import { CODEX_TIMEOUT_S, codexHost } from './index.js';

/** Codex reads hooks only from the user's folder (`$CODEX_HOME`), for every project. */
export const codexInit: HostInit = {
  kind: 'hooks-files',
  targets: (_projectDir, env) => [
    {
      agent: 'codex',
      file: path.join(env.CODEX_HOME || path.join(env.HOME || os.homedir(), '.codex'), 'hooks.json'),
      scope: 'user',
      shape: entryShape(codexHost, CODEX_TIMEOUT_S),
      note: 'Codex runs these in every folder, trusted or not; it asks you to trust new hooks once (`codex exec` runs untrusted hooks only with --dangerously-bypass-hook-trust)',
    },
  ],
};
