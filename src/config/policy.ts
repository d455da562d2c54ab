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
    notes.push(
      `${switchedBy.file}: ${flag} is true: ${dropped} hook${dropped === 1 ? '' : 's'} from Claude Code settings, plugins and skills not loaded (${spared} still are)`,
    );
  }
  shareHttpPolicy(sources);
  // Duplicates are not dropped here: Claude Code removes them among the hooks matched at
  // each fire (HookSpec.dedupKey), so two groups whose matchers differ both keep their hook.
  return { hooks: uniqueNames(kept), notes };
}

/**
 * `allowedHttpHookUrls` and `httpHookAllowedEnvVars` merge across settings sources (a
 * union, as Claude Code merges them) and bind every Claude-style source's HTTP hooks.
 */
function shareHttpPolicy(sources: ConfigSource[]): void {
  const lists = (pick: (s: ConfigSource) => string[] | undefined): string[] | undefined => {
    const given = sources.map(pick).filter((l): l is string[] => l !== undefined);
    return given.length === 0 ? undefined : [...new Set(given.flat())];
  };
  const allowedUrls = lists((s) => s.allowedHttpHookUrls);
  const allowedEnvVars = lists((s) => s.httpHookAllowedEnvVars);
  for (const source of sources) {
    if (!source.httpPolicy) continue;
    if (allowedUrls !== undefined) source.httpPolicy.allowedUrls = allowedUrls;
    if (allowedEnvVars !== undefined) source.httpPolicy.allowedEnvVars = allowedEnvVars;
  }
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
