import type * as Url from 'node:url';
import { hooksOf, type HookwiseConfig } from './define.js';
import { ConfigError } from './errors.js';
import type { ConfigSource } from './source.js';

// From the loaded built-in, not `import ... from 'node:url'`: an ES-module facade costs
// start-up on every tool call (see module-cache.ts). getBuiltinModule is Node 20.16+.
const { pathToFileURL } = (process.getBuiltinModule?.('node:url') ?? (await import('node:url'))) as typeof Url;

const NATIVE = /\.(mjs|js|cjs)$/;

/** Bumped by a host that reloads configs (hookwise serve): Node caches a module by its URL. */
let generation = 0;

/**
 * Later loads import native config modules afresh instead of from Node's module cache.
 * Each generation stays in memory, so call it only when a file has changed.
 */
export function importConfigModulesAfresh(): void {
  generation++;
}

/**
 * Load a `hookwise.config.{ts,mts,mjs,js}`. JavaScript is imported natively;
 * TypeScript is transpiled once (jiti) and the result cached under
 * `.hookwise/cache/` beside the config, so later loads skip jiti entirely
 * (see module-cache.ts); `import ... from 'hookwise'` resolves as Node would
 * from the config's folder.
 */
export async function loadConfigModule(file: string): Promise<ConfigSource> {
  let exported: unknown;
  try {
    if (NATIVE.test(file)) {
      exported = await import(generation === 0 ? pathToFileURL(file).href : `${pathToFileURL(file).href}?hookwise-load=${generation}`);
    } else {
      const { importTypeScript } = await import('./module-cache.js');
      exported = await importTypeScript(file);
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
