import { HookwiseError } from './errors.js';
/**
 * The lifecycle events hookwise knows, what "block" can mean on each, and the names an
 * engine knows them by (EventNames). The core knows only hookwise's own (canonical)
 * names; other designs' names for them are given to an engine by the layer that reads
 * those designs (src/compat, docs/model.md "Event names").
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
  /** One of the lifecycle events of docs/model.md ("Events") that hookwise's own runtime fires (CORE_EVENTS). */
  core?: boolean;
}

const table: Array<Omit<EventInfo, 'name'> & { name: string }> = [
  { name: 'SessionStart', core: true, blockable: true, filterField: 'source' },
  { name: 'SessionEnd', core: true, blockable: false, filterField: 'reason' },
  { name: 'UserPromptSubmit', core: true, blockable: true },
  { name: 'PreModelCall', core: true, blockable: true },
  { name: 'PostModelCall', core: true, blockable: false },
  { name: 'StepStart', core: true, blockable: true, filterField: 'step_name' },
  { name: 'StepEnd', core: true, blockable: false, filterField: 'step_name' },
  { name: 'PreToolUse', core: true, blockable: true, filterField: 'tool_name', permission: true, tool: true },
  { name: 'PermissionRequest', core: true, blockable: true, filterField: 'tool_name', permission: true, tool: true },
  { name: 'PostToolUse', core: true, blockable: false, filterField: 'tool_name', tool: true },
  { name: 'PostToolUseFailure', core: true, blockable: false, filterField: 'tool_name', tool: true },
  { name: 'PostToolBatch', core: true, blockable: true },
  { name: 'Stop', core: true, blockable: true },
  { name: 'StopFailure', core: true, blockable: false, filterField: 'error' },
  { name: 'SubagentStart', core: true, blockable: true, filterField: 'agent_type' },
  { name: 'SubagentStop', core: true, blockable: true, filterField: 'agent_type' },
  { name: 'PreCompact', core: true, blockable: true, filterField: 'trigger' },
  { name: 'PostCompact', core: true, blockable: false, filterField: 'trigger' },
  { name: 'Checkpoint', core: true, blockable: false },
  { name: 'Notification', core: true, blockable: false, filterField: 'notification_type' },
  // Events hosts fire that hookwise's runtime does not (docs/model.md, "Events": the other events).
  { name: 'Setup', blockable: false, filterField: 'trigger' },
  { name: 'InstructionsLoaded', blockable: false, filterField: 'load_reason' },
  { name: 'PermissionDenied', blockable: false, filterField: 'tool_name', tool: true },
  { name: 'TaskCreated', blockable: true },
  { name: 'TaskCompleted', blockable: true },
  { name: 'TeammateIdle', blockable: true },
  { name: 'ConfigChange', blockable: true, filterField: 'source' },
  { name: 'CwdChanged', blockable: false },
  // The input holds the changed file's path; string matchers see its base name (`.env`, not `/p/.env`).
  { name: 'FileChanged', blockable: false, filterField: 'file_path' },
  { name: 'WorktreeCreate', blockable: true },
  { name: 'WorktreeRemove', blockable: false },
  { name: 'Elicitation', blockable: true, filterField: 'mcp_server_name' },
  { name: 'ElicitationResult', blockable: true, filterField: 'mcp_server_name' },
  { name: 'PreModelSwitch', blockable: true, filterField: 'to_model', permission: true },
];

const byName = new Map<string, EventInfo>(table.map((info) => [info.name, { ...info }]));

/** The canonical event names, in lifecycle order. */
export const EVENTS: readonly string[] = table.map((info) => info.name);

/** The events of docs/model.md ("Events") that the hookwise runtime fires: those marked `core`. */
export const CORE_EVENTS: readonly string[] = table.filter((info) => info.core === true).map((info) => info.name);

const customEventInfo = (name: string): EventInfo => ({ name, blockable: true });

/** An event name that is empty, not a string, or a near miss of a known name. */
export class EventNameError extends HookwiseError {
  override readonly code = 'EVENT_NAME';
}

/** `PreToolUse`, `pre_tool_use` and `pre-tool-use` all fold to `pretooluse`. */
const fold = (name: string) => name.toLowerCase().replace(/[\s_-]/g, '');

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

const CUSTOM_CACHE_LIMIT = 1024;

