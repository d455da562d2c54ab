import { pathToFileURL } from 'node:url';
import { hooksOf, type HookwiseConfig } from './define.js';
import { ConfigError } from './errors.js';
import type { ConfigSource } from './source.js';

const NATIVE = /\.(mjs|js|cjs)$/;

/**
 * Load a `hookwise.config.{ts,mts,mjs,js}`. JavaScript is imported natively;
 * TypeScript goes through jiti, which strips types in memory (no build step) and
 * resolves `import ... from 'hookwise'` the way Node would from the config's folder.
 */
export async function loadConfigModule(file: string): Promise<ConfigSource> {
  let exported: unknown;
  try {
    if (NATIVE.test(file)) {
      exported = await import(pathToFileURL(file).href);
    } else {
      const { createJiti } = await import('jiti');
      const jiti = createJiti(import.meta.url, { moduleCache: false, fsCache: false });
      exported = await jiti.import(file);
    }
  } catch (error) {
    throw new ConfigError(file, `could not load config module: ${firstLine(error)}`);
  }
  const config = ((exported as { default?: unknown }).default ?? exported) as HookwiseConfig;
  if (!config || typeof config !== 'object' || !Array.isArray((config as HookwiseConfig).hooks)) {
    throw new ConfigError(file, 'expected a default export of defineConfig({ hooks: [...] })', 'default.hooks');
  }
  const hooks = hooksOf(config).map((spec, i) => {
    if (!spec || typeof spec !== 'object') throw new ConfigError(file, 'expected a hook object', `hooks[${i}]`);
    return { ...spec, source: spec.source ?? `${file} hooks[${i}]` };
  });
  return { file, kind: 'module', hooks, warnings: [], parallel: config.parallel === true };
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!;
}
