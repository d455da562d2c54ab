import { canonicalEvent } from '../../compat/event-aliases.js';
import type { HookInput } from '../../core/input.js';
import type { Outcome } from '../../core/outcome.js';
import { END_OF_TURN, type HostAnswer, jsonLine } from '../host.js';
import { preToolAnswer } from '../pre-tool-use.js';
import { OPENCODE_TOOLS } from './tools.js';

/**
 * What hookwise answers the OpenCode plugin, one JSON line tagged `"hookwise":"opencode"`
 * so that the plugin can tell it from anything else on stdout (anything else is a
 * failure there, answered as a refusal). The plugin does what each field says:
 */
export interface OpenCodeAnswer {
  hookwise: 'opencode';
  /** Refuse: the plugin throws this, and OpenCode hands it to the model as the tool's result (or refuses the prompt). */
  deny?: string;
  /** The tool's arguments rewritten, in OpenCode's own fields: the plugin replaces `output.args` in place. */
  args?: Record<string, unknown>;
  /** Context for the model: a synthetic part of the prompt, or (PreToolUse) a note after the tool's output. */
  context?: string;
  /** PostToolUse: the tool's output replaced. */
  output?: string;
  /** PostToolUse: said to the model after the tool's output (a block's reason, context). */
  append?: string;
  /** Stop: a hook asked the agent to go on; the plugin cannot, a run ends at idle (docs/agents.md). */
  keepGoing?: string;
}

const TAG = { hookwise: 'opencode' } as const;
const line = (fields: Omit<OpenCodeAnswer, 'hookwise'>): HostAnswer => ({ stdout: jsonLine({ ...TAG, ...fields }), code: 0 });

export function openCodeAnswer(o: Outcome, input: HookInput): HostAnswer {
  const context = o.additionalContext ?? undefined;
  switch (o.event) {
    case 'PreToolUse': {
      // OpenCode cannot ask a person from a plugin: `ask` is a refusal saying one is needed.
      const a = preToolAnswer(o, input, { askAllowed: false, agent: 'OpenCode', table: OPENCODE_TOOLS });
      if (a.kind === 'deny' || a.kind === 'ask') return line({ deny: a.reason, ...(a.context && { context: a.context }) });
      return line({ ...(a.kind === 'allow' && a.updatedInput && { args: a.updatedInput }), ...(a.context && { context: a.context }) });
    }
    case 'UserPromptSubmit':
      if (o.blocked || o.stop || o.decision === 'deny')
        return line({ deny: o.reason ?? o.stopReason ?? 'the prompt was refused by a hookwise hook' });
      return line(context ? { context } : {});
    case 'PostToolUse': {
      const notes = [o.blocked ? o.reason : null, context].filter((s): s is string => typeof s === 'string' && s !== '');
      const replaced = o.updatedOutput === undefined || o.updatedOutput === null ? undefined : textOf(o.updatedOutput);
      return line({ ...(replaced !== undefined && { output: replaced }), ...(notes.length > 0 && { append: notes.join('\n') }) });
    }
    case 'Stop':
      return line(o.blocked && !o.stop ? { keepGoing: o.reason ?? 'a hookwise hook asks the agent to go on' } : {});
    default:
      return line(context ? { context } : {});
  }
}

/**
 * hookwise's own failure. A tool call and a prompt are refused; after a tool the model is
 * told; at Stop the run ends (which is all OpenCode does at idle); elsewhere nothing is
 * held up. Exit 0 throughout: the plugin reads any other exit as a failure too.
 */
export function openCodeFailure(event: string | undefined, reason: string, failOpen: boolean): HostAnswer {
  const said = `hookwise failed closed: ${reason}`;
  if (failOpen) return { stderr: `hookwise: ${reason}`, code: 0 };
  // An alias names its event; an unknown name stays as it is.
  const name = event === undefined ? undefined : canonicalEvent(event);
  if (name === undefined || name === 'PreToolUse' || name === 'UserPromptSubmit') return { ...line({ deny: said }), stderr: said };
  if (name === 'PostToolUse') return { ...line({ append: said }), stderr: said };
  if (name !== undefined && END_OF_TURN.has(name)) return { ...line({}), stderr: said };
  return { stderr: `hookwise: ${reason}`, code: 0 };
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));
