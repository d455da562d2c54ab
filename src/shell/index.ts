import { loadBashParser, parseBash, type Node } from './parser.js';

export { BashParser, loadBashParser, parseBash, ParseRefused } from './parser.js';
export { overLimit, SHELL_INPUT_LIMITS, type ShellInputLimits } from './limits.js';

function collectCommands(node: Node, out: string[]): void {
  if (node.type === 'command') out.push(node.text.replace(/\s+/g, ' ').trim());
  for (const child of node.namedChildren) if (child) collectCommands(child, out);
}

/**
 * A splitter for the core's `Bash(...)` rules: every simple command in the line,
 * including those inside subshells, substitutions and pipelines.
 */
export async function loadShellSplitter(): Promise<(command: string) => string[]> {
  const parser = await loadBashParser();
  return (command) => {
    const tree = parseBash(parser, command);
    try {
      const out: string[] = [];
      collectCommands(tree.rootNode, out);
      return out;
    } catch (error) {
      parser.failed();
      throw error;
    } finally {
      parser.release(tree);
    }
  };
}
