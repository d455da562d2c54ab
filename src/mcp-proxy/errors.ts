import { HookwiseError } from '../core/errors.js';

/** `hookwise mcp-proxy` was started without what it needs (the upstream server's command after `--`). */
export class McpProxyOptionError extends HookwiseError {
  override readonly code = 'MCP_PROXY_OPTION';
}

/** The upstream MCP server broke the protocol's limits (a tools/list without end); the proxy refuses it. */
export class McpUpstreamError extends HookwiseError {
  override readonly code = 'MCP_UPSTREAM';
}

/** The installed @modelcontextprotocol/sdk lacks what the proxy needs to bound message sizes: install a version the proxy supports. */
export class McpSdkError extends HookwiseError {
  override readonly code = 'MCP_SDK_UNSUPPORTED';
}
