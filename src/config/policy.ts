import type { HookSpec } from '../core/spec.js';
import { identityOf } from './claude/identity.js';
import type { ConfigSource } from './source.js';

const CLAUDE_KINDS = new Set(['claude-settings', 'plugin', 'frontmatter']);
const isClaudeStyle = (s: ConfigSource) => CLAUDE_KINDS.has(s.kind);

/**
 * Merge the hooks of every source, applying Claude Code's switches:
 * - `disableAllHooks: true` in user, project or local settings: no hook from Claude
 *   Code settings, plugins or skills loads, except managed settings' hooks;
 * - `disableAllHooks: true` in managed settings: managed hooks go too;
 * - `allowManagedHooksOnly: true` in managed settings: only managed hooks load.
 * hookwise config modules and SDK hooks are never affected: they are named explicitly.
 * Identical handlers from several settings files run once (the first is kept).
 */
export function mergeSources(sources: ConfigSource[]): { hooks: HookSpec[]; notes: string[] } {
  const notes: string[] = [];
  const managedDisable = sources.find((s) => s.scope === 'managed' && s.disableAllHooks);
  const userDisable = sources.find((s) => s.kind === 'claude-settings' && s.scope !== 'managed' && s.disableAllHooks);
  const managedOnly = sources.find((s) => s.allowManagedHooksOnly);
  const kept: HookSpec[] = [];
  let dropped = 0;
  for (const source of sources) {
    const off =
      isClaudeStyle(source) &&
      (managedDisable !== undefined || (source.scope !== 'managed' && (userDisable !== undefined || managedOnly !== undefined)));
    if (off) dropped += source.hooks.length;
    else kept.push(...source.hooks);
  }
  const switchedBy = managedDisable ?? userDisable ?? managedOnly;
  if (switchedBy) {
    const flag = switchedBy === managedOnly && !managedDisable && !userDisable ? 'allowManagedHooksOnly' : 'disableAllHooks';
    const spared = managedDisable ? 'hookwise config modules' : 'managed settings and hookwise config modules';
    notes.push(`${switchedBy.file}: ${flag} is true: ${dropped} hook${dropped === 1 ? '' : 's'} from Claude Code settings, plugins and skills not loaded (${spared} still are)`);
  }
  return { hooks: uniqueNames(dedupe(kept, sources)), notes };
}

/** Identical handlers from settings files: keep the first. */
function dedupe(hooks: HookSpec[], sources: ConfigSource[]): HookSpec[] {
  const fromSettings = new Set(sources.filter((s) => s.kind === 'claude-settings').flatMap((s) => s.hooks));
  const seen = new Set<string>();
  return hooks.filter((spec) => {
    const key = fromSettings.has(spec) ? identityOf(spec) : undefined;
    if (key === undefined) return true;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Names from configuration files must not replace one another in the engine: number the repeats. */
function uniqueNames(hooks: HookSpec[]): HookSpec[] {
  const counts = new Map<string, number>();
  return hooks.map((spec) => {
    if (identityOf(spec) === undefined) return spec;
    const n = (counts.get(spec.name) ?? 0) + 1;
    counts.set(spec.name, n);
    return n === 1 ? spec : { ...spec, name: `${spec.name}#${n}` };
  });
}
