import type * as Fs from 'node:fs';
import path from 'node:path';
import type * as Url from 'node:url';
import { cacheDirFor } from './cache-dir.js';
import { stampOf } from './file-stamp.js';
import { witnessLoad } from './witness.js';

// Not `import ... from 'node:fs'`: its ES-module facade evaluates every export,
// streams included (~3 ms of `hookwise claude-code` start-up). getBuiltinModule is Node 20.16+.
const { mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } = (process.getBuiltinModule?.('node:fs') ??
  (await import('node:fs'))) as typeof Fs;
const { fileURLToPath } = (process.getBuiltinModule?.('node:url') ?? (await import('node:url'))) as typeof Url;

/**
 * A config module's graph: the config and every file it loads that is the project's
 * own, as its loaders resolved them (witness.ts), real paths. The guards and the OS
 * sandbox keep the agent from writing any of them: the next hook call would run them.
 *
 * Recording may cost a loader hook (witness.ts), so the graph is kept beside the compiled config
 * (`.hookwise/cache/<config>.files.json`, which the agent cannot write either) with
 * each file's stamp, and recorded again only when one of them changed.
 */
export async function loadWithGraph<T>(file: string, load: () => Promise<T>): Promise<{ value: T; files: string[] }> {
  const known = knownGraph(file);
  if (known !== undefined) return { value: await load(), files: known };
  const { value, files } = await witnessLoad(load);
  // A module Node already holds from an earlier load in this process is not read again: keep what that load found.
  const graph = [...new Set([file, ...policyOwn(files, realPath(file)), ...(remembered.get(file)?.map(([f]) => f) ?? [])])];
  keep(file, graph);
  return { value, files: graph };
}

/** The witnessed files that are the project's: not an installed package, not hookwise, not a resolver's metadata. */
function policyOwn(files: string[], config: string | undefined): string[] {
  const own: string[] = [];
  for (const file of files) {
    const real = realPath(file);
    if (real === undefined || real === config || !path.isAbsolute(real)) continue;
    const parts = real.split(path.sep);
    // An installed package is an install's (a link into the project resolves to its real folder, outside node_modules).
    if (parts.includes('node_modules')) continue;
    if (real === HOOKWISE || real.startsWith(`${HOOKWISE}${path.sep}`)) continue;
    // The compiled config: protected with the rest of `.hookwise/`.
    if (real.includes(`${path.sep}.hookwise${path.sep}cache${path.sep}`)) continue;
    if (RESOLVER_METADATA.test(path.basename(real))) continue;
    own.push(real);
  }
  return own;
}

/** Read by resolvers to find a module, not loaded as one; the agent edits them as part of its work. */
const RESOLVER_METADATA = /^(package\.json|tsconfig(\..*)?\.json|jsconfig\.json)$/;

/** This hookwise's own package (this file is `<package>/dist/config/` or `<package>/src/config/`). */
const HOOKWISE = (() => {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  return realPath(root) ?? root;
})();

type Graph = Array<[file: string, stamp: string]>;

/** The last graph recorded per config in this process. */
const remembered = new Map<string, Graph>();

/**
 * The paths the loaders would load in place of a file if they appeared: a TypeScript
 * file is found for `./rules.js` and for `./rules` only while no JavaScript file of that
 * name is there (jiti tries `.js`, `.mjs`, `.cjs` first, then the TypeScript names).
 */
export function shadowsOf(file: string): string[] {
  const ext = path.extname(file);
  if (!TYPESCRIPT.includes(ext)) return [];
  const stem = file.slice(0, -ext.length);
  return [...JAVASCRIPT, ...TYPESCRIPT].filter((e) => e !== ext).map((e) => stem + e);
}

const JAVASCRIPT = ['.js', '.mjs', '.cjs', '.jsx'];
const TYPESCRIPT = ['.ts', '.tsx', '.mts', '.cts'];

function knownGraph(file: string): string[] | undefined {
  const graph = remembered.get(file) ?? (process.env.HOOKWISE_NO_CACHE ? undefined : readGraph(file));
  if (graph === undefined || graph.length === 0 || graph.some(([f, stamp]) => stampOf(f) !== stamp)) return undefined;
  // A file that appeared where a loader would look first is loaded now instead: record again.
  if (graph.some(([f]) => shadowsOf(f).some((shadow) => stampOf(shadow) !== 'missing'))) return undefined;
  remembered.set(file, graph);
  return graph.map(([f]) => f);
}

function keep(file: string, files: string[]): void {
  const graph: Graph = files.map((f) => [f, stampOf(f)]);
  remembered.set(file, graph);
  if (process.env.HOOKWISE_NO_CACHE) return;
  const target = graphFile(file);
  try {
    mkdirSync(path.dirname(target), { recursive: true });
    const tmp = `${target}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ files: graph })}\n`);
    renameSync(tmp, target);
  } catch {
    // An unwritable folder: the graph is recorded again on the next load.
  }
}

function readGraph(file: string): Graph | undefined {
  try {
    const { files } = JSON.parse(readFileSync(graphFile(file), 'utf8')) as { files?: unknown };
    if (!Array.isArray(files) || !files.every((e) => Array.isArray(e) && e.length === 2 && e.every((v) => typeof v === 'string')))
      return undefined;
    return files as Graph;
  } catch {
    return undefined;
  }
}

function graphFile(file: string): string {
  return path.join(cacheDirFor(file), `${path.basename(file)}.files.json`);
}

function realPath(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}
