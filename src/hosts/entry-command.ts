import { CONFIG_MODULE_NAMES } from '../config/discover.js';
import type { Host } from './host.js';
import { WiringRefused } from './errors.js';

/**
 * The command an agent's hooks file runs: a short `sh` line that finds hookwise for the
 * project the agent is working in, at call time, and never names one machine's install.
 * In the folder the hook runs in (the agent's project):
 *
 *   - no hookwise.config.* there: not a hookwise project, nothing to run (exit 0), as
 *     hookwise itself answers such a folder;
 *   - the project's own hookwise (`node_modules/hookwise/bin/hookwise.js`), else the one
 *     `hookwise init` ran from on this machine, kept in `.hookwise/install` (machine-local
 *     state: .gitignored, and out of the agent's reach by the path guard);
 *   - neither (a clone, a deleted install, no node): the agent's own refusal for the
 *     event (the host's failure answer, written in when init runs), never the tool.
 *
 * So a user-level file (Codex's, droid's, Copilot's) holds no project's path, a committed
 * file (Gemini's, Copilot's repository hooks, Cline's scripts) no machine's, and deleting
 * or moving any one install changes no other project.
 */
export const INSTALL_POINTER = '.hookwise/install';

export const NOT_INSTALLED =
  'hookwise is not installed in this project (no node_modules/hookwise, and `hookwise init` has not run here on this machine): run npm install --save-dev hookwise, or hookwise init again';

export interface EntryOptions {
  /** The hookwise event the entry is for: its failure answer is the one written in. */
  event: string;
  /** Extra arguments after the agent name (with no shell meaning: checked). */
  args?: string;
  /**
   * A file whose hookwise wiring answers this project already (a user-level hooks file the
   * agent runs wherever it is trusted or not): while it names hookwise this entry stays
   * silent, so no event is answered, and recorded, twice. A shell word (it may hold $HOME).
   */
  deferTo?: string;
}

export function entryCommand(host: Host, options: EntryOptions): string {
  const args = options.args ?? '';
  if (/[^\w\s=.,:/-]/.test(args)) throw new WiringRefused(`entry arguments must be plain words: ${args}`);
  const failure = host.failure(options.event, NOT_INSTALLED, false);
  const refuse = [
    failure.stderr && `echo ${shellWord(failure.stderr)} >&2`,
    failure.stdout && `printf '%s\\n' ${shellWord(failure.stdout.trimEnd())}`,
    `exit ${failure.code}`,
  ].filter(Boolean);
  return [
    'p="$PWD"',
    IN_HOOKWISE_PROJECT,
    // Only an entry of this form counts (its lookup text is in no other hook): an older one naming a path may be gone.
    ...(options.deferTo ? [`grep -qsF '${FIND_HOOKWISE[0]!.slice(3, -1)}' ${options.deferTo} && exit 0`] : []),
    ...FIND_HOOKWISE,
    `[ -f "$b" ] && command -v node >/dev/null && exec node "$b" ${host.name}${args ? ` ${args.trim()}` : ''}`,
    ...refuse,
  ].join('; ');
}

/** sh: ends the hook (exit 0, nothing to run) unless the folder `$p` holds a hookwise.config.*. */
export const IN_HOOKWISE_PROJECT = `{ ${CONFIG_MODULE_NAMES.map((name) => `[ -f "$p/${name}" ]`).join(' || ')}; } || exit 0`;

/** sh: `$b` is the hookwise of the project `$p` (its node_modules, else this machine's pointer); check it with `[ -f "$b" ]`. */
export const FIND_HOOKWISE = [
  'b="$p/node_modules/hookwise/bin/hookwise.js"',
  `[ -f "$b" ] || b=$(cat "$p/${INSTALL_POINTER}" 2>/dev/null)`,
];

/** Does this command run hookwise for that agent (this form, or the `node "<path>/hookwise.js" agent` of earlier releases)? */
export function runsHookwiseFor(agent: string): RegExp {
  return new RegExp(`\\bhookwise(\\.js"?)?\\s+${agent}\\b|hookwise/bin/hookwise\\.js.*\\bnode "\\$b" ${agent}\\b`);
}

export const shellWord = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
