import { setShellSplitterLoader } from '../core/shell-split.js';

let installed = false;

/**
 * `if: "Bash(git *)"` rules split shell lines with tree-sitter-bash. The package
 * entry installs that parser; configuration loaded by the CLI may not have imported
 * the entry, so install it here (the parser itself still loads only when needed).
 */
export function installShellSplitter(): void {
  if (installed) return;
  installed = true;
  setShellSplitterLoader(() => import('../shell/index.js').then((m) => m.loadShellSplitter()));
}
