import { HookwiseError } from './errors.js';
/**
 * The lifecycle events hookwise knows, their aliases from the seed designs, and
 * what "block" can mean on each. Canonical names follow Claude Code.
 */

export interface EventInfo {
  /** Canonical name. */
  name: string;
  /** Whether a hook can stop the thing the event announces. */
  blockable: boolean;
  /** The input field a string matcher is tested against (`tool_name`, `source`, ...). */
  filterField?: string;
  /** Events whose outcome carries a permission decision: any block there is a `deny`. */
  permission?: boolean;
  /** Tool events: `modify(x)` replaces `tool_input` instead of patching the input. */
  tool?: boolean;
}

const table: Array<[string, Omit<EventInfo, 'name'>, string[]]> = [
  ['SessionStart', { blockable: true, filterField: 'source' }, ['WorkflowStarting', 'session_start', 'ExecutionStart']],
  ['SessionEnd', { blockable: false, filterField: 'reason' }, ['WorkflowCompleted', 'session_end']],
  ['UserPromptSubmit', { blockable: true }, ['user_prompt_submit']],
  ['PreModelCall', { blockable: true }, ['PreAgentPrompt', 'GenerateStart', 'generate_start']],
  ['PostModelCall', { blockable: false }, ['GenerateEnd', 'generate_end']],
  ['StepStart', { blockable: true, filterField: 'step_name' }, []],
  ['StepEnd', { blockable: false, filterField: 'step_name' }, ['StepCompleted']],
  ['PreToolUse', { blockable: true, filterField: 'tool_name', permission: true, tool: true }, ['PreToolCall', 'pre_tool_use']],
  ['PermissionRequest', { blockable: true, filterField: 'tool_name', permission: true, tool: true }, []],
  ['PostToolUse', { blockable: false, filterField: 'tool_name', tool: true }, ['PostToolCall', 'post_tool_use']],
  ['PostToolUseFailure', { blockable: false, filterField: 'tool_name', tool: true }, ['PostToolCallFailure', 'post_tool_use_failure']],
  ['PostToolBatch', { blockable: true }, []],
  ['Stop', { blockable: true }, []],
  ['StopFailure', { blockable: false, filterField: 'error' }, ['AgentFailed']],
  ['SubagentStart', { blockable: true, filterField: 'agent_type' }, ['SubWorkflowStarting', 'subagent_start']],
  ['SubagentStop', { blockable: true, filterField: 'agent_type' }, ['SubWorkflowCompleted', 'subagent_stop']],
  ['PreCompact', { blockable: true, filterField: 'trigger' }, ['pre_compact']],
  ['PostCompact', { blockable: false, filterField: 'trigger' }, ['post_compact']],
  ['Checkpoint', { blockable: false }, []],
  ['Notification', { blockable: false, filterField: 'notification_type' }, ['notification']],
  // Claude Code's other events, with its own blockability.
  ['Setup', { blockable: false, filterField: 'trigger' }, []],
  ['InstructionsLoaded', { blockable: false, filterField: 'load_reason' }, []],
  ['PermissionDenied', { blockable: false, filterField: 'tool_name', tool: true }, []],
  ['TaskCreated', { blockable: true }, []],
  ['TaskCompleted', { blockable: true }, []],
  ['TeammateIdle', { blockable: true }, []],
  ['ConfigChange', { blockable: true, filterField: 'source' }, []],
  ['CwdChanged', { blockable: false }, []],
  // Claude Code sends file_path and matches the matcher against its base name.
  ['FileChanged', { blockable: false, filterField: 'file_path' }, []],
  ['WorktreeCreate', { blockable: true }, []],
  ['WorktreeRemove', { blockable: false }, []],
  ['Elicitation', { blockable: true, filterField: 'mcp_server_name' }, []],
  ['ElicitationResult', { blockable: true, filterField: 'mcp_server_name' }, []],
  ['PreModelSwitch', { blockable: true, filterField: 'to_model', permission: true }, []],
];

const byName = new Map<string, EventInfo>();
const aliasToCanonical = new Map<string, string>();

// claude-agent-rs writes the events of its settings file in camelCase (`preToolUse`).
const CAMEL_CASE_SEED = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'SessionStart',
  'SessionEnd',
];

