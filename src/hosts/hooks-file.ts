import { WiringRefused } from './errors.js';
/**
 * The hooks file every Claude-shaped agent reads, merged: one hookwise group per event
 * added, every other key, group and hook kept as it was, nothing added twice. Codex and
 * Copilot wrap the events in `hooks`; droid reads them at the top level (a `hooks`
 * wrapper there is silently ignored, so its file must not have one).
 */
export const AGENT_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'] as const;

export interface HooksFileShape {
  /** Events under a top-level `hooks` object (Codex, Copilot), or at the top level (droid). */
  wrapped: boolean;
  /** The hook command for one of the agent's events (src/hosts/entry-command.ts). */
  command: (event: string) => string;
  /** Seconds the agent waits; hookwise answers well within it (src/hosts/<agent>). */
  timeoutSeconds: number;
  /** Recognises a hookwise entry already there. */
  runsHookwise: RegExp;
  /** The agent's own event names, when they are not Claude Code's (Gemini's `BeforeTool`…). */
  events?: readonly string[];
  /** The hook timeout in milliseconds, written instead of timeoutSeconds for an agent that reads ms (Gemini). */
  timeoutMs?: number;
  /** The agent reads comments in this file (Gemini's settings), so init does too (and keeps the commented file as .bak). */
  jsonc?: boolean;
}

export interface HooksMerge {
  file: Record<string, unknown>;
  added: string[];
  /** Events whose hookwise entry now runs the current command (an earlier release's, or another timeout, was there). */
  updated: string[];
}

export function mergeHooksFile(existing: Record<string, unknown>, shape: HooksFileShape): HooksMerge {
  const events = shape.wrapped ? asObject(existing.hooks, 'hooks') : existing;
  if (!shape.wrapped && existing.hooks !== undefined)
    throw new WiringRefused('has a top-level "hooks" key, which this agent ignores: move its events to the top level');
  const merged: Record<string, unknown> = { ...events };
  const added: string[] = [];
  const updated: string[] = [];
  const timeout = shape.timeoutMs ?? shape.timeoutSeconds;
  for (const event of shape.events ?? AGENT_EVENTS) {
    const command = shape.command(event);
    const entry = { type: 'command', command, timeout };
    const where = shape.wrapped ? `hooks.${event}` : event;
    const groups = merged[event] === undefined ? [] : asArray(merged[event], where);
    const at = groups.findIndex((g) => hookwiseHooks(g, shape.runsHookwise).length > 0);
    if (at < 0) {
      merged[event] = [...groups, { matcher: '*', hooks: [entry] }];
      added.push(event);
      continue;
    }
    const group = groups[at] as { hooks: Record<string, unknown>[] };
    const current = hookwiseHooks(group, shape.runsHookwise)[0]!;
    if (current.command === command && current.timeout === timeout) continue;
    const hooks = group.hooks.map((h) => (h === current ? { ...h, command, timeout } : h));
    merged[event] = groups.map((g, i) => (i === at ? { ...group, hooks } : g));
    updated.push(event);
  }
  const file = shape.wrapped ? { ...existing, hooks: merged } : merged;
  return { file, added, updated };
}

function hookwiseHooks(group: unknown, runs: RegExp): Record<string, unknown>[] {
  const hooks = (group as { hooks?: unknown })?.hooks;
  if (!Array.isArray(hooks)) return [];
  return hooks.filter((h) => typeof h?.command === 'string' && runs.test(h.command));
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
