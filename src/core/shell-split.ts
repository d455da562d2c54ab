import { ShellParserNotLoadedError } from './errors.js';
/**
 * The core needs to split a shell command into its simple commands (for the `if`
 * field's `Bash(...)` rules) but must not load a parser itself: the package entry
 * installs a loader (tree-sitter-bash) and the engine awaits it before the first
 * fire that needs it.
 */

/** Every simple command in a shell string, each as its words joined by one space. */
export type ShellSplitter = (command: string) => string[];

let splitter: ShellSplitter | undefined;
let loader: (() => Promise<ShellSplitter>) | undefined;
let loading: Promise<void> | undefined;

export function setShellSplitterLoader(load: () => Promise<ShellSplitter>): void {
  loader = load;
}

/** Resolves when a splitter is ready; rejects when none can be had. */
export function ensureShellSplitter(): Promise<void> {
  if (splitter) return Promise.resolve();
  if (!loading) {
    if (!loader)
      return Promise.reject(new ShellParserNotLoadedError('no shell parser installed: import "hookwise" (the package entry) to get one'));
    loading = loader().then((s) => {
      splitter = s;
    });
  }
  return loading;
}

export function shellSplitterReady(): boolean {
  return splitter !== undefined;
}

export function splitShellCommand(command: string): string[] {
  if (!splitter) throw new ShellParserNotLoadedError('shell parser not loaded yet (await ensureShellSplitter())');
  return splitter(command);
}
