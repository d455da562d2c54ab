import { AGENT_DEADLINE_MS, type Host } from '../host.js';
import { openCodeAnswer, openCodeFailure } from './answer.js';
import { openCodeInputs } from './events.js';

/**
 * OpenCode 1.18.33 (`hookwise opencode`, run by the plugin `hookwise init opencode`
 * writes to `.opencode/plugins/hookwise.js`). OpenCode's hooks are in-process plugins,
 * not commands: the plugin forwards each hook to this command (and so to the resident)
 * and does what the answer says (./answer.ts). OpenCode waits on a plugin for ever, so
 * hookwise answers a refusal before AGENT_DEADLINE_MS, and the plugin gives up (refusing)
 * before PLUGIN_WAIT_MS if even that answer does not come.
 */
export const PLUGIN_WAIT_MS = 30_000;

export const openCodeHost: Host = {
  name: 'opencode',
  label: 'OpenCode 1.18.33',
  deadlineMs: AGENT_DEADLINE_MS,
  init: async () => (await import('./init.js')).openCodeInit,
  inputs: openCodeInputs,
  answer: openCodeAnswer,
  failure: openCodeFailure,
};

export { openCodeHost as host };
