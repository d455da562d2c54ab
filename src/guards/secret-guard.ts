import type { HookInput } from '../core/input.js';
import { deny, modify, replaceOutput } from '../core/results.js';
import type { Hook } from '../core/hook.js';
import { assertStringArray, DEFAULT_GUARD_PRIORITY, type CommonGuardOptions } from './common.js';
import type { SecretPattern } from '../secrets/patterns.js';
import { createScanner, mapStrings, stringsOf, type SecretHit } from '../secrets/scan.js';
import { GuardOptionError } from './errors.js';

export interface SecretGuardOptions extends Omit<CommonGuardOptions, 'workspace' | 'interactive'> {
  /** In tool input: `block` (default) refuses the call; `redact` rewrites the input with placeholders. */
  mode?: 'block' | 'redact';
  /** Also redact secrets in tool output the model sees (PostToolUse). Default true. */
  redactOutput?: boolean;
  /** Only these tools (default: every tool). */
  tools?: string[];
  /** Extra formats. */
  patterns?: SecretPattern[];
  /** Values that look like secrets but are not (test fixtures). */
  ignore?: Array<string | RegExp>;
  workspace?: string;
  interactive?: boolean;
}

const WITHHELD = '[hookwise: output withheld: it could not be scanned for secrets]';

function describe(hits: SecretHit[]): string {
  const kinds = [...new Map(hits.map((h) => [h.id, `${h.label} (${h.hint})`])).values()];
  return kinds.length > 3 ? `${kinds.slice(0, 3).join(', ')} and ${kinds.length - 3} more` : kinds.join(', ');
}

/**
 * Finds secrets in tool input (blocks the call or rewrites it with
 * placeholders) and in tool output (replaces what the model sees).
 * Returns two hooks: `guard:secret` (PreToolUse) and `guard:secret:output` (PostToolUse).
 */
export function secretGuard(options: SecretGuardOptions = {}): Array<Hook<'PreToolUse'> | Hook<'PostToolUse'>> {
  const mode = options.mode ?? 'block';
  if (mode !== 'block' && mode !== 'redact')
    throw new GuardOptionError(`secretGuard: mode must be "block" or "redact", got ${JSON.stringify(options.mode)}`);
  assertStringArray(options.tools, 'tools', 'secretGuard');
  const scanner = createScanner(options.patterns, options.ignore);
  const tools = options.tools ? new Set(options.tools) : undefined;
  const matcher = tools ? (input: HookInput) => typeof input.tool_name === 'string' && tools.has(input.tool_name) : undefined;
  const name = options.name ?? 'guard:secret';
  const priority = options.priority ?? DEFAULT_GUARD_PRIORITY;
  const hooks: Array<Hook<'PreToolUse'> | Hook<'PostToolUse'>> = [
    {
      name,
      events: 'PreToolUse',
      ...(matcher ? { matcher } : {}),
      priority,
      onError: 'block',
      recheck: true,
      handler: (input: HookInput) => {
        const args = input.tool_input;
        if (args === undefined || args === null) return undefined;
        const hits = stringsOf(args).flatMap((s) => scanner.find(s));
        if (hits.length === 0) return undefined;
        const what = `\`${input.tool_name ?? 'tool'}\` input contains ${describe(hits)}`;
        if (mode === 'block')
          return deny(`${what}; secrets must not be passed to tools (use an environment variable the tool reads instead)`);
        const redacted = mapStrings(args, (s) => scanner.redact(s));
        // What redaction cannot reach (a key that collides after redaction, say) is refused, not passed on.
        if (stringsOf(redacted).some((s) => scanner.find(s).length > 0))
          return deny(`${what}; it could not be fully replaced, so the call is refused`);
        return modify(redacted as Record<string, unknown>, { reason: `${what}; replaced with a placeholder` });
      },
    },
  ];
  if (options.redactOutput !== false) {
    hooks.push({
      name: `${name}:output`,
      events: 'PostToolUse',
      ...(matcher ? { matcher } : {}),
      priority,
      onError: 'continue',
      handler: (input: HookInput) => {
        const output = input.tool_response;
        if (output === undefined) return undefined;
        const tool = `\`${input.tool_name ?? 'tool'}\``;
        let redacted: unknown;
        try {
          redacted = mapStrings(output, (s) => scanner.redact(s));
        } catch {
          redacted = undefined; // nested deeper than the stack: withheld below
        }
        if (redacted === output) return undefined;
        if (redacted === undefined || stringsOf(redacted).some((s) => scanner.find(s).length > 0)) {
          return replaceOutput(WITHHELD, { reason: `${tool} output could not be fully scanned or redacted; the model sees a placeholder` });
        }
        const hits = stringsOf(output).flatMap((s) => scanner.find(s));
        return replaceOutput(redacted, { reason: `${tool} output contained ${describe(hits)}; the model sees a redacted copy` });
      },
    });
  }
  return hooks;
}
