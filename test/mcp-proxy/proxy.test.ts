import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliPath, repoRoot } from '../cli/run-cli.js';
import { serverNameFor } from '../../src/mcp-proxy/index.js';
import { queryAudit } from '../../src/audit/index.js';

const serverPath = path.join(repoRoot, 'test/fixtures/mcp/server.mjs');
const policy = path.join(repoRoot, 'test/fixtures/mcp/policy.config.mjs');
let dir: string;
const clients: Client[] = [];

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'hookwise-mcp-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  while (clients.length) await clients.pop()!.close();
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) out[k] = v;
  return { ...out, NO_COLOR: '1', ...extra };
}

async function connect(args: string[], extraEnv: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args, env: env(extraEnv), cwd: repoRoot, stderr: 'pipe' });
  const client = new Client({ name: 'test-client', version: '1' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const viaProxy = (log: string, extra: string[] = []) =>
  connect([cliPath, 'mcp-proxy', '--config', policy, '--name', 'fixture', ...extra, '--', process.execPath, serverPath], {
    HOOK_LOG: log,
    FIXTURE_SECRET: 'xyz',
  });

function fired(log: string): Array<{ event: string; tool: string; input: unknown; response: unknown }> {
  return readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

describe('hookwise mcp-proxy', () => {
  it('presents the upstream tools, resources and prompts unchanged', async () => {
    const direct = await connect([serverPath]);
    const proxied = await viaProxy(path.join(dir, 'list.log'));
    expect(await proxied.listTools()).toEqual(await direct.listTools());
    expect(await proxied.listResources()).toEqual(await direct.listResources());
    expect(await proxied.readResource({ uri: 'fixture://readme' })).toEqual(await direct.readResource({ uri: 'fixture://readme' }));
    expect(await proxied.listPrompts()).toEqual(await direct.listPrompts());
    expect(await proxied.getPrompt({ name: 'greet', arguments: { name: 'Ada' } })).toEqual(
      await direct.getPrompt({ name: 'greet', arguments: { name: 'Ada' } }),
    );
    expect(proxied.getServerVersion()).toEqual(direct.getServerVersion());
    expect(proxied.getInstructions()).toBe('A fixture server.');
    // A call nobody has an opinion on: the same result, structured content included.
    expect(await proxied.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).toEqual(
      await direct.callTool({ name: 'add', arguments: { a: 1, b: 2 } }),
    );
  });

  it('runs every tools/call through PreToolUse/PostToolUse once, named mcp__<server>__<tool>, with tool_response', async () => {
    const log = path.join(dir, 'once.log');
    const client = await viaProxy(log);
    expect(await client.callTool({ name: 'echo', arguments: { text: 'hello' } })).toEqual({ content: [{ type: 'text', text: 'hello' }] });
    expect(fired(log)).toEqual([
      { event: 'PreToolUse', tool: 'mcp__fixture__echo', input: { text: 'hello' } },
      { event: 'PostToolUse', tool: 'mcp__fixture__echo', input: { text: 'hello' }, response: [{ type: 'text', text: 'hello' }] },
    ]);
  });

  it('deny: a tool result with isError carrying the reason, and the upstream never sees the call', async () => {
    const log = path.join(dir, 'deny.log');
    const client = await viaProxy(log);
    const result = await client.callTool({ name: 'env', arguments: { name: 'FIXTURE_SECRET' } });
    expect(result).toEqual({ content: [{ type: 'text', text: 'secrets stay secret' }], isError: true });
    expect(fired(log).map((f) => f.event)).toEqual(['PreToolUse']);
  });

  it('starts the upstream with the client environment', async () => {
    const client = await viaProxy(path.join(dir, 'env.log'));
    expect(await client.callTool({ name: 'env', arguments: { name: 'HOOK_LOG' } })).toEqual({
      content: [{ type: 'text', text: path.join(dir, 'env.log') }],
    });
  });

  it('rewrites arguments, sends a text replacement as text, and judges an upstream error result through PostToolUse', async () => {
    const log = path.join(dir, 'rewrite.log');
    const client = await viaProxy(log);
    const sum = await client.callTool({ name: 'add', arguments: { a: 100, b: 1 } });
    expect(sum).toEqual({ content: [{ type: 'text', text: '5' }], structuredContent: { sum: 5 } });
    expect(await client.callTool({ name: 'echo', arguments: { text: 'my password is x' } })).toEqual({
      content: [{ type: 'text', text: '[redacted]' }],
    });
    expect(await client.callTool({ name: 'fail', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'it broke' }],
      isError: true,
    });
    // The error result is output the model reads: PostToolUse sees all of it, isError included.
    expect(fired(log).map((f) => f.event)).toEqual(['PreToolUse', 'PostToolUse', 'PreToolUse', 'PostToolUse', 'PreToolUse', 'PostToolUse']);
    expect(fired(log).at(-1)!.response).toEqual({ content: [{ type: 'text', text: 'it broke' }], isError: true });
  });

  it('ask with no one to ask and stop are isError results; after a stop every call is refused', async () => {
    const log = path.join(dir, 'stop.log');
    const client = await viaProxy(log);
    const asked = await client.callTool({ name: 'echo', arguments: { text: 'ask' } });
    expect(asked.isError).toBe(true);
    expect(JSON.stringify(asked.content)).toMatch(/no one can approve/);
    const stopped = await client.callTool({ name: 'echo', arguments: { text: 'halt' } });
    expect(stopped).toEqual({ content: [{ type: 'text', text: 'hookwise stopped the agent: halted by policy' }], isError: true });
    const after = await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
    expect(after.isError).toBe(true);
    expect(fired(log).filter((f) => f.event === 'PostToolUse')).toEqual([]);
  });

  it('an ask goes to the human through elicitation, after the Notification hooks have run; accept runs the tool, decline refuses', async () => {
    const log = path.join(dir, 'elicit.log');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliPath, 'mcp-proxy', '--config', policy, '--name', 'fixture', '--', process.execPath, serverPath],
      env: env({ HOOK_LOG: log }),
      cwd: repoRoot,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'test-client', version: '1' }, { capabilities: { elicitation: {} } });
    const asked: Array<{ message: string; notifiedBefore: boolean }> = [];
    let answer: 'accept' | 'decline' = 'accept';
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      const message = String(request.params.message);
      asked.push({ message, notifiedBefore: fired(log).some((f) => f.event === 'Notification') });
      return { action: answer, ...(answer === 'accept' ? { content: {} } : {}) };
    });
    await client.connect(transport);
    clients.push(client);

    expect(await client.callTool({ name: 'echo', arguments: { text: 'ask' } })).toEqual({ content: [{ type: 'text', text: 'ask' }] });
    expect(asked).toEqual([{ message: expect.stringMatching(/^Allow mcp__fixture__echo .*confirm echo/), notifiedBefore: true }]);
    expect(fired(log).filter((f) => f.event === 'Notification')).toEqual([
      { event: 'Notification', type: 'permission_prompt', tool: 'mcp__fixture__echo' },
    ]);

    answer = 'decline';
    const declined = await client.callTool({ name: 'echo', arguments: { text: 'ask' } });
    expect(declined.isError).toBe(true);
    expect(JSON.stringify(declined.content)).toMatch(/denied permission/);
    expect(fired(log).filter((f) => f.event === 'PostToolUse')).toHaveLength(1);
  });

  it('records each execution with the PreToolUse outcome that allowed it in --db', async () => {
    const db = path.join(dir, 'audit.db');
    const client = await viaProxy(path.join(dir, 'db.log'), ['--db', db]);
    await client.callTool({ name: 'echo', arguments: { text: 'one' } });
    await client.callTool({ name: 'env', arguments: { name: 'FIXTURE_SECRET' } });
    await clients.pop()!.close();
    // The proxy flushes and closes the store as its client goes; wait for the row rather than for time.
    let rows: ReturnType<typeof queryAudit> = [];
    for (let i = 0; i < 200 && rows.length === 0; i++) {
      try {
        rows = queryAudit(db, { kind: 'tool' });
      } catch {
        rows = [];
      }
      if (rows.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(rows.map((r) => r.tool)).toEqual(['mcp__fixture__echo']);
  });

  it('proxies a Streamable HTTP upstream given with --url', async () => {
    const http = spawn(process.execPath, [serverPath, '--http', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const [chunk] = (await once(http.stdout, 'data')) as [Buffer];
      const url = `http://127.0.0.1:${String(chunk).trim()}/mcp`;
      const log = path.join(dir, 'http.log');
      const client = await connect([cliPath, 'mcp-proxy', '--config', policy, '--name', 'fixture', '--url', url], { HOOK_LOG: log });
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['echo', 'add', 'env', 'fail']);
      expect(await client.callTool({ name: 'env', arguments: { name: 'FIXTURE_SECRET' } })).toEqual({
        content: [{ type: 'text', text: 'secrets stay secret' }],
        isError: true,
      });
      expect(await client.callTool({ name: 'echo', arguments: { text: 'over http' } })).toEqual({
        content: [{ type: 'text', text: 'over http' }],
      });
      expect(fired(log).map((f) => `${f.event}:${f.tool}`)).toEqual([
        'PreToolUse:mcp__fixture__env',
        'PreToolUse:mcp__fixture__echo',
        'PostToolUse:mcp__fixture__echo',
      ]);
      await clients.pop()!.close();
    } finally {
      http.kill('SIGTERM');
      await once(http, 'exit');
    }
  });

  it('derives the server name from the command', () => {
    expect(serverNameFor(['node', 'test/fixtures/mcp/server.mjs'])).toBe('server');
    expect(serverNameFor(['npx', '-y', '@modelcontextprotocol/server-filesystem', '/tmp'])).toBe('server-filesystem');
    expect(serverNameFor(['/usr/local/bin/github-mcp'])).toBe('github-mcp');
    expect(serverNameFor(['uvx', 'mcp-server-git'])).toBe('mcp-server-git');
  });
});
