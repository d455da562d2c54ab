/**
 * The entries `hookwise init claude-code` adds to `.claude/settings.json`, and the
 * merge that adds them without losing anything already there.
 */
export type ClaudeMode = 'command' | 'serve';

/** The events hookwise answers for Claude Code: the guards judge before, redact after, and hold Stop. */
export const CLAUDE_EVENTS = ['PreToolUse', 'PermissionRequest', 'PostToolUse', 'UserPromptSubmit', 'Stop'] as const;

export const SERVE_URL = 'http://127.0.0.1:8787/v1/claude-code';

/**
 * The command Claude Code runs on every hook: Node on the project's own hookwise when
 * the project installs it; npx only when it does not, since npx costs about a second
 * of every call (docs/benchmarks.md).
 */
export const DIRECT_COMMAND = 'node "$CLAUDE_PROJECT_DIR/node_modules/hookwise/bin/hookwise.js" claude-code';
export const NPX_COMMAND = 'npx hookwise claude-code';

export function hookEntry(mode: ClaudeMode, installed = false): Record<string, unknown> {
  if (mode === 'command') return { type: 'command', command: installed ? DIRECT_COMMAND : NPX_COMMAND };
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
}

/**
 * Add one hookwise entry per event, keeping every other key, group and hook as
 * it was. An event that already runs hookwise (either mode) is left alone, so
 * running init twice changes nothing, except that an `npx hookwise claude-code`
 * entry (flags kept) runs the installed hookwise once the project installs it.
 */
export function mergeClaudeSettings(existing: Record<string, unknown>, mode: ClaudeMode, installed = false): MergeResult {
  const hooks = asObject(existing.hooks, 'hooks');
  const added: string[] = [];
  const upgraded: string[] = [];
  const merged: Record<string, unknown> = { ...hooks };
  for (const event of CLAUDE_EVENTS) {
    const groups = merged[event] === undefined ? [] : asArray(merged[event], `hooks.${event}`);
    if (groups.some(runsHookwise)) {
      if (!installed) continue;
      const direct = groups.map(runningInstalled);
      if (direct.some((g, i) => g !== groups[i])) {
        merged[event] = direct;
        upgraded.push(event);
      }
      continue;
    }
    merged[event] = [...groups, { hooks: [hookEntry(mode, installed)] }];
    added.push(event);
  }
  return { settings: { ...existing, hooks: merged }, added, upgraded };
}

const RUNS_HOOKWISE = /\bhookwise(\.js")?\s+claude-code\b/;

function runsHookwise(group: unknown): boolean {
  const hooks = (group as { hooks?: unknown })?.hooks;
  if (!Array.isArray(hooks)) return false;
  return hooks.some((h: { command?: unknown; url?: unknown }) => {
    return (typeof h?.command === 'string' && RUNS_HOOKWISE.test(h.command)) || h?.url === SERVE_URL;
  });
}

/** The group with its `npx hookwise claude-code` commands running the installed hookwise; the same group when it has none. */
function runningInstalled(group: unknown): unknown {
  const hooks = (group as { hooks?: unknown })?.hooks;
  if (!Array.isArray(hooks)) return group;
  const isNpx = (h: { command?: unknown }) =>
    typeof h?.command === 'string' && (h.command === NPX_COMMAND || h.command.startsWith(`${NPX_COMMAND} `));
  if (!hooks.some(isNpx)) return group;
  return {
    ...(group as object),
    hooks: hooks.map((h: { command?: string }) =>
      isNpx(h) ? { ...h, command: DIRECT_COMMAND + h.command!.slice(NPX_COMMAND.length) } : h,
    ),
  };
}

function asObject(value: unknown, where: string): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new Error(`${where}: expected an object of events, found ${Array.isArray(value) ? 'an array' : typeof value}`);
}

function asArray(value: unknown, where: string): unknown[] {
  if (Array.isArray(value)) return value;
  throw new Error(`${where}: expected an array of matcher groups, found ${typeof value}`);
}
