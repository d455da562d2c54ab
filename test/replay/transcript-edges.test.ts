import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../audit/helpers.js';
import { runCli } from '../cli/run-cli.js';
import { slack } from '../support/slack.js';

// Transcripts shaped as Claude Code 2.1.197 writes them, cut down to the entries replay
// reads: what the summary says beside its exit status, a line that is JSON but not an
// entry, a call that ran and failed, and the turns of a -p session fed two prompts.

const NO_LS = `export default { hooks: [{ name: 'no-ls', events: 'PreToolUse', matcher: { tool: 'Bash', command: '^ls' }, handler: () => ({ decision: 'deny', reason: 'no ls' }) }] };\n`;

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  writeFileSync(path.join(dir, 'no-ls.mjs'), NO_LS);
});
afterEach(() => cleanup());

const replay = (args: string[]) => runCli(['replay', ...args, '--config', 'no-ls.mjs'], { cwd: dir });

const use = (id: string, command: string) =>
  JSON.stringify({
    type: 'assistant',
    sessionId: 's1',
    message: { content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] },
  });
const result = (id: string, content: string, isError: boolean, promptId?: string) =>
  JSON.stringify({
    type: 'user',
    sessionId: 's1',
    ...(promptId ? { promptId } : {}),
    message: { content: [{ type: 'tool_result', tool_use_id: id, content, is_error: isError }] },
  });
const prompt = (text: string, promptId?: string) =>
  JSON.stringify({ type: 'user', sessionId: 's1', ...(promptId ? { promptId } : {}), message: { content: text } });

function transcript(name: string, lines: string[]): string {
  writeFileSync(path.join(dir, name), `${lines.join('\n')}\n`);
  return name;
}

describe('replay: what it reports agrees with what it exits', { timeout: slack(120_000) }, () => {
  it('a line that is JSON but an array is unreadable: exit 2, and the headline does not say "no differences"', async () => {
    const file = transcript('array.jsonl', ['[1,2]']);
    const r = await replay([file]);
    expect(r.stderr).toMatch(/array\.jsonl:1: not a JSON object/);
    expect(r.stdout).not.toMatch(/^no differences:/);
    expect(r.stdout).toMatch(/1 line could not be read/);
    expect(r.code).toBe(2);
  });

  it('unreadable lines beside calls that replay the same: exit 2, and the headline says the replay is incomplete', async () => {
    const file = transcript('mixed.jsonl', [prompt('go'), use('t1', 'echo hi'), result('t1', 'hi', false), 'not json']);
    const r = await replay([file]);
    expect(r.stdout).toMatch(/^no differences among the 1 calls replayed, but 1 line could not be read/);
    expect(r.code).toBe(2);
  });

  it('a call that ran and failed (exit code 2) is replayed: a refusal of it today is a difference', async () => {
    const file = transcript('failed.jsonl', [prompt('go'), use('t1', 'ls missing'), result('t1', 'Exit code 2\nls: cannot access', true)]);
    const r = await replay([file, '--json']);
    const [line] = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect([line.input.command, line.was, line.now]).toEqual(['ls missing', 'allowed', 'refused']);
    expect(r.code).toBe(1);
  });

  it('a call Claude Code itself refused never ran: not replayed, and said so', async () => {
    const file = transcript('refused.jsonl', [
      prompt('go'),
      use('t1', 'ls'),
      result('t1', '<tool_use_error>InputValidationError</tool_use_error>', true),
    ]);
    const r = await replay([file]);
    expect(r.stderr).toMatch(/refused by Claude Code itself, not by a hook: it never ran/);
    expect(r.stderr).toContain('replayed 0 tool calls');
    expect(r.code).toBe(0);
  });

  it('identical calls are judged once; --no-cache judges each, for a hook that counts calls', async () => {
    // Refuses the second call it sees: a hook with memory, which the cache does not suit.
    writeFileSync(
      path.join(dir, 'second.mjs'),
      `let n = 0;\nexport default { hooks: [{ name: 'second', events: 'PreToolUse', handler: () => (++n === 2 ? { decision: 'deny', reason: 'second call' } : undefined) }] };\n`,
    );
    const file = transcript('twice.jsonl', [
      prompt('go'),
      use('t1', 'echo same'),
      result('t1', 'same', false),
      use('t2', 'echo same'),
      result('t2', 'same', false),
    ]);
    const cached = await runCli(['replay', file, '--json', '--config', 'second.mjs'], { cwd: dir });
    expect(cached.stdout).toBe('');
    expect(cached.code).toBe(0);
    const each = await runCli(['replay', file, '--json', '--config', 'second.mjs', '--no-cache'], { cwd: dir });
    expect(
      each.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).at),
    ).toEqual([4]);
    expect(each.code).toBe(1);
  });

  it("a -p session fed two prompts: the second prompt's calls are turn 2 (by promptId), not turn 1", async () => {
    const file = transcript('two-prompts.jsonl', [
      prompt('first', 'p-1'),
      use('t1', 'ls a'),
      result('t1', 'a', false, 'p-1'),
      // The second prompt was queued while the agent worked: no user text entry of its own.
      use('t2', 'ls b'),
      result('t2', 'b', false, 'p-2'),
    ]);
    const r = await replay([file, '--json']);
    const lines = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.input.command, l.turn])).toEqual([
      ['ls a', 1],
      ['ls b', 2],
    ]);
  });
});
