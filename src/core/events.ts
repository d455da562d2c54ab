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

for (const [name, info, aliases] of table) {
  byName.set(name, { name, ...info });
  aliasToCanonical.set(name, name);
  for (const alias of aliases) aliasToCanonical.set(alias, name);
}

/** The canonical event names, in lifecycle order. */
export const EVENTS: readonly string[] = table.map(([name]) => name);

/** The events of SEMANTICS.md section 1 that the hookwise runtime fires. */
export const CORE_EVENTS: readonly string[] = EVENTS.slice(0, 20);

/**
 * The canonical name of an event. Aliases from the seeds map to Claude Code's
 * names; a name hookwise does not know is kept as it is (custom events are allowed).
 */
export function canonicalEvent(name: string): string {
  return aliasToCanonical.get(name) ?? name;
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
