import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

export type UpstreamSpec = { command: string[]; cwd?: string } | { url: URL };

/**
 * The transport to the real server. A stdio server starts with the client's
 * whole environment (the SDK's default passes only a few variables), so a server
 * configured through env vars behaves as it would without the proxy.
 */
export function upstreamTransport(spec: UpstreamSpec): Transport {
  if ('url' in spec) return new StreamableHTTPClientTransport(spec.url);
  const [command, ...args] = spec.command;
  if (!command) throw new Error('mcp-proxy: no upstream server command after `--`');
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return new StdioClientTransport({ command, args, env, cwd: spec.cwd, stderr: 'inherit' });
}

export async function connectUpstream(spec: UpstreamSpec): Promise<Client> {
  const client = new Client({ name: 'hookwise-mcp-proxy', version: '1' }, { capabilities: {} });
  await client.connect(upstreamTransport(spec));
  return client;
}
