import type * as Fs from 'node:fs';
import type * as NodeModule from 'node:module';
import path from 'node:path';
import type * as Url from 'node:url';
import type * as Threads from 'node:worker_threads';

// The module objects themselves (getBuiltinModule), not ES-module facades: readFileSync is
// replaced on the object that jiti and Node's CommonJS loader call it through.
const fs = (process.getBuiltinModule?.('node:fs') ?? (await import('node:fs')).default) as typeof Fs;
const { register } = (process.getBuiltinModule?.('node:module') ?? (await import('node:module'))) as unknown as typeof NodeModule;
const { fileURLToPath } = (process.getBuiltinModule?.('node:url') ?? (await import('node:url'))) as typeof Url;
const { MessageChannel, receiveMessageOnPort } = (process.getBuiltinModule?.('node:worker_threads') ??
  (await import('node:worker_threads'))) as typeof Threads;

/**
 * Which files a config's load reads, as its loaders resolved them. Three loaders can
 * bring a policy's code in, and each has a witness: Node's ES module loader (a native
 * config, the packages a config imports) reports every file it loads through a loader
 * hook, registered before the first such import (beforeNativeImport); jiti (a TypeScript
 * config's relative imports, nested ones included) and Node's CommonJS loader (JSON,
 * `require`) read through `fs.readFileSync`, which is watched while a load runs. The
 * resident watches the same three (src/cli/resident/track.ts).
 *
 * A module Node has loaded already in this process is not read again: the caller keeps
 * what an earlier load of the same config found (policy-graph.ts).
 */

/** A loader hook that tells the main thread every file: URL Node loads, before it loads it. */
const LOADER_HOOK = `
let port;
export function initialize(data) { port = data.port; }
export async function load(url, context, next) {
  if (url.startsWith('file:')) port.postMessage(url);
  return next(url, context);
}
`;

/** The sets of the loads running now: what is read counts for each (loads of two configs at once share it). */
const recorders = new Set<Set<string>>();
/** Told of every file Node's ES module loader loads, at any time (watchModuleLoads). */
const watchers = new Set<(file: string) => void>();
let esmPort: Threads.MessagePort | undefined;

let reading = false;

/** Watch `fs.readFileSync`: cheap, and the only reader of a TypeScript config's own files. */
function install(): void {
  if (reading) return;
  reading = true;
  const read = fs.readFileSync;
  fs.readFileSync = ((file: Fs.PathOrFileDescriptor, options?: unknown) => {
    if (recorders.size > 0 && typeof file === 'string') saw(path.resolve(file));
    return (read as (f: Fs.PathOrFileDescriptor, o?: unknown) => unknown)(file, options);
  }) as typeof fs.readFileSync;
}

/**
 * Node's ES module loader reads a native config's imports itself, which only a loader hook
 * sees. The hook costs a worker thread: about 100 ms to start, and every ES module loaded
 * after it goes through the worker. So it is registered only while someone witnesses,
 * before a config is imported natively (src/config/module.ts) or a TypeScript config
 * imports a package other than hookwise (./module-cache.ts, `beforePackage`): its own
 * files load through jiti, which reads them with `fs.readFileSync`.
 */
export function beforeNativeImport(): void {
  if (esmPort !== undefined || (recorders.size === 0 && watchers.size === 0)) return;
  const { port1, port2 } = new MessageChannel();
  // No listener: messages wait on the port and are taken synchronously (receiveMessageOnPort),
  // so a load's files are all in hand when its import settles; nothing keeps the process alive.
  register(`data:text/javascript,${encodeURIComponent(LOADER_HOOK)}`, { data: { port: port2 }, transferList: [port2] });
  esmPort = port1;
}

function saw(file: string): void {
  for (const set of recorders) set.add(file);
}

/** Hands what Node's ES module loader reported since the last drain to the loads running now and to the watchers. */
export function drainModuleLoads(): void {
  if (esmPort === undefined) return;
  for (let m = receiveMessageOnPort(esmPort); m !== undefined; m = receiveMessageOnPort(esmPort)) {
    if (typeof m.message !== 'string') continue;
    const file = fileURLToPath(m.message);
    saw(file);
    for (const watcher of watchers) watcher(file);
  }
}

/**
 * Tell `watcher` of every file Node's ES module loader loads from now on, during a load or
 * after (a hook that imports a module when it runs), at the next drain: a load's end, or
 * drainModuleLoads(). The resident watches its config's files so (src/cli/resident/track.ts).
 */
export function watchModuleLoads(watcher: (file: string) => void): void {
  install();
  watchers.add(watcher);
}

/** Run a load and return every file it read (absolute, as the loaders named them). */
export async function witnessLoad<T>(load: () => Promise<T>): Promise<{ value: T; files: string[] }> {
  install();
  // What Node loaded before this load began is another load's (or nobody's).
  drainModuleLoads();
  const files = new Set<string>();
  recorders.add(files);
  try {
    const value = await load();
    drainModuleLoads();
    return { value, files: [...files] };
  } finally {
    recorders.delete(files);
  }
}
