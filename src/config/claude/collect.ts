import { compileMatcher } from '../../core/matchers.js';
import { parsePermissionRule } from '../../core/permission-rule.js';
import { MatcherError } from '../../core/regex.js';
import { ConfigError } from '../errors.js';
import { joinPath } from '../json-path.js';
import { formatIssue } from '../zod-issues.js';
import { KNOWN_ENTRY_FIELDS, schemaForType, type HandlerEntry } from './entry-schema.js';
import { nearMissOf } from '../../compat/event-aliases.js';
import { eventFromKey } from './event-key.js';
import { isHookwiseEntry } from './hookwise-entry.js';

/** One handler entry found in a `hooks` block, validated, with where it sits. */
export interface CollectedEntry {
  event: string;
  /** JSON path of the handler entry, e.g. `hooks.PreToolUse[0].hooks[1]`. */
  path: string;
  /** The group's matcher (or, in claude-agent-rs' forms, the entry's own). */
  matcher?: string;
  entry: HandlerEntry;
  /** claude-agent-rs' name-to-config map: the key names the hook. */
  name?: string;
  /** Written in one of claude-agent-rs' forms (string, array of strings, name map). */
  variant: boolean;
}

export interface Collected {
  entries: CollectedEntry[];
  warnings: string[];
  /** hookwise's own entries (./hookwise-entry.ts), not loaded: `<file>: <JSON path>: hookwise's own entry: skipped`. */
  skipped: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Walk a `hooks` block: `{ Event: [ { matcher, hooks: [entry...] } ] }` and claude-agent-rs'
 * variants. A bad entry is a warning naming its JSON path and is skipped; a bad
 * matcher or `if` rule is a ConfigError (it must never silently match all or nothing).
 */
export function collectHooks(hooks: unknown, file: string, base: string): Collected {
  const out: Collected = { entries: [], warnings: [], skipped: [] };
  if (!isObject(hooks)) {
    throw new ConfigError(file, 'expected an object mapping event names to hook groups', base || undefined);
  }
  for (const [key, value] of Object.entries(hooks)) {
    const { event, known } = eventFromKey(key);
    const eventPath = joinPath(base, key);
    if (!known) {
      const hint = nearMissOf(key);
      out.warnings.push(
        `${file}: ${eventPath}: unknown event "${key}"${hint ? ` (did you mean "${hint}"?)` : ''}; registered anyway, hosts may fire custom events`,
      );
    }
    const walker = new EventWalker(file, event, out);
    if (typeof value === 'string') walker.variant(value, eventPath);
    else if (Array.isArray(value)) value.forEach((item, i) => walker.item(item, joinPath(eventPath, i)));
    else if (isObject(value)) for (const [name, item] of Object.entries(value)) walker.variant(item, joinPath(eventPath, name), name);
    else out.warnings.push(`${file}: ${eventPath}: expected an array of hook groups, a command string or a name-to-hook map (skipped)`);
  }
  return out;
}

class EventWalker {
  constructor(
    private readonly file: string,
    private readonly event: string,
    private readonly out: Collected,
  ) {}

  /** An element of an event's array: a group, or (claude-agent-rs) a command string or a bare entry. */
  item(item: unknown, path: string): void {
    if (isObject(item) && 'hooks' in item) this.group(item, path);
    else this.variant(item, path);
  }

  private group(group: Record<string, unknown>, path: string): void {
    const matcher = this.checkMatcher(group.matcher, joinPath(path, 'matcher'));
    if (!Array.isArray(group.hooks)) {
      this.warn(`${joinPath(path, 'hooks')}: expected array (group ${path} skipped)`);
      return;
    }
    group.hooks.forEach((entry, j) => {
      const entryPath = joinPath(path, 'hooks', j);
      const parsed = this.entry(typeof entry === 'string' ? { type: 'command', command: entry } : entry, entryPath);
      if (parsed && !this.ownEntry(parsed, entryPath))
        this.out.entries.push({ event: this.event, path: entryPath, matcher, entry: parsed, variant: false });
    });
  }

  /** claude-agent-rs' forms: a command string, or an entry object carrying its own matcher. */
  variant(item: unknown, path: string, name?: string): void {
    const parsed = this.entry(typeof item === 'string' ? { type: 'command', command: item } : item, path);
    if (!parsed || this.ownEntry(parsed, path)) return;
    const matcher = this.checkMatcher(parsed.matcher, joinPath(path, 'matcher'));
    const collected: CollectedEntry = { event: this.event, path, matcher, entry: parsed, variant: true };
    if (name !== undefined) collected.name = name;
    this.out.entries.push(collected);
  }

  private entry(value: unknown, path: string): HandlerEntry | undefined {
    if (!isObject(value)) {
      this.warn(`${path}: expected a hook object or a command string (entry ${path} skipped)`);
      return undefined;
    }
    const type = value.type ?? 'command';
    if (typeof type !== 'string' || !(type in schemaForType)) {
      this.warn(`${joinPath(path, 'type')}: expected "command", "http", "prompt", "agent" or "mcp_tool" (entry ${path} skipped)`);
      return undefined;
    }
    const result = schemaForType[type as keyof typeof schemaForType].safeParse(value);
    if (!result.success) {
      const problems = result.error.issues.map((issue) => formatIssue(issue, path)).join('; ');
      this.warn(`${problems} (entry ${path} skipped)`);
      return undefined;
    }
    for (const key of Object.keys(value)) {
      if (!KNOWN_ENTRY_FIELDS.has(key)) this.warn(`${joinPath(path, key)}: unknown field, ignored`);
    }
    if (result.data.if !== undefined) this.checkIf(result.data.if, joinPath(path, 'if'));
    return result.data as HandlerEntry;
  }

  private checkMatcher(matcher: unknown, path: string): string | undefined {
    if (matcher === undefined) return undefined;
    if (typeof matcher !== 'string') throw new ConfigError(this.file, 'expected string', path);
    try {
      compileMatcher(matcher, this.event);
    } catch (error) {
      if (error instanceof MatcherError) throw new ConfigError(this.file, error.message, path);
      throw error;
    }
    return matcher;
  }

  private checkIf(rule: string, path: string): void {
    try {
      parsePermissionRule(rule);
    } catch (error) {
      if (error instanceof MatcherError) throw new ConfigError(this.file, error.message, path);
      throw error;
    }
  }

  /** hookwise's own entry is how Claude Code reaches hookwise: noted, never loaded as a hook. */
  private ownEntry(entry: HandlerEntry, path: string): boolean {
    if (!isHookwiseEntry(entry)) return false;
    this.out.skipped.push(`${this.file}: ${path}: hookwise's own entry: skipped`);
    return true;
  }

  private warn(message: string): void {
    this.out.warnings.push(`${this.file}: ${message}`);
  }
}
