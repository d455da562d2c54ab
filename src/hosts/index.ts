import { claudeCodeHost } from './claude-code/index.js';
import { clineHost } from './cline/index.js';
import { codexHost } from './codex/index.js';
import { copilotHost } from './copilot/index.js';
import { droidHost } from './droid/index.js';
import { geminiHost } from './gemini/index.js';
import { openCodeHost } from './opencode/index.js';
import type { Host, HostName } from './host.js';

export type { Host, HostAnswer, HostName } from './host.js';
export { answerHost } from './answer.js';

export const HOSTS: Readonly<Record<HostName, Host>> = {
  'claude-code': claudeCodeHost,
  codex: codexHost,
  copilot: copilotHost,
  droid: droidHost,
  cline: clineHost,
  gemini: geminiHost,
  opencode: openCodeHost,
};

export const AGENT_NAMES = Object.keys(HOSTS) as HostName[];

/** The host of that name; an unknown name is an error that lists the known ones. */
export function hostNamed(name: string | undefined): Host {
  const host = HOSTS[(name ?? 'claude-code') as HostName];
  if (!host) throw new Error(`unknown agent "${name}"; hookwise answers ${AGENT_NAMES.join(', ')}`);
  return host;
}
