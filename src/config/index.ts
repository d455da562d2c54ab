/**
 * `hookwise/config`: every configuration source hookwise reads, and the loader that merges them.
 */
export { defineConfig, hooksOf, type HookwiseConfig } from './define.js';
export { ConfigError } from './errors.js';
export type { ConfigSource, SourceKind, SettingsScope } from './source.js';
export { loadConfig, loadSource, engineFor, type LoadOptions, type LoadedConfig } from './load.js';
export { discoverSources, managedSettingsDir, managedSettingsFiles, findConfigModule, CONFIG_MODULE_NAMES } from './discover.js';
export { loadClaudeSettings, settingsScopeOf, type ClaudeSourceOptions } from './settings.js';
export { loadPluginHooks, pluginRootOf } from './plugin.js';
export { loadFrontmatterHooks } from './frontmatter.js';
export { loadConfigModule } from './module.js';
export { fromSdkHooks, type SdkHooks, type SdkHookMatcher, type SdkHookCallback, type SdkHookOutput, type SdkHooksOptions } from './sdk.js';
export {
  COMMAND_TIMEOUT_S,
  HTTP_TIMEOUT_S,
  PROMPT_TIMEOUT_S,
  USER_PROMPT_SUBMIT_TIMEOUT_S,
  SESSION_END_BUDGET_MS,
} from './claude/timeouts.js';
export { envFilePath } from './claude/build-spec.js';
export { mergeSources } from './policy.js';
