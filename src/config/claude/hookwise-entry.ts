/**
 * hookwise's own entries in Claude Code settings: the `hookwise claude-code` command
 * and the http entry to `hookwise serve` that `hookwise init claude-code` writes. They
 * are how Claude Code reaches hookwise, not hooks of the policy: when hookwise itself
 * reads the settings (`check`, `fire`, `serve`, ...) it must not load them, or every
 * event would run a second hookwise through its own entry.
 */

/** A command that runs hookwise as Claude Code's hook: `npx hookwise claude-code`, `node ".../hookwise.js" claude-code --fail-open`, ... */
export const RUNS_HOOKWISE = /\bhookwise(\.js"?)?\s+claude-code\b/;

/** The URL `hookwise init claude-code --serve` writes (docs/serve.md). */
export const SERVE_URL = 'http://127.0.0.1:8787/v1/claude-code';

/** Whether a settings handler entry is one of hookwise's own (either mode, any port). */
export function isHookwiseEntry(entry: unknown): boolean {
  const e = entry as { type?: unknown; command?: unknown; url?: unknown } | null;
  if (typeof e !== 'object' || e === null) return false;
  if (typeof e.command === 'string' && (e.type === undefined || e.type === 'command')) return RUNS_HOOKWISE.test(e.command);
  if (e.type === 'http' && typeof e.url === 'string') return servesClaudeCode(e.url);
  return false;
}

/** `hookwise serve`'s Claude Code route (src/serve/routes.ts): `/v1/claude-code`, with or without an event segment. */
function servesClaudeCode(url: string): boolean {
  try {
    const segments = new URL(url).pathname.split('/').filter((s) => s !== '');
    return segments[0]?.toLowerCase() === 'v1' && segments[1]?.toLowerCase() === 'claude-code' && segments.length <= 3;
  } catch {
    return false;
  }
}
