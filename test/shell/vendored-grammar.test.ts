import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { loadBashParser, parseBash } from '../../src/shell/parser.js';

const require = createRequire(import.meta.url);
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('the vendored bash grammar', () => {
  it('is byte for byte the wasm the pinned tree-sitter-bash ships', () => {
    const vendored = new URL('../../vendor/tree-sitter-bash/tree-sitter-bash.wasm', import.meta.url);
    expect(sha256(vendored.pathname)).toBe(sha256(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm')));
  });

  it('parses a pipeline into commands', async () => {
    const parser = await loadBashParser();
    const tree = parseBash(parser, 'git status | grep -v foo');
    expect(tree.rootNode.descendantsOfType('command').map((n) => n?.text)).toEqual(['git status', 'grep -v foo']);
    tree.delete();
  });
});
