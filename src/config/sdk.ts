import { compileMatcher } from '../core/matchers.js';
import type { HookInput } from '../core/input.js';
import { MatcherError } from '../core/regex.js';
import type { ClaudeCodeJsonOutput } from '../compat/claude-code.js';
import { asHook, type AnyHook } from '../core/hook.js';
import { readClaudeCodeJson } from '../handlers/protocols/claude-code.js';
import { DEFAULT_TIMEOUT_MS, type HookSpec, type OnError } from '../core/spec.js';
import { eventFromKey } from './claude/event-key.js';
import { ConfigError } from './errors.js';
import { joinPath } from './json-path.js';

/** A Claude Agent SDK hook callback: its return value is Claude Code's JSON output. */
export type SdkHookCallback = (
  input: HookInput,
  toolUseID: string | undefined,
  options: { signal: AbortSignal },
) => SdkHookOutput | Promise<SdkHookOutput>;

/** `{ async: true }` means "I carry on in the background": no opinion on this event. */
export type SdkHookOutput = ClaudeCodeJsonOutput | { async: true; asyncTimeout?: number } | undefined | void;

export interface SdkHookMatcher {
  matcher?: string;
  hooks: SdkHookCallback[];
  /** Seconds, as in the SDK. Default 60. */
  timeout?: number;
}

/** `{ PreToolUse: [{ matcher: 'Bash', hooks: [async (input, toolUseID, { signal }) => ({ ... })] }] }` */
export type SdkHooks = Record<string, SdkHookMatcher[] | undefined>;

export interface SdkHooksOptions {
  /** Hook names are `<prefix>:<Event>[i].hooks[j]`; default `sdk`. */
  namePrefix?: string;
  /** Default `continue`: as in the SDK, a callback that throws is a non-blocking error. */
  onError?: OnError;
  priority?: number;
}

/**
 * In-process hooks written for the Claude Agent SDK, as HookSpecs: register them
 * with `engine.register` or put them in `defineConfig({ hooks: [...fromSdkHooks(...)] })`.
 * A bad matcher throws a ConfigError naming `<Event>[i].matcher`.
 */
export function fromSdkHooks(hooks: SdkHooks, options: SdkHooksOptions = {}): AnyHook[] {
  const prefix = options.namePrefix ?? 'sdk';
  const where = `${prefix} hooks`;
  const specs: AnyHook[] = [];
  for (const [key, groups] of Object.entries(hooks)) {
    if (groups === undefined) continue;
    const { event } = eventFromKey(key);
    if (!Array.isArray(groups)) throw new ConfigError(where, 'expected an array of { matcher, hooks } groups', key);
    groups.forEach((group, i) => {
      const groupPath = joinPath(key, i);
      if (!group || !Array.isArray(group.hooks))
        throw new ConfigError(where, 'expected an array of callbacks', joinPath(groupPath, 'hooks'));
      if (group.matcher !== undefined) {
        try {
          compileMatcher(group.matcher, event);
        } catch (error) {
          if (error instanceof MatcherError) throw new ConfigError(where, error.message, joinPath(groupPath, 'matcher'));
          throw error;
        }
      }
      group.hooks.forEach((callback, j) => {
        const path = joinPath(groupPath, 'hooks', j);
        if (typeof callback !== 'function') throw new ConfigError(where, 'expected a function', path);
        const spec: HookSpec = {
          name: `${prefix}:${path}`,
          events: event,
          timeoutMs: group.timeout !== undefined ? group.timeout * 1000 : DEFAULT_TIMEOUT_MS,
          onError: options.onError ?? 'continue',
          source: `${where} ${path}`,
          handler: async (input, ctx) => {
            const output = await callback(input, typeof input.tool_use_id === 'string' ? input.tool_use_id : undefined, {
              signal: ctx.signal,
            });
            if (output === undefined || output === null) return undefined;
            // Claude Code's own reading: unknown fields dropped, a wrong hookEventName an error.
            return readClaudeCodeJson(output as Record<string, unknown>, event, input);
          },
        };
        if (group.matcher !== undefined && group.matcher.trim() !== '') spec.matcher = group.matcher;
        if (options.priority !== undefined) spec.priority = options.priority;
        specs.push(asHook(spec));
      });
    });
  }
  return specs;
}
