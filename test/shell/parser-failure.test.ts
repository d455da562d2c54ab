import { describe, expect, it } from 'vitest';
import { BashParser, ParseRefused, PARSE_BUDGET } from '../../src/shell/parser.js';

const NO_LIMITS = { chars: Infinity, pipes: Infinity, nesting: Infinity };
const MiB = 1024 * 1024;

/** The commands of a parse, read from the tree (then deleted). */
function commandsOf(parser: BashParser, source: string): string[] {
  const tree = parser.parse(source);
  try {
    return tree.rootNode.descendantsOfType('command').map((n) => n!.text);
  } finally {
    tree.delete();
  }
}

describe('BashParser: a failed parse is refused alone', () => {
  it('refuses over-limit input before parsing, and the parser goes on as it was', async () => {
    const parser = await new BashParser().load();
    expect(() => parser.parse(`true${' | true'.repeat(20000)} | rm -rf /etc`)).toThrow(ParseRefused);
    expect(parser.generation).toBe(1);
    expect(commandsOf(parser, 'ls -la')).toEqual(['ls -la']);
  });

  it('a runtime that aborts (out of its memory) is replaced, and the next parse is right', async () => {
    // The shape of issue 23's command, too long for a 33 MiB runtime: it aborts as the
    // 2 GiB one did on 20,000 pipes. Without the limits and budget that stop it first.
    const parser = await new BashParser({ memoryCeilingBytes: 33 * MiB }).load();
    const attack = `true${' | true'.repeat(3000)} | rm -rf /etc`;
    let refused: unknown;
    try {
      parser.parse(attack, NO_LIMITS, { timeMs: Infinity, memoryBytes: Infinity });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ParseRefused);
    expect((refused as Error).message).toBe('the bash parser failed on this command (Aborted()); it is reloaded for the next one');
    await parser.load();
    expect(parser.generation).toBe(2);
    expect(commandsOf(parser, 'ls')).toEqual(['ls']);
    expect(commandsOf(parser, 'git status | grep -v foo')).toEqual(['git status', 'grep -v foo']);
  });

  it('a parse past its time cancels, and the next parse does not resume it', async () => {
    const parser = await new BashParser().load();
    const long = `a${' | a'.repeat(100)}`;
    // A budget of 0 ms is spent at the parser's first check, whatever the machine's speed.
    expect(() => parser.parse(long, undefined, { ...PARSE_BUDGET, timeMs: 0 })).toThrow(
      'parsing the command took over 0 ms; hookwise refuses what it cannot parse in time',
    );
    expect(parser.ready).toBe(false);
    await parser.load();
    // web-tree-sitter resumes a cancelled parse on the same instance: this would be the pipeline.
    expect(commandsOf(parser, 'ls')).toEqual(['ls']);
  });

  it('a parse past its memory cancels, and a new instance starts with its memory back', async () => {
    const parser = await new BashParser().load();
    expect(() => parser.parse(`a${' | a'.repeat(100)}`, undefined, { ...PARSE_BUDGET, memoryBytes: 0 })).toThrow(
      'parsing the command took over 0 MiB of memory; hookwise refuses what it cannot parse in time',
    );
    await parser.load();
    expect(parser.generation).toBe(2);
    expect(commandsOf(parser, 'echo hi')).toEqual(['echo hi']);
  });

  it('before it is loaded again, a parse is refused, not run on the failed instance', async () => {
    const parser = await new BashParser().load();
    parser.failed();
    expect(() => parser.parse('ls')).toThrow(/the bash parser is not loaded/);
    await parser.load();
    expect(commandsOf(parser, 'ls')).toEqual(['ls']);
  });
});
