import { isHookwiseEntry, SERVE_URL } from '../../config/claude/hookwise-entry.js';
import { WiringRefused } from '../../hosts/errors.js';

/**
 * The entries `hookwise init claude-code` adds to `.claude/settings.json`, and the
 * merge that adds them without losing anything already there.
 */
export { SERVE_URL };
export type ClaudeMode = 'command' | 'serve';

/**
 * The events hookwise answers for Claude Code: the guards judge before, redact after, and
 * hold Stop; at SessionEnd the shell guard removes the session's own /tmp (docs/security.md#the-os-sandbox).
 */
export const CLAUDE_EVENTS = ['PreToolUse', 'PermissionRequest', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'SessionEnd'] as const;

/**
 * The command Claude Code runs on every hook: Node on the project's own hookwise when
 * the project installs it; npx only when it does not, since npx costs about a second
 * of every call (docs/benchmarks.md).
 *
 * Either way, a hookwise that cannot be run (a clone without `npm install`, npx
 * offline, no node) must not let the call through: Claude Code reads exit 1 ("Cannot
 * find module") as a non-blocking error and runs the tool unguarded. So each command
 * is a small sh line that answers for the missing hookwise itself (missingAnswer).
 * Entries with `--fail-open` ask for the opposite and are written plain.
 */
const HOOKWISE_JS = '"$CLAUDE_PROJECT_DIR/node_modules/hookwise/bin/hookwise.js"';
const PLAIN_DIRECT = `node ${HOOKWISE_JS} claude-code`;
const PLAIN_NPX = 'npx hookwise claude-code';
const NOT_INSTALLED = 'hookwise is not installed in this project (node_modules/hookwise is missing): run npm install';
const NPX_FAILED = 'npx could not run hookwise: run npm install --save-dev hookwise';

/**
 * Events whose exit 2 refuses what is about to happen. On Stop, exit 2 means "keep
 * going" (and on PostToolUse the tool already ran): there the answer ends the run.
 */
const REFUSED_BY_EXIT_2: ReadonlySet<string> = new Set(['PreToolUse', 'PermissionRequest', 'UserPromptSubmit']);

/** What Claude Code gets from the entry when hookwise cannot be run: the call refused, or the run ended. */
export function missingAnswer(event: string, why: string): string {
  const reason = `hookwise failed closed: ${why}`;
  if (REFUSED_BY_EXIT_2.has(event)) return `echo '${reason}' >&2; exit 2`;
  return `echo '${JSON.stringify({ continue: false, stopReason: reason })}'; exit 0`;
}

/** The entry's command with the project's installed hookwise; `flags` (with their leading space) are passed on. */
export function directCommand(event: string, flags = ''): string {
  if (/(^| )--fail-open\b/.test(flags)) return `${PLAIN_DIRECT}${flags}`;
  return `[ -f ${HOOKWISE_JS} ] && command -v node >/dev/null && exec ${PLAIN_DIRECT}${flags}; ${missingAnswer(event, NOT_INSTALLED)}`;
}

/**
 * The entry's command through npx. npx's own failures exit 1 like hookwise's
 * non-blocking answers, so only hookwise's exit 0 and exit 2 pass; anything else is
 * taken as hookwise not having run.
 */
export function npxCommand(event: string, flags = ''): string {
  if (/(^| )--fail-open\b/.test(flags)) return `${PLAIN_NPX}${flags}`;
  return `${PLAIN_NPX}${flags} || { [ $? -eq 2 ] && exit 2; ${missingAnswer(event, NPX_FAILED)}; }`;
}

/** The form of an entry hookwise wrote (now or in an earlier release) and its flags; undefined for any other command. */
function formOf(command: string, event: string): { form: 'direct' | 'npx'; flags: string } | undefined {
  for (const [form, plain, build] of [
    ['direct', PLAIN_DIRECT, directCommand],
    ['npx', PLAIN_NPX, npxCommand],
  ] as const) {
    if (command === plain || command.startsWith(`${plain} `)) {
      const flags = command.slice(plain.length);
      if (!/[;&|<>`$(){}]/.test(flags)) return { form, flags };
    }
    const flagged = /claude-code((?: [^;&|<>`$(){}]*)?)(?:;| \|\|)/.exec(command);
    if (flagged && command === build(event, flagged[1])) return { form, flags: flagged[1]! };
  }
  return undefined;
}

export function hookEntry(mode: ClaudeMode, installed: boolean, event: string): Record<string, unknown> {
  if (mode === 'command') return { type: 'command', command: installed ? directCommand(event) : npxCommand(event) };
  return {
    type: 'http',
    url: SERVE_URL,
    headers: { Authorization: 'Bearer $HOOKWISE_TOKEN' },
    allowedEnvVars: ['HOOKWISE_TOKEN'],
    timeout: 10,
  };
}

export interface MergeResult {
  settings: Record<string, unknown>;
  /** Events that got an entry; the others already had one of hookwise's. */
  added: string[];
  /** Events whose `npx hookwise claude-code` now runs the project's installed hookwise directly. */
  upgraded: string[];
  /** Events whose entry, written by an earlier hookwise, now fails closed when hookwise cannot be run. */
  guarded: string[];
  /** Events whose hookwise entry of the other mode (command or http) was replaced by one of this mode. */
  switched: string[];
}

