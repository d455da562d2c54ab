import { canonicalEvent, EVENTS, isKnownEvent } from '../../core/events.js';

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

/** The closest known event name, for "did you mean" in a warning. */
export function closestEvent(key: string): string | undefined {
  const lower = key.toLowerCase().replace(/_/g, '');
  let best: string | undefined;
  let bestDistance = 3;
  for (const name of EVENTS) {
    const d = distance(lower, name.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  return best;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}
