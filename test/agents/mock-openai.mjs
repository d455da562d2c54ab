import { resolveTool, startRecordingServer } from './recording-server.mjs';

/**
 * A local stand-in for OpenAI's Responses API (Codex through a custom provider's
 * base_url, Copilot through BYOK). The user's prompt carries the script, a line
 * `SCRIPT: [{"name":…,"args":{…}}, …]`; each response makes the next call as a function
 * call (a custom tool call, free text, for `{"custom":true,"name":…,"input":"…"}`),
 * then says "done". Every request is recorded, so a test can ask whether a
 * reason or a context reached the model.
 */
export function startMockOpenAI() {
  let ids = 0;
  return startRecordingServer({
    isTurn: (r) => r.path.includes('/responses'),
    answer: ({ path, body }, res) => {
      if (!path.includes('/responses')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"object":"list","data":[]}');
        return;
      }
      stream(res, reply(body), body.model, ++ids);
    },
  });
}

function textOf(content) {
  if (typeof content === 'string') return content;
  return (content ?? []).map((b) => b.text ?? '').join('\n');
}

function reply(body) {
  const input = Array.isArray(body.input) ? body.input : [];
  let script;
  for (const item of input) {
    const match = item.role === 'user' ? /SCRIPT: (\[.*\])/.exec(textOf(item.content)) : null;
    if (match) script = JSON.parse(match[1]);
  }
  if (!script) return { text: 'ok' };
  const made = input.filter((i) => (i.type === 'function_call' || i.type === 'custom_tool_call') && !retried(input).has(i.call_id)).length;
  const call = script[made];
  return call ? { call: { ...call, ...resolveTool(call.name, body) }, n: made } : { text: 'done' };
}

/**
 * An MCP step the agent did not offer yet is made again, as a model would (at most twice):
 * droid connects its MCP servers while the run starts, and answers a call of a tool not yet
 * listed "Not found: …", naming the tool's exact name (`sentinel___touch`) for the retry.
 */
function retried(input) {
  const outputText = (o) => (typeof o === 'string' ? o : JSON.stringify(o ?? ''));
  const notFound = input.filter((i) => i.type === 'function_call_output' && /Not found: @mcp:/.test(outputText(i.output)));
  return new Set(notFound.slice(0, 2).map((i) => i.call_id));
}

function stream(res, r, model, id) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const base = { id: `resp_${id}`, object: 'response', created_at: 1, model, status: 'in_progress', output: [] };
  const item = r.call?.custom
    ? {
        type: 'custom_tool_call',
        id: `ctc_${id}`,
        call_id: `call_${id}_${r.n}`,
        name: r.call.name,
        input: r.call.input,
        status: 'completed',
      }
    : r.call
      ? {
          type: 'function_call',
          id: `fc_${id}`,
          call_id: `call_${id}_${r.n}`,
          name: r.call.name,
          ...(r.call.namespace && { namespace: r.call.namespace }),
          arguments: JSON.stringify(r.call.args),
          status: 'completed',
        }
      : {
          type: 'message',
          id: `msg_${id}`,
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: r.text, annotations: [] }],
        };
  send('response.created', { response: base });
  send('response.output_item.added', { output_index: 0, item });
  send('response.output_item.done', { output_index: 0, item });
  const usage = { input_tokens: 1, input_tokens_details: null, output_tokens: 1, output_tokens_details: null, total_tokens: 2 };
  send('response.completed', { response: { ...base, status: 'completed', output: [item], usage } });
  res.end();
}
