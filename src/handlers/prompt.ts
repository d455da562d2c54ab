import { canonicalEvent } from '../compat/event-aliases.js';
import { stepNameOf, type HookInput } from '../core/input.js';
import { allow } from '../core/results.js';
import type { HookHandler } from '../core/spec.js';
import type { ChatMessage } from '../providers/types.js';
import { refuse } from './protocols/block-for.js';
import type { PromptHandlerOptions } from './types.js';
import { readVerdict } from './verdict-text.js';
import { HandlerOptionError } from './errors.js';
import { InvalidHookOutputError } from './protocols/claude-code.js';

const PLACEHOLDERS = /\{event\}|\{toolName\}|\{toolArgs\}|\{stepName\}|\$ARGUMENTS/g;

const HAS_PLACEHOLDER = new RegExp(PLACEHOLDERS.source);

const SYSTEM_PROMPT =
  'You judge one event in the lifecycle of an AI agent, for a hook that may let it go on or stop it. ' +
  'Answer with a single JSON object and nothing else: {"ok": true} to let it go on, or {"ok": false, "reason": "<why, one sentence>"} to stop it.';

/** Fill a prompt template; a template with no placeholder gets the input JSON appended. */
export function fillPrompt(template: string, input: HookInput, event: string): string {
  const values: Record<string, string> = {
    '{event}': event,
    '{toolName}': typeof input.tool_name === 'string' ? input.tool_name : '',
    '{toolArgs}': input.tool_input === undefined ? '' : JSON.stringify(input.tool_input),
    '{stepName}': stepNameOf(input),
    $ARGUMENTS: JSON.stringify(input),
  };
  if (!HAS_PLACEHOLDER.test(template)) return `${template}\n\nEvent input:\n${values.$ARGUMENTS}`;
  // One pass, so a value that contains a placeholder is not expanded again.
  return template.replace(PLACEHOLDERS, (token) => values[token]!);
}

function excerpt(text: string): string {
  const flat = text.trim().replace(/\s+/g, ' ');
  return flat.length > 200 ? `${flat.slice(0, 200)}...` : flat;
}

/**
 * A hook judged by a model: the template is filled from the input, the model
 * answers without tools, and its verdict is read from JSON or a leading
 * ALLOW/DENY word. No verdict is a failure.
 */
export function promptHandler(options: PromptHandlerOptions): HookHandler {
  if (typeof options?.prompt !== 'string' || options.prompt.trim() === '')
    throw new HandlerOptionError('prompt hook: `prompt` must be a non-empty string');
  if (!options.provider || typeof options.provider.complete !== 'function') {
    throw new HandlerOptionError(
      'prompt hook: `provider` must be a ModelProvider (see createProvider("openai:<model>") or createProvider("anthropic:<model>"))',
    );
  }
  const { provider } = options;

  return async (input, ctx) => {
    const event = canonicalEvent(typeof input.hook_event_name === 'string' ? input.hook_event_name : '');
    const messages: ChatMessage[] = [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: fillPrompt(options.prompt, input, event) },
    ];
    const response = await provider.complete({ messages, maxTokens: 512, signal: ctx.signal });
    ctx.annotate({ model: `${provider.name}:${provider.model}`, usage: response.usage });
    const verdict = readVerdict(response.text);
    if (!verdict) throw new InvalidHookOutputError(`prompt hook: no verdict in the model's answer: "${excerpt(response.text)}"`);
    if (verdict.allow) return allow(verdict.reason);
    return refuse(event, verdict.reason ?? `denied by prompt hook (${provider.name}:${provider.model})`);
  };
}
