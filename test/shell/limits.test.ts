import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { overLimit, SHELL_INPUT_LIMITS } from '../../src/shell/limits.js';
import { PARSE_BUDGET } from '../../src/shell/parser.js';

const pipeline = (n: number) => `true${' | true'.repeat(n)}`;
const nested = (n: number) => `${'$('.repeat(n)}ls${')'.repeat(n)}`;

describe('overLimit: what a command may hold before it is parsed', () => {
  it('refuses the 160 KB pipeline of issue 23 by its length, naming the limit', () => {
    const command = `true${' | true'.repeat(20000)} | rm -rf /etc`;
    expect(overLimit(command)).toBe(
      `the command is ${command.length} characters long; hookwise parses commands of at most 65536 (write long content to a file with the Write tool instead)`,
    );
  });

  it('counts the pipes between commands, up to the limit and one past it', () => {
    expect(overLimit(pipeline(SHELL_INPUT_LIMITS.pipes))).toBeUndefined();
    expect(overLimit(pipeline(SHELL_INPUT_LIMITS.pipes + 1))).toBe(
      'the command chains more than 128 pipes (|); hookwise parses at most 128 in one command',
    );
    // `|&` is a pipe too; `||` is not.
    expect(overLimit(`a${' |& a'.repeat(129)}`)).toMatch(/more than 128 pipes/);
    expect(overLimit(`a${' || a'.repeat(1000)}`)).toBeUndefined();
  });

  it('does not count pipes in quotes, comments or here-documents', () => {
    const table = '| a | b | c |\n'.repeat(200);
    expect(overLimit(`cat > table.md <<'EOF'\n${table}EOF\necho done`)).toBeUndefined();
    expect(overLimit(`cat <<-EOF > t.md\n${table}\tEOF\n`)).toBeUndefined();
    expect(overLimit(`echo '${'|'.repeat(500)}'`)).toBeUndefined();
    expect(overLimit(`echo "${'|'.repeat(500)}"`)).toBeUndefined();
    expect(overLimit(`echo $'\\'${'|'.repeat(500)}'`)).toBeUndefined();
    expect(overLimit(`ls # ${'|'.repeat(500)}`)).toBeUndefined();
    // After the here-document ends, its pipes count again.
    expect(overLimit(`cat <<EOF\n${table}EOF\n${pipeline(200)}`)).toMatch(/more than 128 pipes/);
  });

  it('counts brackets open at once, in substitutions inside strings too', () => {
    expect(overLimit(nested(SHELL_INPUT_LIMITS.nesting))).toBeUndefined();
    expect(overLimit(nested(SHELL_INPUT_LIMITS.nesting + 1))).toBe(
      'the command nests brackets more than 64 deep; hookwise parses at most 64 levels',
    );
    expect(overLimit(`echo ${'"$('.repeat(65)}ls${')"'.repeat(65)}`)).toMatch(/nests brackets more than 64/);
    expect(overLimit(`${'( '.repeat(65)}ls${' )'.repeat(65)}`)).toMatch(/nests brackets/);
    // Many brackets one after another are not deep.
    expect(overLimit('echo $(a) $(b) ${c} [d] {e,f} (g)'.repeat(100))).toBeUndefined();
    // A case pattern's `)` closes nothing it did not open.
    expect(overLimit(`case $x in ${'a) ls ;; '.repeat(100)}esac`)).toBeUndefined();
    expect(overLimit(`echo '${'('.repeat(100)}'`)).toBeUndefined();
  });

  it('takes its limits as an argument', () => {
    expect(overLimit('a | b | c', { chars: 100, pipes: 1, nesting: 5 })).toMatch(/more than 1 pipes/);
    expect(overLimit('echo hello', { chars: 5, pipes: 1, nesting: 5 })).toMatch(/is 10 characters long/);
  });
});

describe('docs/guards.md, "Limits"', () => {
  it('gives the limits and the budget the parser uses', () => {
    const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/guards.md'), 'utf8');
    const table = /<!-- example: shell-limits -->\n([\s\S]*?)\n\n/.exec(doc)![1]!;
    const value = (row: string) => new RegExp(`^\\| ${row}[^\\n]* \\| (\\d+)`, 'm').exec(table)?.[1];
    expect(Number(value('length'))).toBe(SHELL_INPUT_LIMITS.chars);
    expect(Number(value('pipes'))).toBe(SHELL_INPUT_LIMITS.pipes);
    expect(Number(value('brackets'))).toBe(SHELL_INPUT_LIMITS.nesting);
    expect(Number(value('time of one parse'))).toBe(PARSE_BUDGET.timeMs);
    expect(Number(value("the parser's memory")) * 1024 * 1024).toBe(PARSE_BUDGET.memoryBytes);
  });
});
