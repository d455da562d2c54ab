import { ConfigError } from '../config/errors.js';
import { engineFor, loadConfig, type LoadedConfig } from '../config/load.js';
import type { HookEngine } from '../core/engine.js';
import { UserError } from './errors.js';

export interface ConfigFlags {
  config?: string[];
  cwd?: string;
}

/** Load the named (or discovered) sources; configuration errors become one-line UserErrors. */
export async function loadEngine(flags: ConfigFlags): Promise<{ engine: HookEngine; config: LoadedConfig }> {
  try {
    const config = await loadConfig({ files: flags.config, cwd: flags.cwd ?? process.cwd() });
    for (const warning of config.warnings) process.stderr.write(`hookwise: warning: ${warning}\n`);
    return { engine: engineFor(config), config };
  } catch (error) {
    if (error instanceof ConfigError) throw new UserError(error.message);
    throw error;
  }
}

export const collect = (value: string, previous: string[] = []) => [...previous, value];
