import { fileURLToPath } from 'node:url';
import { Language, Parser, type Node, type Tree } from 'web-tree-sitter';

/**
 * One bash parser per process: web-tree-sitter's wasm runtime with tree-sitter-bash's
 * grammar, vendored as its wasm alone (vendor/tree-sitter-bash/README.md says why).
 * Loading costs tens of milliseconds, so it is done once and shared.
 */
let loading: Promise<Parser> | undefined;

export function loadBashParser(): Promise<Parser> {
  loading ??= (async () => {
    await Parser.init();
    const language = await Language.load(fileURLToPath(new URL('../../vendor/tree-sitter-bash/tree-sitter-bash.wasm', import.meta.url)));
    const parser = new Parser();
    parser.setLanguage(language);
    return parser;
  })();
  return loading;
}

/** Parse with the loaded parser; the caller must delete() the tree when done. */
export function parseBash(parser: Parser, source: string): Tree {
  const tree = parser.parse(source);
  if (!tree) throw new Error('bash parser returned no tree');
  return tree;
}

export type { Node, Tree, Parser };
