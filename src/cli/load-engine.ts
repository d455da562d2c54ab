import { ConfigError } from '../config/errors.js';
import type { LoadedConfig } from '../config/load.js';
import type { HookEngine } from '../core/engine.js';
import { UserError } from './errors.js';

export interface ConfigFlags {
  config?: string[];
  cwd?: string;
  /** The caller prints the warnings itself (`check` lists them on stdout). */
  quietWarnings?: boolean;
}

/** Load the named (or discovered) sources; configuration errors become one-line UserErrors. */
export async function loadEngine(flags: ConfigFlags): Promise<{ engine: HookEngine; config: LoadedConfig }> {
  // Loaded here, not at the top: every command imports this file, and `--version` or `--help` need no engine.
  const { engineFor, loadConfig } = await import('../config/load.js');
  try {
    const config = await loadConfig({ files: flags.config, cwd: flags.cwd ?? process.cwd() });
    if (!flags.quietWarnings) for (const warning of config.warnings) process.stderr.write(`hookwise: warning: ${warning}\n`);
    return { engine: engineFor(config), config };
  } catch (error) {
    if (error instanceof ConfigError) throw new UserError(error.message);
    throw error;
  }
}

export const collect = (value: string, previous: string[] = []) => [...previous, value];
