import { entryCommand, runsHookwiseFor } from './entry-command.js';
import type { Host } from './host.js';
import type { HooksFileShape } from './hooks-file.js';
import { hostNamed } from './index.js';

/**
 * How `hookwise init <agent>` wires an agent to hookwise: each host's folder says it (its
 * `init`, loaded only by init), src/cli/init/ writes it. Every entry runs the same short
 * command (./entry-command.ts), which finds the project's hookwise when the agent calls
 * it: no file names one install.
 */
export type HostInit =
  /** Hooks files in the agent's format that init merges hookwise's entries into (./hooks-file.ts). */
  | { kind: 'hooks-files'; targets(projectDir: string, env: NodeJS.ProcessEnv): InitTarget[] }
  /** Files of hookwise's own, written by the host's folder (Cline's hook scripts, OpenCode's plugin). */
  | { kind: 'files'; write(dir: string, print: boolean, say: (line: string) => void): Promise<void> }
  /** Claude Code: its settings file, `--serve` or its mod (src/cli/init/). */
  | { kind: 'claude-code' };

export { WiringRefused } from './errors.js';

export interface InitTarget {
  agent: string;
  file: string;
  /** Shown to the user: where it went and what else the agent needs. */
  scope: 'user' | 'project';
  shape: HooksFileShape;
  note: string;
  /** What else the agent needs once the file holds hookwise's entries (Codex: its trust of them); run by every init. */
  finish?(say: (line: string) => void): Promise<void>;
  /** Why the agent would not run hookwise's entries as the file holds them (`hookwise check` says it), or undefined. */
  problem?(): Promise<string | undefined>;
}

/**
 * hookwise's entries in a Claude-shaped hooks file: one per event, each the call-time
 * lookup (./entry-command.ts) with the host's refusal written in. `deferTo`: a user-level
 * file whose hookwise entries answer already (the entry then stays silent).
 */
export function entryShape(host: Host, timeoutSeconds: number, deferTo?: string): HooksFileShape {
  return {
    wrapped: true,
    command: (event) => entryCommand(host, { event, deferTo }),
    timeoutSeconds,
    runsHookwise: runsHookwiseFor(host.name),
  };
}

/** Where init writes that agent's hooks files, and in which shape (an agent wired otherwise has none). */
export async function initTargets(agent: string, projectDir: string, env: NodeJS.ProcessEnv = process.env): Promise<InitTarget[]> {
  const init = await hostNamed(agent).init();
  return init.kind === 'hooks-files' ? init.targets(projectDir, env) : [];
}
