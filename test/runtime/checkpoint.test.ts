import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedProvider } from '../../src/providers/scripted.js';
import { builtinTools, RunCheckpointError, createAgent, loadCheckpoint, readTranscript } from '../../src/runtime/index.js';
import { harness, type Harness } from './helpers.js';

let h: Harness;
afterEach(() => h?.cleanup());

describe('checkpoint and resume', () => {
  it('a run interrupted after its first step resumes from the checkpoint file in the same session', async () => {
    const controller = new AbortController();
    h = harness([
      { name: 'crash-after-first-checkpoint', events: 'Checkpoint', handler: () => void controller.abort(new Error('power cut')) },
    ]);
    await expect(
      h.run([{ toolCalls: [{ name: 'Write', input: { file_path: 'a.txt', content: 'one' } }] }], 'write two files', {
        signal: controller.signal,
        sessionId: 'sess-1',
      }),
    ).rejects.toThrow('power cut');

    const file = path.join(h.transcriptDir, 'sess-1.checkpoint.json');
    const saved = loadCheckpoint(file);
    expect(saved).toMatchObject({ session_id: 'sess-1', step: 1, cwd: h.workspace });
    expect(saved.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);

    h.engine.unregister('crash-after-first-checkpoint');
    h.fired.length = 0;
    const provider = scriptedProvider([
      {
        toolCalls: [{ name: 'Write', input: { file_path: 'b.txt', content: 'two' } }],
        expect: { toolResultContains: 'Wrote 3 bytes to a.txt' },
      },
      { text: 'both written' },
    ]);
    const agent = createAgent({
      provider,
      tools: builtinTools(h.workspace),
      hooks: h.engine,
      cwd: h.workspace,
      transcriptDir: h.transcriptDir,
    });
    const result = await agent.resume(file);

    expect(result).toMatchObject({ stopReason: 'end_turn', text: 'both written', sessionId: 'sess-1', steps: 2 });
    expect(provider.requests[0]).toEqual(saved.messages);
    expect(h.inputsOf('SessionStart')[0]).toMatchObject({ source: 'resume', session_id: 'sess-1' });
    expect(h.inputsOf('UserPromptSubmit')).toEqual([]);
    expect(h.inputsOf('StepStart').map((i) => (i.step as { index: number }).index)).toEqual([1, 2]);
    expect(readFileSync(path.join(h.workspace, 'b.txt'), 'utf8')).toBe('two');
    // One transcript for the whole session: both runs appended to it.
    const users = readTranscript(result.transcriptPath).filter((e) => e.type === 'user');
    expect(users).toHaveLength(1);
    expect(readTranscript(result.transcriptPath).filter((e) => e.type === 'result')).toHaveLength(1);
    expect(loadCheckpoint(file).step).toBe(3);
  });

  it('resume with a prompt submits it (UserPromptSubmit) before continuing', async () => {
    h = harness();
    const first = await h.run([{ text: 'first answer' }], 'first question', { sessionId: 'sess-2' });
    h.fired.length = 0;
    const provider = scriptedProvider([{ text: 'second answer', expect: { userMessageContains: 'second question' } }]);
    const agent = createAgent({ provider, hooks: h.engine, cwd: h.workspace, transcriptDir: h.transcriptDir });
    const result = await agent.resume(first.checkpointPath!, 'second question');
    expect(result.text).toBe('second answer');
    expect(h.inputsOf('UserPromptSubmit')[0]!.prompt).toBe('second question');
    expect(provider.requests[0]!.map((m) => m.content)).toEqual(['first question', 'first answer', 'second question']);
  });

  it('a damaged checkpoint is refused naming the file and the field', () => {
    h = harness();
    const file = path.join(h.transcriptDir, 'bad.checkpoint.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        session_id: 's',
        saved_at: 'x',
        cwd: '/',
        transcript_path: '/t',
        step: -1,
        messages: [],
        usage: { inputTokens: 0, outputTokens: 0 },
        stop_hook_blocks: 0,
        subagents: 0,
      }),
    );
    expect(() => loadCheckpoint(file)).toThrow(RunCheckpointError);
    expect(() => loadCheckpoint(file)).toThrow(/bad\.checkpoint\.json: invalid checkpoint at step/);
  });

  it('checkpointDir: false writes no checkpoint and fires no Checkpoint', async () => {
    h = harness();
    const result = await h.run([{ text: 'hi' }], 'p', { checkpointDir: false });
    expect(result.checkpointPath).toBeNull();
    expect(h.inputsOf('Checkpoint')).toEqual([]);
  });
});
