import { beforeAll, describe, expect, it } from 'vitest';
import { loadBashParser, parseBash, type Parser } from '../../src/shell/parser.js';
import { extractScript } from '../../src/shell/script.js';
import { decodeAnsiC, evalWord, expandBraces, hasGlob } from '../../src/shell/words.js';

let parser: Parser;
beforeAll(async () => {
  parser = await loadBashParser();
});

/** The words of the first simple command, evaluated as bash would. */
function words(source: string, lookup: (n: string) => string | undefined = () => undefined) {
  const tree = parseBash(parser, source);
  try {
    const script = extractScript(tree.rootNode);
    return script.commands[0]!.words.map((w) => evalWord(w, lookup));
  } finally {
    tree.delete();
  }
}

describe('evalWord: quote removal as bash does it', () => {
  it.each([
    ['\\rm', 'rm'],
    ['"rm"', 'rm'],
    ["r'm'", 'rm'],
    ['r""m', 'rm'],
    ["$'\\x72\\x6d'", 'rm'],
    ['"a\\"b"', 'a"b'],
    ["'a\\b'", 'a\\b'],
    ['"line1\nline2"', 'line1\nline2'],
  ])('%s -> %s', (source, value) => {
    expect(words(`${source} x`)[0]!.value).toBe(value);
  });

  it('knows what a lone echo or printf of fixed words prints; anything else is dynamic', () => {
    const value = (source: string) => words(`${source} x`)[0]!.value;
    expect(value('$(echo git)')).toBe('git');
    expect(value('`printf rm`')).toBe('rm');
    expect(value('g$(printf it)')).toBe('git');
    expect(value('"$(echo two words)"')).toBe('two words');
    // Unquoted, bash would split these or expand them: not one known word.
    for (const source of [
      '$(echo two words)',
      '$(echo "*")',
      '$(echo -e git)',
      '$(printf %s git)',
      '$(printf "a\\n")',
      '$(echo $X)',
      '$(echo git; id)',
      '$(echo git > f)',
      '$(id)',
    ])
      expect(value(source), source).toBeUndefined();
  });

  it('marks runtime values as dynamic and fills in the known ones', () => {
    const [, a, b, c] = words('echo $X "$HOME/x" "$(id)"', (n) => (n === 'HOME' ? '/home/me' : undefined));
    expect(a!.dynamic).toBe(true);
    expect(b!.value).toBe('/home/me/x');
    expect(c!.dynamic).toBe(true);
  });

  it('keeps quoted glob characters out of the pattern', () => {
    const [, quoted, bare] = words(`ls '*.ts' *.ts`);
    expect(hasGlob(quoted!.pattern!)).toBe(false);
    expect(hasGlob(bare!.pattern!)).toBe(true);
  });

  it('flags ${x@P}', () => {
    expect(words('echo ${x@P}')[1]!.hazard).toMatch(/prompt string/);
  });
});

describe('brace expansion and ANSI-C strings', () => {
  it('expands lists, ranges and nesting, and leaves quoted braces alone', () => {
    expect(expandBraces('/{etc,usr}')).toEqual(['/etc', '/usr']);
    expect(expandBraces('a{1..3}')).toEqual(['a1', 'a2', 'a3']);
    expect(expandBraces('{a,b{c,d}}')).toEqual(['a', 'bc', 'bd']);
    expect(expandBraces('\\{a,b\\}')).toEqual(['\\{a,b\\}']);
    expect(expandBraces('{x}')).toEqual(['{x}']);
    expect(expandBraces('{1..100000}')).toBeUndefined();
  });

  it('decodes escapes', () => {
    expect(decodeAnsiC('\\x72\\155\\u00e9\\n\\cA')).toBe('rm\u00e9\n\x01');
  });
});

describe('extractScript', () => {
  /** Run `inspect` while the tree is alive (nodes die with it). */
  function withScript<T>(source: string, inspect: (script: ReturnType<typeof extractScript>) => T): T {
    const tree = parseBash(parser, source);
    try {
      return inspect(extractScript(tree.rootNode));
    } finally {
      tree.delete();
    }
  }
  const first = (c: ReturnType<typeof extractScript>['commands'][number]) => c.words[0]?.text ?? '(redirect)';

  it('finds every simple command in every construct', () => {
    const names = withScript('a && b || c; d | e & f\n(g); { h; }; $(i) `j` <(k); x=$(l); [[ $(m) ]]; if n; then o; fi', (s) =>
      s.commands.map(first),
    );
    for (const n of 'abcdefghijklmno') expect(names).toContain(n);
  });

  it('links pipeline stdin, including after a here-doc', () => {
    const found = withScript('cat <<EOF | sh\nrm -rf /\nEOF', (s) => {
      const sh = s.commands.find((c) => first(c) === 'sh')!;
      return [sh.upstream?.[0] && first(sh.upstream[0]), sh.upstream?.[0]?.redirects[0]?.heredoc?.body];
    });
    expect(found).toEqual(['cat', 'rm -rf /\n']);
  });

  it('gives arguments written after a redirection back to the command', () => {
    expect(withScript('rm > /dev/null -rf /etc', (s) => s.commands[0]!.words.map((w) => w.text))).toEqual(['rm', '-rf', '/etc']);
  });

  it('hangs a here-doc on the last command of a list, as bash does', () => {
    const body = withScript(
      "ls && python3 <<'EOF'\nprint(1)\nEOF",
      (s) => s.commands.find((c) => first(c) === 'python3')!.redirects[0]?.heredoc?.body,
    );
    expect(body).toBe('print(1)\n');
  });

  it('reports what it cannot parse', () => {
    expect(withScript("echo 'x", (s) => s.problems[0])).toMatch(/cannot parse/);
    expect(withScript('{rm,-rf,/}', (s) => s.problems.length)).toBeGreaterThan(0);
  });
});
