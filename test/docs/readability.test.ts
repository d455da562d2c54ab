import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/agents.md and docs/security.md are read in one pass (issue 40): short sentences,
 * tables of short facts. The limits, and why these:
 *
 * - a page's sentences average at most 20 words (plain-language guides aim at 15-20);
 * - no sentence is over 40 words (two of the 20-word kind);
 * - no table cell is over 60 words (about three lines of a wide table: a longer fact
 *   goes in a short section under the table, linked from it).
 *
 * A sentence ends at `.`, `!` or `?` before a space and a word that is not lower case
 * (so `e.g. x` and `node -e 0` do not end one), and at the end of a paragraph, a list
 * item or a table cell. Code blocks, headings and HTML are not prose; inline code and a
 * link's text count as one word and as their words.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const PAGES = ['docs/agents.md', 'docs/security.md'];
const LIMITS = { averageSentence: 20, longestSentence: 40, longestCell: 60 };

interface Reading {
  averageSentence: number;
  longestSentence: { words: number; text: string };
  longestCell: { words: number; text: string };
}

function wordsOf(text: string): number {
  return text
    .replace(/`[^`]*`/g, 'code')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .split(/\s+/)
    .filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

function sentencesOf(unit: string): string[] {
  return unit
    .replace(/`[^`]*`/g, 'code')
    .replace(/\b(e\.g|i\.e|etc|vs)\./g, '$1')
    .split(/(?<=[.!?])\s+(?=[^a-z])/)
    .filter((s) => wordsOf(s) > 0);
}

/** Paragraphs and list items (`prose`), and table cells, of a Markdown page. */
function unitsOf(page: string): { prose: string[]; cells: string[] } {
  const body = page.replace(/^```[\s\S]*?^```/gm, '').replace(/<[^>]+>/g, '');
  const prose: string[] = [];
  const cells: string[] = [];
  let paragraph: string[] = [];
  const end = () => {
    if (paragraph.length > 0) prose.push(paragraph.join(' '));
    paragraph = [];
  };
  for (const line of body.split('\n')) {
    if (/^\s*\|/.test(line)) {
      end();
      if (!/^\s*\|[\s|:-]+\|\s*$/.test(line))
        cells.push(
          ...line
            .trim()
            .replace(/^\||\|$/g, '')
            .split(/(?<!\\)\|/)
            .map((c) => c.trim()),
        );
    } else if (/^\s*$/.test(line) || line.startsWith('#')) {
      end();
    } else if (/^\s*([-*]|\d+\.)\s/.test(line)) {
      end();
      paragraph.push(line.replace(/^\s*([-*]|\d+\.)\s/, ''));
    } else {
      paragraph.push(line.trim());
    }
  }
  end();
  return { prose, cells };
}

function longest(texts: string[]): { words: number; text: string } {
  return texts.reduce((a, text) => (wordsOf(text) > a.words ? { words: wordsOf(text), text } : a), { words: 0, text: '' });
}

function read(page: string): Reading {
  const { prose, cells } = unitsOf(page);
  const sentences = [...prose, ...cells].flatMap(sentencesOf);
  const total = sentences.reduce((sum, s) => sum + wordsOf(s), 0);
  return { averageSentence: total / sentences.length, longestSentence: longest(sentences), longestCell: longest(cells) };
}

describe('docs read in one pass', () => {
  it.each(PAGES)('%s: short sentences and short table cells', (page) => {
    const reading = read(readFileSync(path.join(ROOT, page), 'utf8'));
    expect(reading.averageSentence, 'average words per sentence').toBeLessThanOrEqual(LIMITS.averageSentence);
    expect(reading.longestSentence.words, `longest sentence: ${reading.longestSentence.text}`).toBeLessThanOrEqual(LIMITS.longestSentence);
    expect(reading.longestCell.words, `longest table cell: ${reading.longestCell.text}`).toBeLessThanOrEqual(LIMITS.longestCell);
  });

  it('the measure counts what a reader meets', () => {
    const page = [
      '# A heading is not counted',
      '',
      'One short sentence. Another one, e.g. this, with `inline code here` in it!',
      '',
      '- a list item is one',
      '',
      '```sh',
      'node -e "code blocks are not prose. At all."',
      '```',
      '',
      '| a | b |',
      '|---|---|',
      '| one two three | [a link](x.md) |',
    ].join('\n');
    const reading = read(page);
    expect(reading.longestSentence).toEqual({ words: 8, text: 'Another one, e.g this, with code in it!' });
    expect(reading.longestCell).toEqual({ words: 3, text: 'one two three' });
    expect(reading.averageSentence).toBeCloseTo((3 + 8 + 5 + 1 + 1 + 3 + 2) / 7);
  });
});
