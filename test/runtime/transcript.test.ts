import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readTranscript, type TranscriptEntry } from '../../src/runtime/index.js';
import { runNode } from '../cli/run-cli.js';
import { harness, tempDir, type Harness } from './helpers.js';
import { slack } from '../support/slack.js';

let h: Harness;
afterEach(() => h?.cleanup());

describe('JSONL transcript', () => {
  it('one line per message and per fired event, in order, each with timestamp and session id', async () => {
    h = harness();
    const result = await h.run(
      [{ text: 'writing', toolCalls: [{ name: 'Write', input: { file_path: 'a.txt', content: 'x' } }] }, { text: 'done' }],
      'make a file',
    );
    const lines = readFileSync(result.transcriptPath, 'utf8').trimEnd().split('\n');
    const entries = lines.map((l) => JSON.parse(l) as TranscriptEntry);
    expect(entries.every((e) => e.session_id === result.sessionId && !Number.isNaN(Date.parse(e.timestamp)))).toBe(true);

    const messages = entries.filter((e) => e.type !== 'hook' && e.type !== 'result');
    expect(messages.map((e) => e.type)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(messages[0]).toMatchObject({ message: { role: 'user', content: 'make a file' } });
    expect(messages[1]).toMatchObject({
      message: { role: 'assistant', content: 'writing', toolCalls: [{ id: 'call_0_0', name: 'Write' }] },
    });
    expect(messages[2]).toMatchObject({ message: { role: 'tool', toolCallId: 'call_0_0', content: 'Wrote 1 bytes to a.txt' } });

    const hooks = entries.filter((e): e is Extract<TranscriptEntry, { type: 'hook' }> => e.type === 'hook');
    expect(hooks.map((e) => e.event)).toEqual(h.names());
    expect(hooks[0]).toMatchObject({ event: 'SessionStart', decision: null, blocked: false, hooks: ['recorder'] });
    expect(entries.at(-2)).toMatchObject({ type: 'result', stop_reason: 'end_turn', steps: 2 });
    expect(entries.at(-1)).toMatchObject({ type: 'hook', event: 'SessionEnd' });
  });

  it('a hook reading transcript_path sees every message written before it fired', async () => {
    let seenAtStop: TranscriptEntry[] = [];
    h = harness([{ name: 'reader', events: 'Stop', handler: (input) => void (seenAtStop = readTranscript(input.transcript_path!)) }]);
    await h.run([{ text: 'final words' }]);
    const last = seenAtStop.filter((e) => e.type === 'assistant').at(-1);
    expect(last).toMatchObject({ message: { content: 'final words' } });
  });

  it('a subagent writes its own file, every line tagged with its agent id', async () => {
    h = harness();
    await h.run([
      { toolCalls: [{ name: 'Task', input: { description: 'd', prompt: 'look', subagent_type: 'x' } }] },
      { text: 'child answer' },
      { text: 'parent answer' },
    ]);
    const childPath = String(h.inputsOf('SubagentStop')[0]!.agent_transcript_path);
    expect(existsSync(childPath)).toBe(true);
    const child = readTranscript(childPath);
    expect(child.every((e) => e.agent_id === 'agent-1')).toBe(true);
    expect(
      child.filter((e) => e.type === 'user' || e.type === 'assistant').map((e) => (e as { message: { content: string } }).message.content),
    ).toEqual(['look', 'child answer']);
    const parent = readTranscript(h.inputsOf('SessionStart')[0]!.transcript_path!);
    expect(parent.some((e) => e.agent_id !== undefined)).toBe(false);
  });
});

describe('transcript durability', () => {
  // The child process runs the built runtime and kills itself inside a PostToolUse hook:
  // every line appended before that moment must be in the file.
  const child = (signal: string, dir: string) => `
    import { createAgent, builtinTools, scriptedProvider } from './dist/runtime/index.js';
    const agent = createAgent({
      provider: scriptedProvider([{ text: 'listing', toolCalls: [{ name: 'LS', input: {} }] }, { text: 'done' }]),
      tools: builtinTools(${JSON.stringify(dir)}),
      cwd: ${JSON.stringify(dir)},
      transcriptDir: ${JSON.stringify(dir)},
      sessionId: 'crash',
      hooks: [{ name: 'die', events: 'PostToolUse', handler: () => { process.kill(process.pid, '${signal}'); return new Promise(() => {}); } }],
    });
    await agent.run('list the folder');
  `;

  it.each(['SIGKILL', 'SIGTERM'])(
    'a process killed with %s mid-run leaves every line written before the kill',
    async (signal) => {
      const dir = tempDir();
      try {
        const result = await runNode(['--input-type=module', '-e', child(signal, dir)]);
        expect(result.code).toBe(null);
        const entries = readTranscript(path.join(dir, 'crash.jsonl'));
        expect(entries.map((e) => (e.type === 'hook' ? `hook:${e.event}` : e.type))).toEqual([
          'hook:SessionStart',
          'hook:UserPromptSubmit',
          'user',
          'hook:StepStart',
          'hook:PreModelCall',
          'hook:PostModelCall',
          'assistant',
          'hook:PreToolUse',
        ]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    slack(30_000),
  );
});
