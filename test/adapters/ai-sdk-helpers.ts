import type { LanguageModelV3GenerateResult, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';

export interface ScriptedCall {
  text?: string;
  calls?: Array<{ id: string; name: string; input: Record<string, unknown> }>;
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

function generateResult(turn: ScriptedCall): LanguageModelV3GenerateResult {
  const content: LanguageModelV3GenerateResult['content'] = [];
  if (turn.text) content.push({ type: 'text', text: turn.text });
  for (const c of turn.calls ?? []) content.push({ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: JSON.stringify(c.input) });
  return { content, finishReason: { unified: turn.calls?.length ? 'tool-calls' : 'stop', raw: undefined }, usage, warnings: [] };
}

function streamParts(turn: ScriptedCall): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if (turn.text)
    parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: turn.text }, { type: 'text-end', id: 't' });
  for (const c of turn.calls ?? []) parts.push({ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: JSON.stringify(c.input) });
  parts.push({ type: 'finish', finishReason: { unified: turn.calls?.length ? 'tool-calls' : 'stop', raw: undefined }, usage });
  return parts;
}

/** A MockLanguageModelV3 that answers each call with the next scripted turn (generate and stream). */
export function scriptedModel(turns: ScriptedCall[]): MockLanguageModelV3 {
  let i = 0;
  const next = () => {
    const turn = turns[i++];
    if (!turn) throw new Error(`scripted model: no turn ${i} scripted`);
    return turn;
  };
  return new MockLanguageModelV3({
    doGenerate: async () => generateResult(next()),
    doStream: async () => {
      const parts = streamParts(next());
      return {
        stream: new ReadableStream({
          start(c) {
            for (const p of parts) c.enqueue(p);
            c.close();
          },
        }),
      };
    },
  });
}
