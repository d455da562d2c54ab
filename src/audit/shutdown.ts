import { constants } from 'node:os';

/** What the shutdown hooks need of a store. */
export interface ClosableStore {
  readonly path: string;
  readonly closed: boolean;
  flushSync(): void;
  closeSync(): void;
}

export interface ShutdownFlushOptions {
  /** Default: SIGTERM and SIGINT. */
  signals?: NodeJS.Signals[];
  /**
   * After a signal has flushed and closed the store, exit with 128 + the signal's
   * number. `auto` (default): only when no other listener for that signal remains,
   * so a host with its own handler decides how to stop.
   */
  exitOnSignal?: boolean | 'auto';
}

const disposers = new WeakMap<ClosableStore, Set<() => void>>();

/**
 * Makes sure nothing buffered is lost when the process stops: on a signal the store
 * is flushed and closed, then the process exits with the conventional code (143 for
 * SIGTERM, 130 for SIGINT); on `beforeExit` it is flushed; on `exit` it is flushed
 * and closed (better-sqlite3 is synchronous, so this works inside 'exit').
 * Returns the function that removes these listeners; closing the store removes them too.
 */
export function installShutdownFlush(store: ClosableStore, options: ShutdownFlushOptions = {}): () => void {
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  const exitOnSignal = options.exitOnSignal ?? 'auto';

  const report = (error: unknown) =>
    process.stderr.write(`hookwise: audit flush to ${store.path} failed: ${error instanceof Error ? error.message : String(error)}\n`);
  const closeStore = () => {
    try {
      store.closeSync();
    } catch (error) {
      report(error);
    }
  };
  const onBeforeExit = () => {
    try {
      if (!store.closed) store.flushSync();
    } catch (error) {
      report(error);
    }
  };
  const onSignal = (signal: NodeJS.Signals) => {
    closeStore();
    dispose();
    const exit = exitOnSignal === 'auto' ? process.listenerCount(signal) === 0 : exitOnSignal;
    if (exit) process.exit(128 + (constants.signals[signal] ?? 0));
  };

  for (const signal of signals) process.on(signal, onSignal);
  process.on('beforeExit', onBeforeExit);
  process.on('exit', closeStore);

  let disposed = false;
  function dispose(): void {
    if (disposed) return;
    disposed = true;
    for (const signal of signals) process.off(signal, onSignal);
    process.off('beforeExit', onBeforeExit);
    process.off('exit', closeStore);
    disposers.get(store)?.delete(dispose);
  }
  let set = disposers.get(store);
  if (!set) disposers.set(store, (set = new Set()));
  set.add(dispose);
  return dispose;
}

/** Called by a store as it closes: its shutdown listeners have nothing left to do. */
export function forgetStoreAtExit(store: ClosableStore): void {
  const set = disposers.get(store);
  if (!set) return;
  for (const dispose of [...set]) dispose();
}
