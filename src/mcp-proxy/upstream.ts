import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CappedStdioClientTransport, DEFAULT_MAX_MESSAGE_BYTES } from './capped-stdio.js';
import { McpProxyOptionError } from './errors.js';

export type UpstreamSpec = ({ command: string[]; cwd?: string } | { url: URL }) & {
  /** The largest message taken from a stdio upstream (default 16 MiB); a longer one is an error for its request. */
  maxMessageBytes?: number;
};

/**
 * The transport to the real server. A stdio server starts with the client's
 * whole environment (the SDK's default passes only a few variables), so a server
 * configured through env vars behaves as it would without the proxy.
 */
export function upstreamTransport(spec: UpstreamSpec): Transport {
  if ('url' in spec) return new StreamableHTTPClientTransport(spec.url);
  const [command, ...args] = spec.command;
  if (!command)
    throw new McpProxyOptionError('mcp-proxy: no upstream server command after `--`; name it: hookwise mcp-proxy -- <command> [args...]');
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return new CappedStdioClientTransport(
    { command, args, env, cwd: spec.cwd, stderr: 'inherit' },
    spec.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
  );
}

export async function connectUpstream(spec: UpstreamSpec): Promise<Client> {
  const client = new Client({ name: 'hookwise-mcp-proxy', version: '1' }, { capabilities: {} });
  await client.connect(upstreamTransport(spec));
  return client;
}