/**
 * The names an engine knows events by: hookwise's canonical names, plus other names
 * for them (`[alias, canonical]`) when the engine was given some (EngineOptions.eventNames).
 * A name it does not know is a custom event, unless it looks like a known one.
 */
export class EventNames {
  private readonly toCanonical = new Map<string, string>();
  private readonly folded = new Map<string, string>();
  private readonly acceptedCustom = new Set<string>();

  constructor(aliases: Iterable<readonly [alias: string, canonical: string]> = []) {
    for (const name of EVENTS) this.toCanonical.set(name, name);
    for (const [alias, canonical] of aliases) {
      if (!byName.has(canonical)) throw new EventNameError(`event alias "${alias}" names "${canonical}", which is not a canonical event`);
      const taken = this.toCanonical.get(alias);
      if (taken !== undefined && taken !== canonical)
        throw new EventNameError(`event alias "${alias}" names "${canonical}", but it is already a name of "${taken}"`);
      this.toCanonical.set(alias, canonical);
    }
    for (const name of EVENTS) this.folded.set(fold(name), name);
    for (const [alias, name] of this.toCanonical) if (!this.folded.has(fold(alias))) this.folded.set(fold(alias), name);
  }

  /** The canonical name of an event; a name it does not know is kept as it is (custom events are allowed). */
  canonical(name: string): string {
    return this.toCanonical.get(name) ?? name;
  }

  /** Whether the name is known, canonical or alias. */
  isKnown(name: string): boolean {
    return this.toCanonical.has(name);
  }

  /** Every name of an event: the canonical one first, then its aliases. */
  namesOf(event: string): string[] {
    const canonical = this.canonical(event);
    const names = [canonical];
    for (const [alias, name] of this.toCanonical) if (name === canonical && alias !== canonical) names.push(alias);
    return names;
  }

  /** All names (canonical and aliases) that resolve to a known event. */
  known(): string[] {
    return [...this.toCanonical.keys()];
  }

  /** What is known of an event by any of its names. Custom events are blockable and have no filter field. */
  info(name: string): EventInfo {
    const canonical = this.canonical(name);
    return byName.get(canonical) ?? customEventInfo(canonical);
  }

  /** The known event a custom name is mistaken for, if any (see docs/model.md, "Event names"). */
  nearMiss(name: string): string | undefined {
    const f = fold(name);
    const exact = this.folded.get(f);
    if (exact) return exact;
    const limit = f.length >= 8 ? 2 : 1;
    let found: string | undefined;
    let best = limit + 1;
    for (const [known, canonical] of this.folded) {
      const d = distance(f, known, limit);
      if (d < best) {
        best = d;
        found = canonical;
      }
    }
    return found;
  }

  /**
   * The canonical name of an event, or an EventNameError: empty names, names that are
   * not strings, and custom names that are a near miss of a known name (`pretooluse`,
   * `PreToolUs`) are mistakes, not new events.
   */
  check(name: unknown): string {
    if (typeof name === 'string') {
      const known = this.toCanonical.get(name);
      if (known !== undefined) return known;
      if (this.acceptedCustom.has(name)) return name;
    }
    if (typeof name !== 'string' || name.trim() === '') {
      throw new EventNameError(`event name must be a non-empty string, got ${JSON.stringify(name) ?? String(name)}`);
    }
    if (name === '*') throw new EventNameError('"*" means every event: it is valid in a hook\'s `events`, not as the name of one event');
    if (name !== name.trim())
      throw new EventNameError(`event name ${JSON.stringify(name)} has surrounding spaces; did you mean "${name.trim()}"?`);
    const meant = this.nearMiss(name);
    if (meant !== undefined) {
      throw new EventNameError(
        `unknown event "${name}"; did you mean "${meant}"? (event names are case-sensitive; a custom event must not look like a known one)`,
      );
    }
    if (this.acceptedCustom.size >= CUSTOM_CACHE_LIMIT) this.acceptedCustom.clear();
    this.acceptedCustom.add(name);
    return name;
  }
}

/** hookwise's own names only: what an engine knows when it is given no others. */
export const CANONICAL_NAMES = new EventNames();

/**
 * What hookwise knows of an event by its own name. Custom events are blockable and have no
 * filter field. Names by alias, and the other lookups, are the compat layer's (src/compat/event-aliases.ts).
 */
export const eventInfo = (name: string): EventInfo => CANONICAL_NAMES.info(name);
