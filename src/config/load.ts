import { asHook } from '../core/hook.js';
import type * as Fs from 'node:fs';
import path from 'node:path';
import { HookEngine } from '../compat/engine.js';
import type { HookSpec, PolicyFile } from '../core/spec.js';
import { discoverSources } from './discover.js';
import { ConfigError } from './errors.js';
import { loadConfigModule } from './module.js';
import { shadowsOf } from './policy-graph.js';
import type { ConfigSource } from './source.js';

// Not `import ... from 'node:fs'`: its ES-module facade evaluates every export,
// streams included (~3 ms of `hookwise claude-code` start-up). getBuiltinModule is Node 20.16+.
const { existsSync, promises: fsPromises } = (process.getBuiltinModule?.('node:fs') ?? (await import('node:fs'))) as typeof Fs;

export { discoverSources };

export interface LoadOptions {
  /** Files named on the command line (`--config`); when given, only these are loaded. */
  files?: string[];
  /** Where to look for configuration when no file is named; the project for CLAUDE_PROJECT_DIR. */
  cwd?: string;
}

export interface LoadedConfig {
  sources: ConfigSource[];
  hooks: HookSpec[];
  warnings: string[];
  parallel: boolean;
  /**
   * Every file the policy was loaded from: each source, and every file of the project's
   * a config module loads (policy-graph.ts). The guards and the OS sandbox keep the
   * agent from writing them (docs/security.md#the-policy-and-what-it-loads).
   */
  policyFiles: PolicyFile[];
}

const MODULE = /\.(ts|mts|cts|mjs|js|cjs)$/;
const MARKDOWN = /\.(md|markdown)$/i;

/**
 * Load one file, choosing the loader from its name and content: config modules by
 * extension, markdown by frontmatter, JSON as a plugin's hooks when it sits at
 * `hooks/hooks.json` or has event names at its top level, else as Claude Code settings.
 */
export async function loadSource(file: string, options: { cwd?: string } = {}): Promise<ConfigSource> {
  const abs = path.resolve(file);
  if (!existsSync(abs)) throw new ConfigError(abs, 'file not found');
  if (MODULE.test(abs)) return loadConfigModule(abs);
  if (MARKDOWN.test(abs)) return (await import('./frontmatter.js')).loadFrontmatterHooks(abs, options);
  if (abs.endsWith('.json')) {
    const { parseJson } = await import('./parse-json.js');
    const json = parseJson(abs, await fsPromises.readFile(abs, 'utf8'));
    if (await looksLikePlugin(abs, json)) return (await import('./plugin.js')).pluginHooksFromJson(abs, json, options);
    return (await import('./settings.js')).claudeSettingsFromJson(abs, json, options);
  }
  throw new ConfigError(
    abs,
    'unknown kind of configuration file; expected a Claude Code settings or plugin hooks .json, a skill/agent .md, or hookwise.config.{ts,mts,mjs,js}',
  );
}

async function looksLikePlugin(file: string, json: unknown): Promise<boolean> {
  if (path.basename(file) === 'hooks.json' && path.basename(path.dirname(file)) === 'hooks') return true;
  if (typeof json !== 'object' || json === null || Array.isArray(json) || 'hooks' in json) return false;
  const { eventFromKey } = await import('./claude/event-key.js');
  return Object.keys(json).some((key) => eventFromKey(key).known);
}

/** Load and merge every source: hooks from all of them (never overriding), warnings from all of them. */
export async function loadConfig(options: LoadOptions = {}): Promise<LoadedConfig> {
  const cwd = options.cwd ?? process.cwd();
  // A file named twice is loaded once: its hooks would otherwise run twice.
  const files = options.files?.length ? [...new Set(options.files.map((f) => path.resolve(cwd, f)))] : discoverSources(cwd);
  const sources: ConfigSource[] = [];
  for (const file of files) sources.push(await loadSource(file, { cwd }));
  const warnings = sources.flatMap((s) => s.warnings);
  let hooks = sources.flatMap((s) => s.hooks);
  if (sources.some((s) => s.kind !== 'module')) {
    const { mergeSources } = await import('./policy.js');
    const merged = mergeSources(sources);
    hooks = merged.hooks;
    warnings.push(...merged.notes);
  }
  return { sources, hooks, warnings, parallel: sources.some((s) => s.parallel === true), policyFiles: policyFilesOf(sources) };
}

/**
 * Each source's files, each named with the source that loads it (the first, when two
 * load the same file), then the paths that must stay absent beside them (shadowsOf).
 */
function policyFilesOf(sources: ConfigSource[]): PolicyFile[] {
  const byPath = new Map<string, PolicyFile>();
  for (const source of sources)
    for (const file of source.files ?? [source.file]) if (!byPath.has(file)) byPath.set(file, { path: file, policy: source.file });
  const loaded = [...byPath.values()];
  for (const file of loaded)
    for (const shadow of shadowsOf(file.path))
      if (!byPath.has(shadow) && !existsSync(shadow)) byPath.set(shadow, { path: shadow, policy: file.policy, insteadOf: file.path });
  return [...byPath.values()];
}

/** An engine with every loaded hook registered; a bad hook is a ConfigError naming its source. */
export function engineFor(config: Omit<LoadedConfig, 'policyFiles'> & Partial<Pick<LoadedConfig, 'policyFiles'>>): HookEngine {
  // A config's engine is one the CLI, a server or a resident runs: people read its outcomes, durations included.
  const engine = new HookEngine({ parallel: config.parallel, timing: true, policyFiles: config.policyFiles });
  for (const spec of config.hooks) {
    try {
      engine.register(asHook(spec));
    } catch (error) {
      const source = spec.source ?? 'config';
      throw new ConfigError(source.split(' ')[0]!, (error as Error).message);
    }
  }
  return engine;
}
