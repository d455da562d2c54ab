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
