import { createServer } from 'node:http';

/**
 * What every mock model API of the suite shares: a loopback server that records each
 * request (`path`, parsed `body`, `raw` text, and whatever `describe` adds) before
 * `answer` replies, and the requests that are the agent's own model turns: those
 * `isTurn` accepts that carry the script (`SCRIPT: [...]` in the user's prompt).
 */
export async function startRecordingServer({ answer, isTurn, describe = () => ({}) }) {
  const requests = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      let body = {};
      try {
        body = JSON.parse(raw);
      } catch {}
      const request = { path: req.url, body, raw, ...describe(body) };
      requests.push(request);
      answer(request, res);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    modelRequests: () => requests.filter((r) => isTurn(r) && /SCRIPT: /.test(r.raw)),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * A script step may name an MCP tool as `@mcp:<tool>`: each agent exposes the sentinel
 * server's tool under its own name (`mcp__sentinel__touch`, `sentinel-touch`, …), read here
 * from the tools the agent offered in this very request (every API's shape; a Responses
 * `namespace` of tools, as Codex groups an MCP server's, gives the call's `namespace`;
 * a tool the agent defers is found by its name in the prompt).
 * Unresolved, the name stays as it is and the agent reports an unknown tool.
 */
export function resolveToolName(name, body) {
  return resolveTool(name, body).name;
}

export function resolveTool(name, body) {
  if (typeof name !== 'string' || !name.startsWith('@mcp:')) return { name };
  const tool = name.slice('@mcp:'.length);
  const offered = (body.tools ?? []).flatMap((t) => [
    { name: t.name },
    { name: t.function?.name },
    ...(t.functionDeclarations ?? []).map((f) => ({ name: f.name })),
    ...(t.type === 'namespace' ? (t.tools ?? []).map((f) => ({ name: f.name, namespace: t.name })) : []),
  ]);
  const sentinel = (o) => typeof o.name === 'string' && `${o.namespace ?? ''}${o.name}`.includes('sentinel') && o.name.endsWith(tool);
  // droid and Claude Code defer MCP tools: named only in a list of the prompt (`sentinel___touch`, `mcp__sentinel__touch`), called by that name.
  const deferred = new RegExp(`(?:mcp__)?sentinel[\\w-]*${tool}\\b`).exec(JSON.stringify(body.input ?? body.messages ?? ''));
  return offered.find(sentinel) ?? (deferred ? { name: deferred[0] } : { name });
}
