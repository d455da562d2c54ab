import { createHash } from 'node:crypto';

/**
 * Codex (0.150 and later) runs a hook of the user's `hooks.json` only once it is trusted:
 * `hooks.state."<key>".trusted_hash` in `$CODEX_HOME/config.toml` must equal the hook's
 * current hash, else Codex skips it without a word (`codex exec` has no way to ask).
 * `hookwise init codex` records that trust for hookwise's own entries, as Codex's `/hooks`
 * does when a person trusts them: the key and the hash are Codex's own, so Codex's
 * `hooks/list` (its app-server) reports them trusted (test/hosts/codex-trust.test.ts holds
 * the hashes Codex 0.169.0 computed for these entries).
 */
export interface HookTrust {
  /** `<hooks.json>:<event>:<group index>:<handler index>`, Codex's key for one handler. */
  key: string;
  /** `sha256:<hex>` of the handler's normalised identity. */
  hash: string;
}

/** Codex's label of each event hookwise wires (its key and its hash name the event so). */
const EVENT_LABELS: Readonly<Record<string, string>> = {
  SessionStart: 'session_start',
  UserPromptSubmit: 'user_prompt_submit',
  PreToolUse: 'pre_tool_use',
  PostToolUse: 'post_tool_use',
  Stop: 'stop',
};

/** Events whose groups' matcher Codex drops (they have nothing to match). */
const NO_MATCHER = new Set(['UserPromptSubmit', 'Stop']);

/** Codex's default timeout of a command hook, in seconds. */
const DEFAULT_TIMEOUT_S = 600;

/**
 * The trust Codex needs for each hookwise handler in a `hooks.json` (its parsed content),
 * found by `runsHookwise`; `hooksFile` is the path as Codex names it in the key.
 */
export function hookwiseTrust(hooksFile: string, content: Record<string, unknown>, runsHookwise: RegExp): HookTrust[] {
  const events = (content.hooks ?? {}) as Record<string, unknown>;
  const trust: HookTrust[] = [];
  for (const [event, label] of Object.entries(EVENT_LABELS)) {
    const groups = Array.isArray(events[event]) ? (events[event] as unknown[]) : [];
    groups.forEach((group, groupIndex) => {
      const hooks = (group as { hooks?: unknown })?.hooks;
      if (!Array.isArray(hooks)) return;
      hooks.forEach((handler, handlerIndex) => {
        if (typeof handler?.command !== 'string' || !runsHookwise.test(handler.command)) return;
        trust.push({
          key: `${hooksFile}:${label}:${groupIndex}:${handlerIndex}`,
          hash: hookHash(event, (group as { matcher?: unknown }).matcher, handler),
        });
      });
    });
  }
  return trust;
}

/**
 * Codex's hash of one command handler: its event label and group, with that handler alone
 * and normalised (the timeout it will use, `async` said), fields it does not hold left out,
 * keys sorted, compact JSON, SHA-256.
 */
export function hookHash(event: string, matcher: unknown, handler: Record<string, unknown>): string {
  const label = EVENT_LABELS[event];
  // plain Error: init passes only the events it wires, each of which has a label (an unreachable invariant).
  if (!label) throw new Error(`Codex hook trust: no event label for ${event}`);
  const pattern = NO_MATCHER.has(event) || typeof matcher !== 'string' ? undefined : matcher;
  const timeout = typeof handler.timeout === 'number' ? Math.max(1, handler.timeout) : DEFAULT_TIMEOUT_S;
  const normalised = {
    type: 'command',
    command: handler.command,
    timeout,
    async: handler.async === true,
    ...(typeof handler.statusMessage === 'string' && { statusMessage: handler.statusMessage }),
  };
  const identity = { event_name: label, ...(pattern !== undefined && { matcher: pattern }), hooks: [normalised] };
  return `sha256:${createHash('sha256')
    .update(JSON.stringify(sorted(identity)))
    .digest('hex')}`;
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, sorted(v)]));
}
