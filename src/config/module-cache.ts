import type * as Fs from 'node:fs';
import path from 'node:path';
import type * as NodeModule from 'node:module';
import type * as Url from 'node:url';
import { cacheDirFor } from './cache-dir.js';
import { ConfigError } from './errors.js';
import { beforeNativeImport } from './witness.js';

// Not `import ... from 'node:fs'`: its ES-module facade evaluates every export,
// streams included (~3 ms of `hookwise claude-code` start-up). getBuiltinModule is Node 20.16+.
const { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } = (process.getBuiltinModule?.(
  'node:fs',
) ?? (await import('node:fs'))) as typeof Fs;
const { fileURLToPath, pathToFileURL } = (process.getBuiltinModule?.('node:url') ?? (await import('node:url'))) as typeof Url;
const { createRequire, isBuiltin } = (process.getBuiltinModule?.('node:module') ??
  (await import('node:module'))) as unknown as typeof NodeModule;

/**
 * TypeScript config modules, fast. Loading jiti costs more than a hook may take
 * (`hookwise claude-code` runs on every tool call), so the config is transpiled
 * once with jiti and the result written as an ES module to
 * `<config dir>/.hookwise/cache/`, keyed by the file's path, mtime, size and the
 * hookwise version. Later loads import that file natively. The cached module
 * imports packages itself (so they resolve from the project, as from the config);
 * only relative imports of other files go through jiti, loaded on demand.
 * `HOOKWISE_NO_CACHE=1` (or an unwritable folder) means plain jiti every time.
 */
const RUNTIME = Symbol.for('hookwise.configModuleRuntime');
/** Bumped when wrap() changes, so that no cached module of an older wrapper is used. */
const WRAPPER_VERSION = 'w3';

interface Runtime {
  importRelative(from: string, id: string): Promise<unknown>;
  /** Before a package is imported natively (witness.ts): hookwise's own and Node's need no witness. */
  beforePackage(id: string): void;
  /** `hookwise` or `hookwise/*` as this running hookwise exports it. */
  ownExport(id: string): string;
}

/** The running hookwise's own export of `id` (a package may import itself by name). */
function ownExport(id: string): string {
  return import.meta.resolve(id);
}

type Jiti = { import(id: string, opts?: object): Promise<unknown>; transform(opts: object): string };
let jitiInstance: Promise<Jiti> | undefined;
let aliasedJiti: Promise<Jiti> | undefined;

function jiti(): Promise<Jiti> {
  return (jitiInstance ??= import('jiti').then(
    ({ createJiti }) => createJiti(import.meta.url, { moduleCache: false, fsCache: false }) as unknown as Jiti,
  ));
}

/** jiti for a config whose project does not install hookwise: `hookwise` and `hookwise/*` are this one. */
function jitiFor(file: string): Promise<Jiti> {
  if (resolvesFrom(file, 'hookwise')) return jiti();
  return (aliasedJiti ??= import('jiti').then(({ createJiti }) => {
    const alias: Record<string, string> = {};
    for (const sub of ['', '/runtime', '/guards', '/config', '/handlers', '/providers', '/audit'])
      alias[`hookwise${sub}`] = fileURLToPath(ownExport(`hookwise${sub}`));
    return createJiti(import.meta.url, { moduleCache: false, fsCache: false, alias }) as unknown as Jiti;
  }));
}

function resolvesFrom(file: string, id: string): boolean {
  try {
    createRequire(file).resolve(id);
    return true;
  } catch {
    return false;
  }
}

const hookwiseVersion = (() => {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
})();

export { cacheDirFor };

/**
 * A config module through the transpile cache: TypeScript always, JavaScript when
 * it imports `hookwise` and the project does not install it (Node alone cannot
 * resolve that import; the cached module resolves it to the running hookwise).
 */
