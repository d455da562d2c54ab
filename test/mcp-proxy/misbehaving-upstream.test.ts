import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cliPath, repoRoot } from '../cli/run-cli.js';
import { slack } from '../support/slack.js';

// Each attack is shown twice against the same real, lenient MCP server: straight to it
// (the unprotected path, where it works) and through `hookwise mcp-proxy` (where it fails).
const serverPath = path.join(repoRoot, 'test/fixtures/mcp/misbehaving-server.mjs');
const policy = path.join(repoRoot, 'test/fixtures/mcp/guarded.config.mjs');
const SECRET = 'ghp_' + 'aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6';

let dir: string;
let callLog: string;
let hookLog: string;
const clients: Client[] = [];

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'hookwise-mcp-mal-'));
  callLog = path.join(dir, 'calls.log');
  hookLog = path.join(dir, 'hooks.log');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => {
  writeFileSync(callLog, '');
  writeFileSync(hookLog, '');
});
afterEach(async () => {
  while (clients.length) await clients.pop()!.close();
});

async function connect(args: string[], extraEnv: Record<string, string> = {}, maxBufferSize?: number): Promise<Client> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  Object.assign(env, { NO_COLOR: '1', FIXTURE_CALL_LOG: callLog, HOOK_LOG: hookLog }, extraEnv);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env,
    cwd: repoRoot,
    stderr: 'pipe',
    ...(maxBufferSize === undefined ? {} : { maxBufferSize }),
  });
  const client = new Client({ name: 'test-client', version: '1' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const direct = (env: Record<string, string> = {}, maxBufferSize?: number) => connect([serverPath], env, maxBufferSize);
const viaProxy = (env: Record<string, string> = {}, extra: string[] = []) =>
  connect([cliPath, 'mcp-proxy', '--config', policy, '--name', 'mal', ...extra, '--', process.execPath, serverPath], env);

const ran = () => readFileSync(callLog, 'utf8').split('\n').filter(Boolean);
const fired = () =>
  existsSync(hookLog)
    ? readFileSync(hookLog, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { event: string; tool: string; response?: unknown })
    : [];

describe('mcp-proxy: the policy judges the tool that runs', { timeout: slack(120_000) }, () => {
  const lookAlikes = [
    'DANGER',
    'danger\u200b',
    ' danger',
    'danger ',
    '\uff44\uff41\uff4e\uff47\uff45\uff52',
    'dan\u00adger',
    'd\u0430nger',
  ];

  it('unprotected: the lenient server runs `danger` for every look-alike name', async () => {
    const client = await direct();
    for (const name of lookAlikes.slice(0, 6)) {
      expect(await client.callTool({ name, arguments: {} })).toEqual({ content: [{ type: 'text', text: 'ran danger' }] });
    }
    expect(ran()).toEqual(Array(6).fill('danger'));
  });

  it('through the proxy: `danger` is denied by name and every look-alike is refused with an MCP error naming the listed tool', async () => {
    const client = await viaProxy();
    expect(await client.callTool({ name: 'danger', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'danger is off limits' }],
      isError: true,
    });
    for (const name of lookAlikes) {
      const refused = client.callTool({ name, arguments: {} });
      await expect(refused).rejects.toThrow(/lists no tool named .*(did you mean "danger"\?|Call one of the tools)/);
      await expect(refused).rejects.toMatchObject({ code: -32602 });
    }
    expect(ran()).toEqual([]);
    // Refused before the policy: only the exact name reached PreToolUse.
    expect(fired().map((f) => `${f.event}:${f.tool}`)).toEqual(['PreToolUse:mcp__mal__danger']);
  });

  it('a tool the upstream never listed: runs unprotected, refused through the proxy', async () => {
    expect(await (await direct()).callTool({ name: 'hidden', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'ran hidden' }] });
    expect(ran()).toEqual(['hidden']);
    writeFileSync(callLog, '');
    await expect((await viaProxy()).callTool({ name: 'hidden', arguments: {} })).rejects.toThrow(
      /the upstream server "mal" lists no tool named "hidden"\. Call one of the tools its tools\/list returns/,
    );
    expect(ran()).toEqual([]);
  });

  it('listed names a lenient server could confuse, and listed names with invisible characters, are not called', async () => {
    const client = await viaProxy({ FIXTURE_EXTRA_TOOLS: 'Echo,sn\u200bake' });
    await expect(client.callTool({ name: 'Echo', arguments: {} })).rejects.toThrow(
      /lists "Echo" and "echo", names that differ only by case/,
    );
    await expect(client.callTool({ name: 'echo', arguments: {} })).rejects.toThrow(/cannot know which one a lenient server runs/);
    await expect(client.callTool({ name: 'sn\u200bake', arguments: {} })).rejects.toThrow(
      /"sn\\u200bake", but it contains invisible characters/,
    );
    expect(ran()).toEqual([]);
    // An ordinary listed name still works.
    expect(await client.callTool({ name: 'leak', arguments: { where: 'none' } })).toEqual({
      content: [{ type: 'text', text: 'nothing to see' }],
    });
  });
});

