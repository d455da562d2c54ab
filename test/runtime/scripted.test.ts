import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadScript, ScriptError, scriptedProvider } from '../../src/providers/scripted.js';
import { ModelError, type ChatMessage } from '../../src/providers/types.js';

let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'hookwise-script-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const user = (content: string): ChatMessage => ({ role: 'user', content });

describe('scripted provider', () => {
  it('replays turns from YAML, with tool call ids derived from the turn index, then a final text', async () => {
    const file = path.join(dir, 'demo.yaml');
    writeFileSync(
      file,
      [
        'model: demo-model',
        'final: That is all.',
        'turns:',
        '  - text: looking',
        '    toolCalls:',
        '      - name: LS',
        '      - name: Read',
        '        input: { file_path: a.txt }',
        '    usage: { input_tokens: 10, output_tokens: 3 }',
        '  - text: done',
      ].join('\n'),
    );
    const provider = loadScript(file);
    expect(provider.model).toBe('demo-model');
    const first = await provider.complete({ messages: [user('hi')] });
    expect(first).toEqual({
      text: 'looking',
      toolCalls: [
        { id: 'call_0_0', name: 'LS', input: {} },
        { id: 'call_0_1', name: 'Read', input: { file_path: 'a.txt' } },
      ],
      usage: { inputTokens: 10, outputTokens: 3 },
      stopReason: 'tool_use',
    });
    expect((await provider.complete({ messages: [user('hi')] })).text).toBe('done');
    const after = await provider.complete({ messages: [user('hi')] });
    expect(after).toMatchObject({ text: 'That is all.', toolCalls: [], stopReason: 'end' });
    // Same script, same answers: deterministic, usage estimated from sizes.
    const again = loadScript(file);
    expect(await again.complete({ messages: [user('hi')] })).toEqual(first);
  });

  it('reads a JSON array of turns', async () => {
    const file = path.join(dir, 's.json');
    writeFileSync(file, JSON.stringify([{ text: 'one' }]));
    const provider = loadScript(file);
    expect(provider.model).toBe('scripted');
    expect((await provider.complete({ messages: [] })).text).toBe('one');
    expect((await provider.complete({ messages: [] })).text).toBe('Done.');
  });

  it('an expectation that fails is a provider error naming the script and turn', async () => {
    const provider = scriptedProvider([{ text: 'x', expect: { toolResultContains: 'needle' } }], 'my.yaml');
    const messages: ChatMessage[] = [
      user('hi'),
      { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'LS', input: {} }] },
      { role: 'tool', toolCallId: 'c', name: 'LS', content: 'haystack' },
    ];
    const error = await provider.complete({ messages }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as Error).message).toBe('my.yaml turn 0: expectation failed: no tool result contains "needle"; got: haystack');
  });

  it('an error turn throws the ModelError a real provider would', async () => {
    const provider = scriptedProvider([{ error: { kind: 'rate_limit', retryAfterMs: 250 } }]);
    const error = (await provider.complete({ messages: [] }).catch((e: unknown) => e)) as ModelError;
    expect(error).toMatchObject({ kind: 'rate_limit', status: 429, retryAfterMs: 250 });
  });

  it('a bad script is refused naming the file and the field', () => {
    const file = path.join(dir, 'bad.yaml');
    writeFileSync(file, 'turns:\n  - toolCalls:\n      - input: {}\n');
    expect(() => loadScript(file)).toThrow(ScriptError);
    expect(() => loadScript(file)).toThrow(/bad\.yaml: invalid script at turns\.0\.toolCalls\.0\.name/);
    writeFileSync(file, 'turns: [\n');
    expect(() => loadScript(file)).toThrow(/bad\.yaml: not valid YAML/);
    expect(() => loadScript(path.join(dir, 'none.yaml'))).toThrow(/none\.yaml: cannot read script/);
  });
});
