import { createRequire } from 'node:module';

/**
 * The table of agents (bin/agents.cjs): one row per agent hookwise answers, each with its
 * folder here (./<agent>/). It lives beside the launcher, in plain CommonJS, because the
 * launcher reads it when hookwise itself cannot load; everything else reads it through
 * this module: the hosts (./index.ts), `hookwise init` and the CLI's commands.
 */
export interface AgentRow {
  /** The agent, and where `hookwise init <agent>` wires it: the command's help. */
  readonly about: string;
  /** Its refusal when hookwise cannot even load: the host's failure answer for an unread event. */
  unloaded(line: string): { stdout?: string; code: number };
}

// The same path from src/hosts (tests) and dist/hosts (the package ships bin/ beside dist/).
const table = createRequire(import.meta.url)('../../bin/agents.cjs') as { AGENTS: Readonly<Record<string, AgentRow>> };

export const AGENT_ROWS: Readonly<Record<string, AgentRow>> = table.AGENTS;

/** Every agent's name, in the table's order. */
export const AGENT_NAMES: readonly string[] = Object.keys(AGENT_ROWS);

export const isAgentName = (name: string): boolean => Object.hasOwn(AGENT_ROWS, name);
