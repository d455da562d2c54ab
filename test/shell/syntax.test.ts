import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ParsedScripts } from '../../src/shell/parsed.js';
import { SHELL_INPUT_LIMITS } from '../../src/shell/limits.js';
import { loadBashParser, parseBash, type Node, type Parser } from '../../src/shell/parser.js';
import { extractScript, type Script } from '../../src/shell/script.js';
import { snapshotTree, type SyntaxNode } from '../../src/shell/syntax.js';
import { DANGEROUS, HARMLESS } from '../guards/shell-corpus.js';

let parser: Parser;
let fieldNames: string[];
beforeAll(async () => {
  parser = await loadBashParser();
  fieldNames = parser.language!.fields.filter((f): f is string => typeof f === 'string');
});

/** Commands that exercise the grammar's odd corners: errors, MISSING nodes, heredocs, fields, unicode. */
const ODD = [
  '',
  ' ',
  'echo "unterminated',
  'if true; then echo',
  'a=(1 2 3); echo ${a[$i]}',
  'cat <<EOF | sh\nrm -rf /\nEOF',
  "cat <<'EOF' > out.txt\n$HOME\nEOF\necho done",
  'for f in *.ts; do echo "$f"; done',
  'case $x in a) echo a;; *) echo b;; esac',
  'f() { rm -rf "$1"; }; f /',
  'echo ${x@P} $((1+2)) $(date) `id` <(ls) >(cat)',
  'x=1 y=$(id) env | grep -v é ü 日本',
  "echo $'\\x72\\x6d' && echo 'a''b'\"c\"",
  '((i++)); [[ -f a && -d b ]]; [ -e c ]',
  'echo ) ( }',
  'a && b || c; d & e | f |& g',
  'declare -x FOO=bar; export -n X; local y=2',
  'echo a\\\nb',
  '# only a comment',
  'echo 😀 "😀" \'😀\'',
];

function corpus(): string[] {
  const fill = (c: string) => c.replaceAll('{ws}', '/w/proj').replaceAll('{outside}', '/w/outside').replaceAll('{home}', '/w/home');
  return [...DANGEROUS, ...HARMLESS].map((c) => fill(c.command)).concat(ODD);
}

/** Node for node, the snapshot must answer every question the shell code asks as the live tree does. */
function expectSameTree(live: Node, copy: SyntaxNode, source: string): void {
  const where = `${JSON.stringify(source)} at ${live.type} ${live.startIndex}-${live.endIndex}`;
  const brief = (n: Node | SyntaxNode | null | undefined) =>
    n ? `${n.type}@${n.startIndex}-${n.endIndex}:${n.isNamed}:${n.isMissing}` : String(n);
  expect(brief(copy), where).toBe(brief(live));
  expect(copy.text, where).toBe(live.text);
  expect(copy.namedChildCount, where).toBe(live.namedChildCount);
  expect(brief(copy.lastNamedChild), where).toBe(brief(live.lastNamedChild));
  expect(copy.children.map(brief), where).toEqual(live.children.map(brief));
  expect(copy.namedChildren.map(brief), where).toEqual(live.namedChildren.map(brief));
  for (const field of fieldNames) {
    expect(brief(copy.childForFieldName(field)), `${where} field ${field}`).toBe(brief(live.childForFieldName(field)));
    // Under an ERROR node web-tree-sitter contradicts itself (childrenForFieldName walks a cursor that
    // sees the fields of hidden nodes, childForFieldName does not); the copy follows childForFieldName.
    if (live.type !== 'ERROR')
      expect(copy.childrenForFieldName(field).map(brief), `${where} fields ${field}`).toEqual(live.childrenForFieldName(field).map(brief));
  }
  live.children.forEach((child, i) => {
    expectSameTree(child!, copy.children[i]!, source);
  });
}

function compareWithLiveTree(source: string): void {
  const tree = parseBash(parser, source);
  try {
    const { root, size } = snapshotTree(tree, source);
    expectSameTree(tree.rootNode, root, source);
    expect(root.hasError).toBe(tree.rootNode.hasError);
    // Not 'ERROR': web-tree-sitter puts its symbol first in a list its C side expects sorted, and then finds nothing.
    const types = ['simple_expansion', 'expansion', 'command_substitution', 'command', 'word', 'variable_name'];
    expect(root.descendantsOfType(types).map((n) => `${n!.type}@${n!.startIndex}`)).toEqual(
      tree.rootNode.descendantsOfType(types).map((n) => `${n!.type}@${n!.startIndex}`),
    );
    expect(size).toBe(tree.rootNode.descendantCount);
  } finally {
    tree.delete();
  }
}

/** What the shell guard reads from a script, as plain data. */
function describeScript(script: Script): unknown {
  const cmd = (c: Script['commands'][number]): unknown => ({
    node: [c.node.type, c.node.text],
    words: c.words.map((w) => [w.type, w.text]),
    assignments: c.assignments.map((a) => a.text),
    redirects: c.redirects.map((r) => ({
      op: r.op,
      fd: r.fd,
      target: r.target?.text,
      heredoc: r.heredoc && [r.heredoc.body, r.heredoc.expands],
    })),
    upstream: c.upstream?.map((u) => u.node.text),
    declaration: c.declaration,
  });
  return { commands: script.commands.map(cmd), functions: [...script.functions.keys()], problems: script.problems };
}

