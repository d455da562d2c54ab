import type { HookSpec } from '../core/spec.js';

export type SourceKind = 'module' | 'claude-settings' | 'plugin' | 'frontmatter' | 'sdk';

/** What one configuration file contributed. */
export interface ConfigSource {
  file: string;
  kind: SourceKind;
  hooks: HookSpec[];
  /** Problems that did not stop the load (unknown events, skipped entries), each naming file and JSON path. */
  warnings: string[];
  parallel?: boolean;
  /** `disableAllHooks: true` in a Claude Code settings file. */
  disableAllHooks?: boolean;
}
