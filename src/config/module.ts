import type { HookSpec } from '../core/spec.js';
import type * as Url from 'node:url';
import { positionedHooks, type HookwiseConfig } from './define.js';
import { ConfigError } from './errors.js';
import { loadWithGraph } from './policy-graph.js';
import { beforeNativeImport } from './witness.js';
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
 * from the config's folder, else (the project does not install hookwise: `npx
 * hookwise`) to the running hookwise.
 */
export async function loadConfigModule(file: string): Promise<ConfigSource> {
  let exported: unknown;
  let files: string[];
  try {
    ({ value: exported, files } = await loadWithGraph(file, () => importModule(file)));
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(file, `could not load config module: ${firstLine(error)}`);
  }
  // The default export only: a module that merely exports `hooks` by name is a mistake, not a config with those hooks.
  const config = (exported as { default?: unknown } | undefined)?.default as HookwiseConfig | undefined;
  if (!config || typeof config !== 'object' || !Array.isArray((config as HookwiseConfig).hooks)) {
    throw new ConfigError(file, 'expected a default export of defineConfig({ hooks: [...] })', 'default.hooks');
  }
  const warnings: string[] = [];
  const hooks = positionedHooks(config).map(({ spec, at }) => {
    if (!spec || typeof spec !== 'object') throw new ConfigError(file, 'expected a hook object', at);
    warnings.push(...unknownFields(spec, `${file} ${at}`));
    return { ...spec, source: spec.source ?? `${file} ${at}` };
  });
  return { file, kind: 'module', hooks, warnings, parallel: config.parallel === true, files };
}

async function importModule(file: string): Promise<unknown> {
  if (NATIVE.test(file)) {
    try {
      beforeNativeImport();
      return await import(generation === 0 ? pathToFileURL(file).href : `${pathToFileURL(file).href}?hookwise-load=${generation}`);
    } catch (error) {
      if (!missesHookwise(error)) throw error;
      // `npx hookwise` in a project that does not install it: resolve 'hookwise' to the running one.
    }
  }
  const { importTypeScript } = await import('./module-cache.js');
  return importTypeScript(file);
}

function missesHookwise(error: unknown): boolean {
  return (
    (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && /Cannot find package 'hookwise'/.test((error as Error).message)
  );
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!;
}

/**
 * Every field a hook spec has: any other is a typo that would silently do nothing. Keyed
 * by HookSpec's own fields, so the compiler fails when a field is added to one and not the other.
 */
const FIELDS = {
  name: true,
  events: true,
  matcher: true,
  priority: true,
  timeoutMs: true,
  async: true,
  onError: true,
  maxRetries: true,
  once: true,
  recheck: true,
  handler: true,
  last: true,
  source: true,
  statusMessage: true,
  concurrentGroup: true,
  dedupKey: true,
} satisfies Record<keyof HookSpec, true>;
const HOOK_FIELDS = Object.keys(FIELDS);
const KNOWN = new Set(HOOK_FIELDS);

/** A warning per unknown field, with the known field it most likely meant (`timout` → `timeoutMs`). */
function unknownFields(spec: object, where: string): string[] {
  return Object.keys(spec)
    .filter((key) => !KNOWN.has(key))
    .map((key) => {
      const near = HOOK_FIELDS.find((known) => known.toLowerCase().startsWith(key.toLowerCase().slice(0, 3)));
      return `${where}: unknown field "${key}" is ignored${near ? ` (did you mean "${near}"?)` : ''}; hook fields: docs/model.md, "Hook fields"`;
    });
}
