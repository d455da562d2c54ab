import { resolveToolName, startRecordingServer } from './recording-server.mjs';

/**
 * A local stand-in for an OpenAI-compatible Chat Completions API (`/chat/completions`,
 * streamed or not), for agents whose provider speaks it (OpenCode through
 * `@ai-sdk/openai-compatible`, Cline through its OpenAI-compatible provider). The script
 * works as in ./mock-openai.mjs: the user's prompt carries `SCRIPT: [{"name":…,"args":{…}}, …]`,
 * each response makes the next call as a tool call, then says "done"; every request is
 * recorded so a test can ask what reached the model.
 */
export function startMockChatCompletions() {
  let ids = 0;
  return startRecordingServer({
    isTurn: (r) => r.path.includes('/chat/completions'),
    answer: ({ path, body }, res) => {
      if (!path.includes('/chat/completions')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"object":"list","data":[{"id":"mock","object":"model"}]}');
        return;
      }
      const r = reply(body);
      if (body.stream) stream(res, r, body.model, ++ids);
      else whole(res, r, body.model, ++ids);
    },
  });
}

function textOf(content) {
  if (typeof content === 'string') return content;
  return (content ?? []).map((b) => b.text ?? '').join('\n');
}

function reply(body) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  let script;
  for (const m of messages) {
    const match = m.role === 'user' ? /SCRIPT: (\[.*\])/.exec(textOf(m.content)) : null;
    // A prompt quoted inside another (OpenCode's title request carries it JSON-escaped) is not the script.
    if (match) {
      try {
        script = JSON.parse(match[1]);
      } catch {}
    }
  }
  if (!script) return { text: 'ok' };
  const made = messages.filter((m) => m.role === 'assistant').reduce((n, m) => n + (m.tool_calls?.length ?? 0), 0);
  const call = script[made];
  return call ? { call: { ...call, name: resolveToolName(call.name, body) }, n: made } : { text: 'done' };
}

const toolCall = (r, id) => ({
  id: `call_${id}_${r.n}`,
  type: 'function',
  function: { name: r.call.name, arguments: JSON.stringify(r.call.args) },
});
const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };

function whole(res, r, model, id) {
  const message = r.call ? { role: 'assistant', content: null, tool_calls: [toolCall(r, id)] } : { role: 'assistant', content: r.text };
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id: `chatcmpl_${id}`,
      object: 'chat.completion',
      created: 1,
      model,
      choices: [{ index: 0, message, finish_reason: r.call ? 'tool_calls' : 'stop' }],
      usage,
    }),
  );
}

function stream(res, r, model, id) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta, finish_reason = null, extra = {}) =>
    res.write(
      `data: ${JSON.stringify({ id: `chatcmpl_${id}`, object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason }], ...extra })}\n\n`,
    );
  chunk({ role: 'assistant', content: '' });
  if (r.call) chunk({ tool_calls: [{ index: 0, ...toolCall(r, id) }] });
  else chunk({ content: r.text });
  chunk({}, r.call ? 'tool_calls' : 'stop', { usage });
  res.write('data: [DONE]\n\n');
  res.end();
}
