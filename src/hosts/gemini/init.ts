import os from 'node:os';
import path from 'node:path';
import { entryCommand } from '../entry-command.js';
import type { HooksFileShape } from '../hooks-file.js';
import { entryShape, type HostInit } from '../init-targets.js';
import { GEMINI_EVENTS, GEMINI_INIT_EVENTS } from './events.js';
import { GEMINI_TIMEOUT_MS, geminiHost } from './index.js';

/**
 * Gemini CLI runs the project's `.gemini/settings.json` only in a trusted folder, and
 * always the user's `~/.gemini/settings.json`: init writes both, as for Copilot.
 */
export const geminiInit: HostInit = {
  kind: 'hooks-files',
  targets: (projectDir, env) => [
    {
      agent: 'gemini',
      file: path.join(env.HOME || os.homedir(), '.gemini', 'settings.json'),
      scope: 'user',
      shape: geminiShape(),
      note: 'Gemini CLI runs your own hooks in every folder, trusted or not, headless too (with hooksConfig.enabled not false)',
    },
    {
      agent: 'gemini',
      file: path.join(projectDir, '.gemini', 'settings.json'),
      scope: 'project',
      shape: geminiShape('"$HOME/.gemini/settings.json"'),
      note: 'commit it: a teammate whose Gemini CLI trusts this folder is refused every call until hookwise is installed there',
    },
  ],
};

function geminiShape(deferTo?: string): HooksFileShape {
  return {
    ...entryShape(geminiHost, GEMINI_TIMEOUT_MS / 1000, deferTo),
    // Gemini names its events its own way; the refusal written in is the one for hookwise's event.
    command: (event) => entryCommand(geminiHost, { event: GEMINI_EVENTS[event] ?? event, deferTo }),
    timeoutMs: GEMINI_TIMEOUT_MS,
    events: GEMINI_INIT_EVENTS,
    jsonc: true,
  };
}
