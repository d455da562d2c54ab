import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const example = path.join(root, 'test/fixtures/scripts-runtime/docs-example.ts');

afterEach(() => vi.restoreAllMocks());

describe('docs/runtime.md', () => {
  it('its example is the code this test runs, with the package names in place of source paths', () => {
    const doc = readFileSync(path.join(root, 'docs/runtime.md'), 'utf8');
    const block = /```ts\n([\s\S]*?)```/.exec(doc)?.[1];
    const code = readFileSync(example, 'utf8')
      .replace("'../../../src/index.js'", "'hookwise'")
      .replace("'../../../src/runtime/index.js'", "'hookwise/runtime'");
    expect(block).toBe(code);
  });

  it('the example runs: the rm -rf is denied, the notes are written, the agent ends its turn', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    await import(example);
    expect(lines[0]).toBe('denied Bash: Error: PreToolUse hook "no-rm-rf": rm -rf is not allowed here. The tool was not run.');
    expect(lines[1]).toBe('ran Write: Wrote 8 bytes to notes.md');
    expect(lines[2]).toBe('end_turn after 3 steps: Done: notes.md is written.');
    expect(lines[3]).toMatch(/^transcript: .*\.jsonl$/);
  });
});
