import { canonicalEvent, isKnownEvent } from '../../compat/event-aliases.js';

/**
 * The event an event key of a settings file names. Claude Code writes PascalCase
 * (`PreToolUse`); claude-agent-rs also writes camelCase (`preToolUse`) and snake_case
 * (`pre_tool_use`). A name hookwise does not know is kept as written.
 */
export function eventFromKey(key: string): { event: string; known: boolean } {
  if (isKnownEvent(key)) return { event: canonicalEvent(key), known: true };
  const pascal = key.includes('_') ? key.split('_').filter(Boolean).map(capitalise).join('') : capitalise(key);
  if (isKnownEvent(pascal)) return { event: canonicalEvent(pascal), known: true };
  return { event: key, known: false };
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
