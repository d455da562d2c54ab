import type { Host } from './host.js';
import { AGENT_NAMES } from './registry.js';
import { UnknownAgentError } from './errors.js';

export type { Host, HostAnswer, HostName } from './host.js';
export { answerHost } from './answer.js';
export { AGENT_NAMES, AGENT_ROWS, isAgentName } from './registry.js';

/**
 * Every agent's host, by name: the folder ./<agent>/ of each row of the table of agents
 * (./registry.ts), whose index.ts exports `host`. Nothing here names an agent: a new one
 * is its folder and its row (ARCHITECTURE.md, "A new coding agent").
 */
export const HOSTS: Readonly<Record<string, Host>> = Object.fromEntries(
  await Promise.all(AGENT_NAMES.map(async (name) => [name, (await hostFolder(name)).host] as const)),
);

/** The folder's module, by the row's name (a name of the table only, never one from a call). */
function hostFolder(name: string): Promise<{ host: Host }> {
  return import(/* @vite-ignore */ `./${name}/index.js`);
}

/** The host of that name; an unknown name is an error that lists the known ones. */
export function hostNamed(name: string | undefined): Host {
  const agent = name ?? 'claude-code';
  const host = Object.hasOwn(HOSTS, agent) ? HOSTS[agent] : undefined;
  if (!host) throw new UnknownAgentError(`unknown agent "${name}"; hookwise answers ${AGENT_NAMES.join(', ')}`);
  return host;
}