for (const [name, info, aliases] of table) {
  byName.set(name, { name, ...info });
  aliasToCanonical.set(name, name);
  for (const alias of aliases) aliasToCanonical.set(alias, name);
}
for (const name of CAMEL_CASE_SEED) aliasToCanonical.set(name[0]!.toLowerCase() + name.slice(1), name);

/** The canonical event names, in lifecycle order. */
export const EVENTS: readonly string[] = table.map(([name]) => name);

/** The events of docs/model.md ("Events") that the hookwise runtime fires. */
export const CORE_EVENTS: readonly string[] = EVENTS.slice(0, 20);

/**
 * The canonical name of an event. Aliases from the seeds map to Claude Code's
 * names; a name hookwise does not know is kept as it is (custom events are allowed).
 */
export function canonicalEvent(name: string): string {
  return aliasToCanonical.get(name) ?? name;
}

/** Every name of an event: the canonical one first, then its aliases. */
export function namesOf(event: string): string[] {
  const canonical = canonicalEvent(event);
  return [canonical, ...[...aliasToCanonical].filter(([alias, name]) => name === canonical && alias !== canonical).map(([alias]) => alias)];
}

/** Whether hookwise knows the name, canonical or alias. */
export function isKnownEvent(name: string): boolean {
  return aliasToCanonical.has(name);
}

const customEventInfo = (name: string): EventInfo => ({ name, blockable: true });

/** What hookwise knows of an event. Custom events are blockable and have no filter field. */
export function eventInfo(name: string): EventInfo {
  const canonical = canonicalEvent(name);
  return byName.get(canonical) ?? customEventInfo(canonical);
}

/** All names (canonical and aliases) that resolve to a known event. */
export function knownEventNames(): string[] {
  return [...aliasToCanonical.keys()];
}

/** An event name that is empty, not a string, or a near miss of a known name. */
export class EventNameError extends HookwiseError {
  override readonly code = 'EVENT_NAME';
  constructor(message: string) {
    super(message);
    this.name = 'EventNameError';
  }
}

/** `PreToolUse`, `pre_tool_use` and `pre-tool-use` all fold to `pretooluse`. */
const fold = (name: string) => name.toLowerCase().replace(/[\s_-]/g, '');
const folded = new Map<string, string>();
for (const [name] of table) folded.set(fold(name), name);
for (const [alias, name] of aliasToCanonical) if (!folded.has(fold(alias))) folded.set(fold(alias), name);

/** Edit distance with transpositions, stopping early past `limit`. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      row.push(d);
      if (d < best) best = d;
    }
    if (best > limit) return limit + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/** The known event a custom name is mistaken for, if any (see docs/model.md, "Event names"). */
export function nearMissOf(name: string): string | undefined {
  const f = fold(name);
  const exact = folded.get(f);
  if (exact) return exact;
  const limit = f.length >= 8 ? 2 : 1;
  let found: string | undefined;
  let best = limit + 1;
  for (const [known, canonical] of folded) {
    const d = distance(f, known, limit);
    if (d < best) {
      best = d;
      found = canonical;
    }
  }
  return found;
}

const CUSTOM_CACHE_LIMIT = 1024;
const acceptedCustom = new Set<string>();

/**
 * The canonical name of an event, or an EventNameError: empty names, names that are
 * not strings, and custom names that are a near miss of a known name (`pretooluse`,
 * `PreToolUs`) are mistakes, not new events.
 */
export function checkEvent(name: unknown): string {
  if (typeof name === 'string') {
    const known = aliasToCanonical.get(name);
    if (known !== undefined) return known;
    if (acceptedCustom.has(name)) return name;
  }
  if (typeof name !== 'string' || name.trim() === '') {
    throw new EventNameError(`event name must be a non-empty string, got ${JSON.stringify(name) ?? String(name)}`);
  }
  if (name === '*') throw new EventNameError('"*" means every event: it is valid in a hook\'s `events`, not as the name of one event');
  if (name !== name.trim())
    throw new EventNameError(`event name ${JSON.stringify(name)} has surrounding spaces; did you mean "${name.trim()}"?`);
  const meant = nearMissOf(name);
  if (meant !== undefined) {
    throw new EventNameError(
      `unknown event "${name}"; did you mean "${meant}"? (event names are case-sensitive; a custom event must not look like a known one)`,
    );
  }
  if (acceptedCustom.size >= CUSTOM_CACHE_LIMIT) acceptedCustom.clear();
  acceptedCustom.add(name);
  return name;
}
