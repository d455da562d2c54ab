import { EventNames, type EventInfo } from '../core/events.js';

export { EventNameError } from '../core/events.js';

/**
 * The names other hook designs give hookwise's events (the seeds of
 * ../shared/design/SEMANTICS.md, section 1, and docs/model.md "Event names"), read
 * at the edge: the engines a config builds, and the public `HookEngine`, are given
 * these names; the core knows only the canonical ones.
 *
 * Seeds: 000 WorkflowFramework, 001 UseHooks, 002 A3S HookEngine (snake_case),
 * 003 claude-agent-rs (snake_case and, in its settings file, camelCase).
 */
const ALIASES: ReadonlyArray<readonly [canonical: string, aliases: readonly string[]]> = [
  // 000 WorkflowStarting, 002/003 session_start, 001 ExecutionStart
  ['SessionStart', ['WorkflowStarting', 'session_start', 'ExecutionStart']],
  // 000 WorkflowCompleted, 002/003 session_end
  ['SessionEnd', ['WorkflowCompleted', 'session_end']],
  // 003
  ['UserPromptSubmit', ['user_prompt_submit']],
  // 000 PreAgentPrompt, 002 GenerateStart and generate_start
  ['PreModelCall', ['PreAgentPrompt', 'GenerateStart', 'generate_start']],
  // 002
  ['PostModelCall', ['GenerateEnd', 'generate_end']],
  // 000
  ['StepEnd', ['StepCompleted']],
  // 000 PreToolCall, 002/003 pre_tool_use
  ['PreToolUse', ['PreToolCall', 'pre_tool_use']],
  ['PostToolUse', ['PostToolCall', 'post_tool_use']],
  ['PostToolUseFailure', ['PostToolCallFailure', 'post_tool_use_failure']],
  // 001
  ['StopFailure', ['AgentFailed']],
  // 000 SubWorkflowStarting/Completed, 003 subagent_start/stop
  ['SubagentStart', ['SubWorkflowStarting', 'subagent_start']],
  ['SubagentStop', ['SubWorkflowCompleted', 'subagent_stop']],
  // 003
  ['PreCompact', ['pre_compact']],
  ['PostCompact', ['post_compact']],
  ['Notification', ['notification']],
];

/** claude-agent-rs (003) writes the events of its settings file in camelCase (`preToolUse`). */
const CAMEL_CASE = [
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

/** Every `[alias, canonical]` pair, in the order docs/model.md lists them. */
export const EVENT_ALIASES: ReadonlyArray<readonly [alias: string, canonical: string]> = [
  ...ALIASES.flatMap(([canonical, aliases]) => aliases.map((alias) => [alias, canonical] as const)),
  ...CAMEL_CASE.map((name) => [name[0]!.toLowerCase() + name.slice(1), name] as const),
];

/** hookwise's names and the seeds' aliases: what the public engine and every loaded config know. */
export const COMPAT_EVENT_NAMES = new EventNames(EVENT_ALIASES);

/** The canonical name of an event; aliases map to hookwise's names, unknown names are kept (custom events). */
export const canonicalEvent = (name: string): string => COMPAT_EVENT_NAMES.canonical(name);
/** Whether hookwise knows the name, canonical or alias. */
export const isKnownEvent = (name: string): boolean => COMPAT_EVENT_NAMES.isKnown(name);
/** What hookwise knows of an event, by any of its names. Custom events are blockable and have no filter field. */
export const eventInfo = (name: string): EventInfo => COMPAT_EVENT_NAMES.info(name);
/** All names (canonical and aliases) that resolve to a known event. */
export const knownEventNames = (): string[] => COMPAT_EVENT_NAMES.known();
/** The known event a custom name (or an alias's misspelling) is mistaken for, if any. */
export const nearMissOf = (name: string): string | undefined => COMPAT_EVENT_NAMES.nearMiss(name);
/** The canonical name of an event named by any of its names, or an EventNameError. */
export const checkEvent = (name: unknown): string => COMPAT_EVENT_NAMES.check(name);

declare module '../core/event-inputs.js' {
  /** The aliases above, for typed hooks (`defineHook({ events: 'PreToolCall', ... })`). */
  interface EventAliases {
    WorkflowStarting: 'SessionStart';
    session_start: 'SessionStart';
    ExecutionStart: 'SessionStart';
    WorkflowCompleted: 'SessionEnd';
    session_end: 'SessionEnd';
    user_prompt_submit: 'UserPromptSubmit';
    PreAgentPrompt: 'PreModelCall';
    GenerateStart: 'PreModelCall';
    generate_start: 'PreModelCall';
    GenerateEnd: 'PostModelCall';
    generate_end: 'PostModelCall';
    StepCompleted: 'StepEnd';
    PreToolCall: 'PreToolUse';
    pre_tool_use: 'PreToolUse';
    PostToolCall: 'PostToolUse';
    post_tool_use: 'PostToolUse';
    PostToolCallFailure: 'PostToolUseFailure';
    post_tool_use_failure: 'PostToolUseFailure';
    AgentFailed: 'StopFailure';
    SubWorkflowStarting: 'SubagentStart';
    subagent_start: 'SubagentStart';
    SubWorkflowCompleted: 'SubagentStop';
    subagent_stop: 'SubagentStop';
    pre_compact: 'PreCompact';
    post_compact: 'PostCompact';
    notification: 'Notification';
    preToolUse: 'PreToolUse';
    postToolUse: 'PostToolUse';
    postToolUseFailure: 'PostToolUseFailure';
    userPromptSubmit: 'UserPromptSubmit';
    subagentStart: 'SubagentStart';
    subagentStop: 'SubagentStop';
    preCompact: 'PreCompact';
    sessionStart: 'SessionStart';
    sessionEnd: 'SessionEnd';
  }
}
