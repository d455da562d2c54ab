import { resolveToolName, startRecordingServer } from './recording-server.mjs';

/**
 * A local stand-in for the Gemini API (`models/<model>:streamGenerateContent` and
 * `:generateContent`), for Gemini CLI through `GOOGLE_GEMINI_BASE_URL`. The script works
 * as in ./mock-openai.mjs: the user's prompt carries `SCRIPT: [{"name":…,"args":{…}}, …]`,
 * each response makes the next call as a `functionCall` part, then says "done"; every
 * request is recorded so a test can ask what reached the model. Gemini CLI's own side
 * calls (a JSON-schema answer: next speaker, loop checks) get a neutral JSON answer and
 * are not counted as model turns.
 */
export function startMockGemini() {
  return startRecordingServer({
    describe: (body) => ({ side: isSideCall(body) }),
    /** The agent's turns: not its side calls. */
    isTurn: (r) => !r.side && /GenerateContent|:generateContent/.test(r.path),
    answer: ({ path, body, side }, res) => {
      if (path.includes(':countTokens')) return json(res, { totalTokens: 1 });
      if (!path.includes('GenerateContent') && !path.includes(':generateContent')) return json(res, { models: [] });
      const r = side ? { text: '{"reasoning":"the model is done","next_speaker":"user"}' } : reply(body);
      const response = responseOf(r, body);
      if (path.includes(':streamGenerateContent')) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.end(`data: ${JSON.stringify(response)}\r\n\r\n`);
      } else json(res, response);
    },
  });
}

const json = (res, value) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
};

/** A call that asks for JSON by schema is Gemini CLI's own bookkeeping, not a turn of the agent. */
const isSideCall = (body) => Boolean(body.generationConfig?.responseJsonSchema || body.generationConfig?.responseSchema);

const textOf = (parts) => (parts ?? []).map((p) => p.text ?? '').join('\n');

function reply(body) {
  const contents = Array.isArray(body.contents) ? body.contents : [];
  let script;
  for (const c of contents) {
    const match = c.role === 'user' ? /SCRIPT: (\[.*\])/.exec(textOf(c.parts)) : null;
    if (match) script = JSON.parse(match[1]);
  }
  if (!script) return { text: 'ok' };
  const made = contents.filter((c) => c.role === 'model').reduce((n, c) => n + (c.parts ?? []).filter((p) => p.functionCall).length, 0);
  const call = script[made];
  return call ? { call: { ...call, name: resolveToolName(call.name, body) }, n: made } : { text: 'done' };
}

function responseOf(r, body) {
  const part = r.call ? { functionCall: { name: r.call.name, args: r.call.args } } : { text: r.text };
  return {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
    modelVersion: body.model ?? 'gemini-2.5-flash',
  };
}
