import path from 'node:path';
import { FIND_HOOKWISE, IN_HOOKWISE_PROJECT, NOT_INSTALLED, shellWord } from '../entry-command.js';

/**
 * The hook files `hookwise init cline` writes. Cline CLI 3.0.65 runs every executable in
 * its hook folders whose name is an event (`PreToolUse`, optionally with a script
 * extension), reading `.clinerules/hooks/` and `.cline/hooks/` of the workspace and
 * `~/.cline/hooks/` and `~/Documents/Cline/Hooks/` of the user, headless too. Each file is
 * a small shell script running `hookwise cline`. Cline ignores exit codes and runs the
 * tool when a hook prints nothing it can read, so the script answers `cancel` itself when
 * hookwise cannot be run at all (no node, a moved install).
 */
export const CLINE_HOOK_FOLDER = path.join('.clinerules', 'hooks');

/** Cline's hook files for hookwise's events (Cline waits only for PreToolUse and PostToolUse). */
export const CLINE_HOOK_EVENTS = ['TaskStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'TaskComplete'] as const;

/**
 * The events Cline runs detached, its answer unread: hookwise answers them without a
 * resident, so that a hook still running when Cline exits starts none that outlives it.
 */
const DETACHED = new Set<string>(['TaskStart', 'UserPromptSubmit', 'TaskComplete']);

/**
 * A detached event's answer is never read, and Cline may end (and its process group with
 * it) before a cold hookwise has loaded the policy: the TaskComplete record would be lost.
 * Where setsid is there, hookwise runs in a session of its own, which outlives the agent,
 * and the script ends at once (its input stays hookwise's stdin).
 */
const DETACHED_RUN = `# Cline does not wait for this event: hookwise records it in a session of its own, outliving the agent.
command -v setsid >/dev/null && exec setsid node "$b" cline --no-resident >/dev/null 2>&1
`;

/** The first lines of every file hookwise writes: how a later init knows its own. */
export const MARKER = '# hookwise: written by `hookwise init cline` (docs/agents.md)';

/** Extensions Cline accepts on a hook file (its hook-file-config). */
const EXTENSIONS = ['', '.sh', '.bash', '.zsh', '.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.py', '.ps1'];

export function clineHookScript(event: string): string {
  const refusal = (why: string) => JSON.stringify({ cancel: true, errorMessage: `hookwise failed closed: ${why}` });
  const [before, after] = refusal('hookwise could not be run (exit CODE): the call is refused').split('CODE');
  return `#!/bin/sh
${MARKER}
# Cline reads only the JSON a hook prints (exit codes mean nothing to it), so a hookwise
# that cannot run is answered here with a cancel, which ends the run before the tool runs.
# hookwise is found in the project when Cline calls (src/hosts/entry-command.ts):
# its own node_modules, else the one \`hookwise init\` ran from on this machine.
p="$PWD"
${IN_HOOKWISE_PROJECT}
${FIND_HOOKWISE.join('\n')}
if ! { [ -f "$b" ] && command -v node >/dev/null; }; then
  printf '%s\\n' ${shellWord(refusal(NOT_INSTALLED))}
  exit 0
fi
${DETACHED.has(event) ? DETACHED_RUN : ''}out=$(node "$b" cline${DETACHED.has(event) ? ' --no-resident' : ''})
code=$?
if [ "$code" -eq 0 ]; then
  printf '%s\\n' "$out"
else
  printf '%s%s%s\\n' ${shellWord(before!)} "$code" ${shellWord(after!)}
fi
`;
}

/** Is this hook file's name one Cline runs for `event`? (`PreToolUse`, `pretooluse.sh`, …) */
export function isHookFileFor(event: string, fileName: string): boolean {
  const ext = path.extname(fileName).toLowerCase();
  if (!EXTENSIONS.includes(ext)) return false;
  return path.basename(fileName, path.extname(fileName)).trim().toLowerCase() === event.toLowerCase();
}

export const isHookwiseScript = (text: string): boolean => text.includes(MARKER);
