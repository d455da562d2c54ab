import type { HandlerReturn } from '../core/spec.js';

/**
 * Reasons a hook process gives (its stderr on exit 2, `reason` fields in its JSON)
 * are shown to the model and the user: a hook that prints a megabyte must not
 * become a megabyte block reason. Longer reasons are cut and say so.
 */
export const MAX_REASON_CHARS = 4096;

const REASON_FIELDS = ['reason', 'stopReason', 'permissionDecisionReason'] as const;

/** Room for the marker, so that a reason cut once is not cut again. */
const MARK_ROOM = 64;

export function capText(text: string, limit = MAX_REASON_CHARS): string {
  if (text.length <= limit + MARK_ROOM) return text;
  return `${text.slice(0, limit)}... [cut: ${text.length - limit} more characters]`;
}

/** The same answer with every reason field (top level and hookSpecificOutput) cut to MAX_REASON_CHARS. */
export function capReasons(value: HandlerReturn): HandlerReturn {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const capped = capFields(value as Record<string, unknown>);
  const specific = (capped as { hookSpecificOutput?: unknown }).hookSpecificOutput;
  if (typeof specific === 'object' && specific !== null && !Array.isArray(specific)) {
    const cappedSpecific = capFields(specific as Record<string, unknown>);
    if (cappedSpecific !== specific) return { ...capped, hookSpecificOutput: cappedSpecific } as HandlerReturn;
  }
  return capped as HandlerReturn;
}

function capFields<T extends Record<string, unknown>>(object: T): T {
  let out = object;
  for (const field of REASON_FIELDS) {
    const text = object[field];
    if (typeof text === 'string' && text.length > MAX_REASON_CHARS + MARK_ROOM) {
      if (out === object) out = { ...object };
      (out as Record<string, unknown>)[field] = capText(text);
    }
  }
  return out;
}
