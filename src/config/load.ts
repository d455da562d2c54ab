import { existsSync } from 'node:fs';
import path from 'node:path';
import { HookEngine } from '../core/engine.js';
import type { HookSpec } from '../core/spec.js';
import { ConfigError } from './errors.js';
import { loadConfigModule } from './module.js';
import type { ConfigSource } from './source.js';

export const CONFIG_MODULE_NAMES = ['hookwise.config.ts', 'hookwise.config.mts', 'hookwise.config.mjs', 'hookwise.config.js'];

export interface LoadOptions {
  /** Files named on the command line (`--config`); when given, only these are loaded. */
  files?: string[];
  /** Where to look for configuration when no file is named. */
  cwd?: string;
}

export interface LoadedConfig {
  sources: ConfigSource[];
  hooks: HookSpec[];
  warnings: string[];
  parallel: boolean;
}

/** Load one file, choosing the loader from its name and content. */
export async function loadSource(file: string): Promise<ConfigSource> {
  const abs = path.resolve(file);
  if (!existsSync(abs)) throw new ConfigError(abs, 'file not found');
  if (/\.(ts|mts|cts|mjs|js|cjs)$/.test(abs)) return loadConfigModule(abs);
  throw new ConfigError(abs, 'unknown kind of configuration file; expected hookwise.config.{ts,mts,mjs,js}');
}

/** Files loaded when none is named: hookwise.config.* in the cwd. */
export function discoverSources(cwd: string): string[] {
  return CONFIG_MODULE_NAMES.map((name) => path.join(cwd, name)).filter((f) => existsSync(f)).slice(0, 1);
}

/** Load and merge every source: hooks from all of them, warnings from all of them. */
export async function loadConfig(options: LoadOptions = {}): Promise<LoadedConfig> {
  const cwd = options.cwd ?? process.cwd();
  const files = options.files?.length ? options.files.map((f) => path.resolve(cwd, f)) : discoverSources(cwd);
  const sources: ConfigSource[] = [];
  for (const file of files) sources.push(await loadSource(file));
  return {
    sources,
    hooks: sources.flatMap((s) => s.hooks),
    warnings: sources.flatMap((s) => s.warnings),
    parallel: sources.some((s) => s.parallel === true),
  };
}

/** An engine with every loaded hook registered; a bad hook is a ConfigError naming its source. */
export function engineFor(config: LoadedConfig): HookEngine {
  const engine = new HookEngine({ parallel: config.parallel });
  for (const spec of config.hooks) {
    try {
      engine.register(spec);
    } catch (error) {
      const source = spec.source ?? 'config';
      throw new ConfigError(source.split(' ')[0]!, (error as Error).message);
    }
  }
  return engine;
}