export async function importTypeScript(file: string): Promise<unknown> {
  if (process.env.HOOKWISE_NO_CACHE) return (await jitiFor(file)).import(file);
  installRuntime();
  const stat = statSync(file);
  // The folder and the file name already say which config this is; node:crypto would cost a few ms here.
  const key = `${String(stat.mtimeMs).replace('.', '_')}-${stat.size}-${hookwiseVersion}-${WRAPPER_VERSION}`;
  const dir = cacheDirFor(file);
  const cached = path.join(dir, `${path.basename(file)}.${key}.mjs`);
  if (!existsSync(cached) && !(await writeCache(file, dir, cached))) return (await jitiFor(file)).import(file);
  const ns = (await import(pathToFileURL(cached).href)) as { default: unknown };
  return ns.default;
}

async function writeCache(file: string, dir: string, cached: string): Promise<boolean> {
  const code = (await jiti()).transform({ source: readFileSync(file, 'utf8'), filename: file, ts: true, async: true });
  // jiti reports a syntax error as code that exports it; never cache that.
  const failed = /^exports\.__JITI_ERROR__ = (\{.*\})$/s.exec(code.trim());
  if (failed) {
    const e = JSON.parse(failed[1]!) as { line?: number; column?: number; message?: string; code?: string };
    throw new ConfigError(
      file,
      `could not load config module: ${e.code ?? 'SyntaxError'} at line ${e.line}, column ${e.column}: ${String(e.message ?? '').trim() || 'invalid syntax'}`,
    );
  }
  try {
    mkdirSync(dir, { recursive: true });
    const tmp = `${cached}.${process.pid}.tmp`;
    writeFileSync(tmp, wrap(file, code));
    renameSync(tmp, cached);
    // Older transpilations of the same config are stale now.
    for (const name of readdirSync(dir)) {
      if (name.startsWith(`${path.basename(file)}.`) && name.endsWith('.mjs') && path.join(dir, name) !== cached)
        unlinkSync(path.join(dir, name));
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * jiti's output is CommonJS-shaped with `await jitiImport(...)`; give it what it expects, as an ES module.
 * `require` only when the code names it: createRequire costs a millisecond on every load.
 */
function wrap(file: string, code: string): string {
  const needsRequire = /\brequire\b|\bjitiESMResolve\b/.test(code);
  return [
    ...(needsRequire ? [`import { createRequire as __createRequire } from 'node:module';`] : []),
    `const __filename = ${JSON.stringify(file)};`,
    `const __dirname = ${JSON.stringify(path.dirname(file))};`,
    ...(needsRequire ? [`const require = __createRequire(__filename);`] : []),
    `const module = { exports: {} };`,
    `const exports = module.exports;`,
    `const __runtime = globalThis[Symbol.for('hookwise.configModuleRuntime')];`,
    `const __package = (id) => { if (!/^hookwise(\\/|$)/.test(id)) return id; try { return import.meta.resolve(id); } catch { return __runtime.ownExport(id); } };`,
    `const jitiImport = (id) => (id.startsWith('.') || id.startsWith('/') || /^[A-Za-z]:[\\\\/]/.test(id)) ? __runtime.importRelative(__filename, id) : (__runtime.beforePackage(id), import(__package(id)));`,
    ...(needsRequire ? [`const jitiESMResolve = (id) => require.resolve(id);`] : []),
    code,
    `export default module.exports;`,
    '',
  ].join('\n');
}

function installRuntime(): void {
  const g = globalThis as unknown as Record<symbol, Runtime | undefined>;
  g[RUNTIME] ??= {
    async importRelative(from, id) {
      return (await jitiFor(from)).import(path.resolve(path.dirname(from), id));
    },
    beforePackage(id) {
      // hookwise's own install is protected and watched as a whole, and `fs` is Node's; a linked package of the project is neither.
      if (!/^hookwise(\/|$)/.test(id) && !isBuiltin(id)) beforeNativeImport();
    },
    ownExport,
  };
}