describe('mcp-proxy: every part of a result is judged', { timeout: slack(120_000) }, () => {
  const places = ['content', 'structured', 'meta', 'error', 'resource-text', 'resource-blob', 'extra-field'] as const;
  const decoded = (r: unknown) =>
    JSON.stringify(r).replace(/"blob":"([^"]*)"/g, (_m, b64: string) => JSON.stringify(Buffer.from(b64, 'base64').toString('utf8')));

  it('unprotected: the secret reaches the client in every part', async () => {
    const client = await direct();
    for (const where of places) expect(decoded(await client.callTool({ name: 'leak', arguments: { where } }))).toContain(SECRET);
    await expect(client.callTool({ name: 'leak', arguments: { where: 'protocol-error' } })).rejects.toThrow(SECRET);
  });

  it('through the proxy: the secret guard redacts content, structuredContent, _meta, error results, resource text and blobs, other fields', async () => {
    const client = await viaProxy();
    for (const where of places) {
      const result = await client.callTool({ name: 'leak', arguments: { where } });
      expect(decoded(result), where).not.toContain(SECRET);
      expect(JSON.stringify(result), where).toContain('[REDACTED:github-token]');
    }
    const error = await client.callTool({ name: 'leak', arguments: { where: 'error' } });
    expect(error).toEqual({ content: [{ type: 'text', text: 'failed with token [REDACTED:github-token]' }], isError: true });
    const structured = await client.callTool({ name: 'leak', arguments: { where: 'structured' } });
    expect(structured).toEqual({
      content: [{ type: 'text', text: 'nothing to see' }],
      structuredContent: { token: '[REDACTED:github-token]' },
    });
    // The upstream's JSON-RPC error is output the model reads: an error result, redacted.
    const protocol = await client.callTool({ name: 'leak', arguments: { where: 'protocol-error' } });
    expect(protocol.isError).toBe(true);
    expect(JSON.stringify(protocol)).not.toContain(SECRET);
    expect(JSON.stringify(protocol)).toContain('database said: token [REDACTED:github-token]');
  });

  it('PostToolUse sees the whole result when it has more than content, isError included', async () => {
    const client = await viaProxy();
    await client.callTool({ name: 'leak', arguments: { where: 'meta' } });
    await client.callTool({ name: 'leak', arguments: { where: 'error' } });
    await client.callTool({ name: 'leak', arguments: { where: 'none' } });
    const posts = fired().filter((f) => f.event === 'PostToolUse');
    expect(posts.map((p) => p.response)).toEqual([
      { content: [{ type: 'text', text: 'nothing to see' }], _meta: { debug: `token ${SECRET}` } },
      { content: [{ type: 'text', text: `failed with token ${SECRET}` }], isError: true },
      [{ type: 'text', text: 'nothing to see' }],
    ]);
  });
});

describe('mcp-proxy: a result too large', { timeout: slack(120_000) }, () => {
  it(
    'unprotected: the server sends all 30 MB to a client that reads it',
    async () => {
      // A plain JSON-RPC exchange over the server's stdio (the SDK client's own buffer copies each chunk, too slow for 30 MB).
      const server = spawn(process.execPath, [serverPath], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'inherit'] });
      const send = (m: object) => server.stdin.write(`${JSON.stringify(m)}\n`);
      const lines: number[] = [];
      let current = 0;
      const answered = new Promise<void>((resolve) => {
        server.stdout.on('data', (chunk: Buffer) => {
          for (let at = chunk.indexOf(10), from = 0; ; at = chunk.indexOf(10, from)) {
            if (at === -1) {
              current += chunk.length - from;
              break;
            }
            lines.push(current + at - from);
            current = 0;
            from = at + 1;
            if (lines.length === 2) resolve();
          }
        });
      });
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'big', arguments: { mb: 30 } } });
      await answered;
      server.stdin.end();
      await once(server, 'exit');
      expect(lines[1]).toBeGreaterThan(30 * 1024 * 1024);
    },
    slack(120_000),
  );

  it(
    'through the proxy: refused with an error that says why, and the proxy keeps serving',
    async () => {
      const client = await viaProxy();
      await expect(client.callTool({ name: 'big', arguments: { mb: 30 } })).rejects.toThrow(
        /the upstream server sent a message of 31,457,\d{3} bytes, over the proxy's limit of 16,777,216 bytes \(--max-message-bytes\)/,
      );
      expect(await client.callTool({ name: 'echo', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'ran echo' }] });
      expect(fired().map((f) => f.event)).toEqual(['PreToolUse', 'PostToolUseFailure', 'PreToolUse', 'PostToolUse']);
    },
    slack(120_000),
  );

  it(
    'a limit set with --max-message-bytes; an over-long line with no id fails the calls waiting for it',
    async () => {
      const client = await viaProxy({}, ['--max-message-bytes', '100000']);
      await expect(client.callTool({ name: 'big', arguments: { mb: 1 } })).rejects.toThrow(/over the proxy's limit of 100,000 bytes/);
      await expect(client.callTool({ name: 'garbage', arguments: { mb: 1 } })).rejects.toThrow(/over the proxy's limit of 100,000 bytes/);
      expect(await client.callTool({ name: 'echo', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'ran echo' }] });
    },
    slack(120_000),
  );

  it('an HTTP upstream: a result over the limit is refused after it arrived, and the proxy keeps serving', async () => {
    const http = spawn(process.execPath, [path.join(repoRoot, 'test/fixtures/mcp/server.mjs'), '--http', '0'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const [chunk] = (await once(http.stdout, 'data')) as [Buffer];
      const url = `http://127.0.0.1:${String(chunk).trim()}/mcp`;
      const client = await connect([
        cliPath,
        'mcp-proxy',
        '--config',
        policy,
        '--name',
        'mal',
        '--max-message-bytes',
        '100000',
        '--url',
        url,
      ]);
      await expect(client.callTool({ name: 'echo', arguments: { text: 'z'.repeat(200_000) } })).rejects.toThrow(
        /the result of echo is 200,0\d\d bytes, over the proxy's limit of 100,000 bytes/,
      );
      expect(await client.callTool({ name: 'echo', arguments: { text: 'small' } })).toEqual({ content: [{ type: 'text', text: 'small' }] });
      await clients.pop()!.close();
    } finally {
      http.kill('SIGTERM');
      await once(http, 'exit');
    }
  });
});