/**
 * Add one hookwise entry per event, keeping every other key, group and hook as
 * it was. An event whose hookwise entry is of the other mode (command or http) gets
 * this mode's entry in its place (docs/serve.md#claude-code-settings). An event that
 * already runs hookwise in this mode is left alone, so
 * running init twice changes nothing, except that an `npx hookwise claude-code`
 * entry (flags kept) runs the installed hookwise once the project installs it, and an
 * entry of an earlier hookwise gets the form that fails closed when hookwise is missing.
 */
export function mergeClaudeSettings(existing: Record<string, unknown>, mode: ClaudeMode, installed = false): MergeResult {
  const hooks = asObject(existing.hooks, 'hooks');
  const added: string[] = [];
  const upgraded: string[] = [];
  const guarded: string[] = [];
  const switched: string[] = [];
  const merged: Record<string, unknown> = { ...hooks };
  for (const event of CLAUDE_EVENTS) {
    const groups = merged[event] === undefined ? [] : asArray(merged[event], `hooks.${event}`);
    // One hookwise per event: asked for the other mode, the entry of this one takes its place.
    if (groups.some((g) => entriesOf(g).some((h) => modeOf(h) === otherMode(mode)))) {
      merged[event] = switchedGroups(groups, mode, installed, event);
      switched.push(event);
      continue;
    }
    if (groups.some(runsHookwise)) {
      const changes = { npx: false, guard: false };
      const rewritten = groups.map((g) => rewriteEntries(g, event, installed, changes));
      if (changes.npx || changes.guard) merged[event] = rewritten;
      if (changes.npx) upgraded.push(event);
      else if (changes.guard) guarded.push(event);
      continue;
    }
    merged[event] = [...groups, { hooks: [hookEntry(mode, installed, event)] }];
    added.push(event);
  }
  return { settings: { ...existing, hooks: merged }, added, upgraded, guarded, switched };
}

function runsHookwise(group: unknown): boolean {
  return entriesOf(group).some(isHookwiseEntry);
}

function entriesOf(group: unknown): unknown[] {
  const hooks = (group as { hooks?: unknown })?.hooks;
  return Array.isArray(hooks) ? hooks : [];
}

/** The mode of one of hookwise's entries; undefined for any other hook. */
function modeOf(entry: unknown): ClaudeMode | undefined {
  if (!isHookwiseEntry(entry)) return undefined;
  return (entry as { type?: unknown }).type === 'http' ? 'serve' : 'command';
}

const otherMode = (mode: ClaudeMode): ClaudeMode => (mode === 'command' ? 'serve' : 'command');

/**
 * The event's groups with hookwise's entries of the other mode gone: the first becomes
 * this mode's entry (in its place, so the order of the other hooks is kept) unless the
 * event already has one; a group left with no hooks goes too. Other hooks are never touched.
 */
function switchedGroups(groups: unknown[], mode: ClaudeMode, installed: boolean, event: string): unknown[] {
  let placed = groups.some((g) => entriesOf(g).some((h) => modeOf(h) === mode));
  const out: unknown[] = [];
  for (const group of groups) {
    const entries = entriesOf(group);
    if (!entries.some((h) => modeOf(h) === otherMode(mode))) {
      out.push(group);
      continue;
    }
    const kept: unknown[] = [];
    for (const h of entries) {
      if (modeOf(h) !== otherMode(mode)) kept.push(h);
      else if (!placed) {
        kept.push(hookEntry(mode, installed, event));
        placed = true;
      }
    }
    if (kept.length > 0) out.push({ ...(group as object), hooks: kept });
  }
  return out;
}

/**
 * The group with hookwise's own entries in their current form: the installed hookwise
 * instead of npx once the project installs it, and the form that fails closed (flags
 * kept). The same group when nothing changes; other hooks are never touched.
 */
function rewriteEntries(group: unknown, event: string, installed: boolean, changes: { npx: boolean; guard: boolean }): unknown {
  const hooks = (group as { hooks?: unknown })?.hooks;
  if (!Array.isArray(hooks)) return group;
  let changed = false;
  const next = hooks.map((h: { command?: unknown }) => {
    if (typeof h?.command !== 'string') return h;
    const found = formOf(h.command, event);
    if (!found) return h;
    const form = installed ? 'direct' : found.form;
    const command = form === 'direct' ? directCommand(event, found.flags) : npxCommand(event, found.flags);
    if (command === h.command) return h;
    if (form !== found.form) changes.npx = true;
    else changes.guard = true;
    changed = true;
    return { ...h, command };
  });
  return changed ? { ...(group as object), hooks: next } : group;
}

function asObject(value: unknown, where: string): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new WiringRefused(`${where}: expected an object of events, found ${Array.isArray(value) ? 'an array' : typeof value}`);
}

function asArray(value: unknown, where: string): unknown[] {
  if (Array.isArray(value)) return value;
  throw new WiringRefused(`${where}: expected an array of matcher groups, found ${typeof value}`);
}