describe('snapshotTree: a plain copy of the parsed tree', () => {
  it('answers as the live tree does for every corpus command and odd corner of the grammar', () => {
    for (const source of corpus()) compareWithLiveTree(source);
  });

  it('answers as the live tree does for random shell-like text', () => {
    const alphabet = fc.constantFrom(
      ...'ab $(){}[]<>|&;\'"`\\\n#=*?~!-/.é0'.split(''),
      'echo ',
      'if ',
      ' then ',
      ' fi',
      '<<E\n',
      'E\n',
      '${',
      '$((',
    );
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), (parts) => compareWithLiveTree(parts.join(''))),
      { numRuns: 500 },
    );
  });

  it('copies a deeply nested command without overflowing the stack', () => {
    // Subshells in subshells; the live tree's own recursive walks run out of wasm stack on this.
    const source = `${'( '.repeat(2000)}ls${' )'.repeat(2000)}`;
    // Past the input limit of the guards (test/shell/limits.test.ts); the copy itself has no such limit.
    const tree = parseBash(parser, source, { ...SHELL_INPUT_LIMITS, nesting: Infinity });
    try {
      const { root, size } = snapshotTree(tree, source);
      expect(size).toBe(tree.rootNode.descendantCount);
      expect(root.descendantsOfType('command').map((n) => n!.text)).toEqual(['ls']);
    } finally {
      tree.delete();
    }
  });
});

let cache: ParsedScripts;

/** The script the cache hands over, described while it is valid. */
function parsed(source: string): { script: Script; described: unknown } {
  return cache.use(parser, source, (script) => ({ script, described: describeScript(script) }));
}

describe('ParsedScripts: the extracted script, kept for texts seen before', () => {
  it('extracts what extractScript extracts from the live tree, the first time and from the copy', () => {
    cache = new ParsedScripts();
    for (const source of corpus()) {
      const tree = parseBash(parser, source);
      let expected: unknown;
      try {
        expected = describeScript(extractScript(tree.rootNode));
      } finally {
        tree.delete();
      }
      const first = parsed(source);
      const second = parsed(source);
      const third = parsed(source);
      expect(first.described, source).toEqual(expected);
      expect(second.described, source).toEqual(expected);
      expect(third.script, source).toBe(second.script);
    }
  });

  it('keeps a text only once it is seen a second time, then answers it with the same script, which no caller can change', () => {
    cache = new ParsedScripts();
    const source = 'git status | head -5 > out.txt';
    const first = parsed(source).script;
    expect(cache.stats()).toMatchObject({ entries: 0, seen: 1 });
    const second = parsed(source).script;
    expect(second).not.toBe(first);
    expect(cache.stats()).toMatchObject({ entries: 1, seen: 0 });
    expect(parsed(source).script).toBe(second);
    parsed('git status | head -5 >  out.txt');
    expect(parsed('git status | head -5 >  out.txt').script).not.toBe(second);

    const cmd = second.commands[1]!;
    expect(() => second.commands.push(cmd)).toThrow(TypeError);
    expect(() => cmd.words.pop()).toThrow(TypeError);
    expect(() => cmd.redirects.push({ op: '>' })).toThrow(TypeError);
    expect(() => second.problems.push('x')).toThrow(TypeError);
    expect(() => {
      (cmd as { declaration?: boolean }).declaration = true;
    }).toThrow(TypeError);
    expect(cmd.upstream?.map((c) => c.node.text)).toEqual(['git status']);
  });

  it('stays within its bounds: scripts, syntax nodes, texts seen once, and no single huge script', () => {
    const limits = { entries: 64, nodes: 8000, seen: 128, seenChars: 1024 };
    cache = new ParsedScripts(limits);
    const twice = (source: string) => {
      parsed(source);
      return parsed(source);
    };
    for (let i = 0; i < limits.entries + 50; i++) twice(`echo ${i}`);
    expect(cache.stats().entries).toBeLessThanOrEqual(limits.entries);
    expect(cache.stats().entries).toBeGreaterThanOrEqual(limits.entries / 2);
    // The least recently used went first: the newest is still there, the oldest is not.
    const newest = `echo ${limits.entries + 49}`;
    expect(parsed(newest).script).toBe(parsed(newest).script);
    parsed('echo 0');
    expect(cache.stats().seen).toBe(1);

    cache = new ParsedScripts(limits);
    for (let i = 0; i < limits.seen + 10; i++) parsed(`echo once ${i}`);
    const seen = cache.stats().seen;
    expect(cache.stats().entries).toBe(0);
    expect(seen).toBeLessThanOrEqual(limits.seen);
    expect(seen).toBeGreaterThanOrEqual(limits.seen / 2);
    parsed(`echo once ${'x'.repeat(limits.seenChars)}`);
    expect(cache.stats().seen).toBe(seen);

    cache = new ParsedScripts(limits);
    // Over an eighth of the node budget: never kept.
    const big = Array.from({ length: 300 }, (_, i) => `echo ${i}`).join('; ');
    const once = twice(big);
    expect(cache.stats().entries).toBe(0);
    expect(parsed(big).described).toEqual(once.described);
    expect(cache.stats().entries).toBe(0);

    cache = new ParsedScripts(limits);
    // Each well under an eighth of the node budget (and of the text bound); together well over it.
    const medium = (i: number) => Array.from({ length: 50 }, (_, j) => `echo ${i} ${j}`).join('; ');
    for (let i = 0; i < 40; i++) twice(medium(i));
    expect(cache.stats().nodes).toBeLessThanOrEqual(limits.nodes);
    expect(cache.stats().entries).toBeGreaterThan(1);
    expect(cache.stats().entries).toBeLessThan(40);
  });
});
