import type { HookSpec } from '../core/spec.js';

export type SourceKind = 'module' | 'claude-settings' | 'plugin' | 'frontmatter' | 'sdk';

/** Which Claude Code settings file a `claude-settings` source is. */
export type SettingsScope = 'user' | 'project' | 'local' | 'managed';

/** What one configuration file contributed. */
export interface ConfigSource {
  file: string;
  kind: SourceKind;
  /** Claude Code settings only. */
  scope?: SettingsScope;
  hooks: HookSpec[];
  /**
   * A config module's files: itself and every file of the project's it loads (relative
   * imports, JSON, packages linked into the project), real paths (policy-graph.ts).
   */
  files?: string[];
  /** Problems that did not stop the load (unknown events, skipped entries), each naming file and JSON path. */
  warnings: string[];
  /** Entries left out on purpose, not problems: hookwise's own entries in Claude Code settings (config/claude/hookwise-entry.ts). */
  skipped?: string[];
  parallel?: boolean;
  /** `disableAllHooks: true` in a Claude Code settings file. */
  disableAllHooks?: boolean;
  /** `allowManagedHooksOnly: true` in managed settings: only managed hooks (and hookwise's own) load. */
  allowManagedHooksOnly?: boolean;
  /** Claude Code settings' `allowedHttpHookUrls` (merged across sources by the loader). */
  allowedHttpHookUrls?: string[];
  /** Claude Code settings' `httpHookAllowedEnvVars` (merged across sources by the loader). */
  httpHookAllowedEnvVars?: string[];
  /** What this source's HTTP hooks obey; the loader fills it from every source's lists. */
  httpPolicy?: { allowedUrls?: string[]; allowedEnvVars?: string[] };
}
