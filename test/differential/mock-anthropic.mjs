import { resolveToolName, startRecordingServer } from '../agents/recording-server.mjs';

/**
 * A local stand-in for Anthropic's Messages API that Claude Code talks to
 * (ANTHROPIC_BASE_URL). The user's prompt carries the script: a line
 * `SCRIPT: [{"name":"Bash","input":{...}}, ...]`; each assistant turn makes the next
 * tool call, then the turn ends with the text "done". Every request is recorded.
 */
export function startMockAnthropic() {
  let ids = 0;
  return startRecordingServer({
    // `at`: when it arrived (bench/claude-code-mod.mjs times tool calls by the gaps between model requests).
    describe: () => ({ at: performance.now() }),
    isTurn: (r) => r.path.startsWith('/v1/messages') && !r.path.includes('count_tokens'),
    answer: (request, res) => {
      const { path, body } = request;
      // When the answer left (bench/claude-code-calls.mjs times a call from here to the next request).
      res.once('finish', () => (request.answered = performance.now()));
      // HTTP hooks of the cases answer here.
      if (path.startsWith('/hook/')) {
        const kind = path.slice('/hook/'.length);
        const answers = {
          deny: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'HTTP-deny' } },
          context: { hookSpecificOutput: { hookEventName: body.hook_event_name, additionalContext: 'HTTP-context' } },
        };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answers[kind] ?? {}));
        return;
      }
      if (!path.startsWith('/v1/messages') || path.includes('count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: 1 }));
        return;
      }
      const reply = nextReply(body);
      if (body.stream) stream(res, reply, body.model, ++ids);
      else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(message(reply, body.model, ++ids)));
      }
    },
  });
}

function textOf(content) {
  if (typeof content === 'string') return content;
  return (content ?? []).map((b) => (b.type === 'text' ? b.text : b.type === 'tool_result' ? textOf(b.content) : '')).join('\n');
}

/** The script of the conversation and how many tool calls it already made. */
export function scriptOf(body) {
  const messages = body.messages ?? [];
  for (const m of messages) {
    if (m.role !== 'user') continue;
    const match = /SCRIPT: (\[.*\])/.exec(textOf(m.content));
    if (match) return JSON.parse(match[1]);
  }
  return undefined;
}

/** Prompt hooks (Claude Code's and hookwise's) ask the model to judge: the answer is in the prompt, after `VERDICT:`. */
function verdictOf(body) {
  const system = typeof body.system === 'string' ? body.system : JSON.stringify(body.system ?? '');
  if (!/evaluating a hook condition|You judge one event/.test(system)) return undefined;
  const asked = (body.messages ?? []).map((m) => textOf(m.content)).join('\n');
  const match = /VERDICT: (\{[^}]*\})/.exec(asked);
  return match ? match[1] : '{"ok": true, "reason": "fine"}';
}

function nextReply(body) {
  const verdict = verdictOf(body);
  if (verdict) return { text: verdict };
  const script = scriptOf(body);
  if (!script) return { text: 'ok' };
  const made = (body.messages ?? []).filter(
    (m) => m.role === 'assistant' && Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_use'),
  ).length;
  const call = script[made];
  return call ? { tool: { ...call, name: resolveToolName(call.name, body) }, n: made } : { text: 'done' };
}

function message(reply, model, id) {
  const content = reply.tool
    ? [{ type: 'tool_use', id: `toolu_${id}_${reply.n}`, name: reply.tool.name, input: reply.tool.input }]
    : [{ type: 'text', text: reply.text }];
  return {
    id: `msg_${id}`,
    type: 'message',
    role: 'assistant',
    model: model ?? 'claude-sonnet-4-5',
    content,
    stop_reason: reply.tool ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}

function stream(res, reply, model, id) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const full = message(reply, model, id);
  send('message_start', { message: { ...full, content: [], stop_reason: null, usage: { ...full.usage, output_tokens: 1 } } });
  const block = full.content[0];
  if (block.type === 'tool_use') {
    send('content_block_start', { index: 0, content_block: { ...block, input: {} } });
    send('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
  } else {
    send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: block.text } });
  }
  send('content_block_stop', { index: 0 });
  send('message_delta', { delta: { stop_reason: full.stop_reason, stop_sequence: null }, usage: { output_tokens: 5 } });
  send('message_stop', {});
  res.end();
}
