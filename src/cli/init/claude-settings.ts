/**
 * The entries `hookwise init claude-code` adds to `.claude/settings.json`, and the
 * merge that adds them without losing anything already there.
 */
export type ClaudeMode = 'command' | 'serve';

/** The events hookwise answers for Claude Code: the guards judge before, redact after, and hold Stop. */
export const CLAUDE_EVENTS = ['PreToolUse', 'PermissionRequest', 'PostToolUse', 'UserPromptSubmit', 'Stop'] as const;

export const SERVE_URL = 'http://127.0.0.1:8787/v1/claude-code';

export function hookEntry(mode: ClaudeMode): Record<string, unknown> {
  if (mode === 'command') return { type: 'command', command: 'npx hookwise claude-code' };
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
}

/**
 * Add one hookwise entry per event, keeping every other key, group and hook as
 * it was. An event that already runs hookwise (either mode) is left alone, so
 * running init twice changes nothing.
 */
export function mergeClaudeSettings(existing: Record<string, unknown>, mode: ClaudeMode): MergeResult {
  const hooks = asObject(existing.hooks, 'hooks');
  const added: string[] = [];
  const merged: Record<string, unknown> = { ...hooks };
  for (const event of CLAUDE_EVENTS) {
    const groups = merged[event] === undefined ? [] : asArray(merged[event], `hooks.${event}`);
    if (groups.some(runsHookwise)) continue;
    merged[event] = [...groups, { hooks: [hookEntry(mode)] }];
    added.push(event);
  }
  return { settings: { ...existing, hooks: merged }, added };
}

function runsHookwise(group: unknown): boolean {
  const hooks = (group as { hooks?: unknown })?.hooks;
  if (!Array.isArray(hooks)) return false;
  return hooks.some((h: { command?: unknown; url?: unknown }) => {
    return (typeof h?.command === 'string' && /\bhookwise\s+claude-code\b/.test(h.command)) || h?.url === SERVE_URL;
  });
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
