import os from 'node:os';
import path from 'node:path';
import { entryShape, type HostInit } from '../init-targets.js';
import { DROID_TIMEOUT_S, droidHost } from './index.js';

/** droid reads `~/.factory/hooks.json` for every project, its events at the top level. */
export const droidInit: HostInit = {
  kind: 'hooks-files',
  targets: (_projectDir, env) => [
    {
      agent: 'droid',
      file: path.join(env.HOME || os.homedir(), '.factory', 'hooks.json'),
      scope: 'user',
      shape: { ...entryShape(droidHost, DROID_TIMEOUT_S), wrapped: false },
      note: 'droid reads ~/.factory/hooks.json for every project; each finds its own hookwise.config.* and hookwise',
    },
  ],
};
