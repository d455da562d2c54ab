import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/** The error the CappedLineReader puts in place of an over-long message (only digits and commas vary). */
const TOO_LARGE =
  /^MCP error -32603: (mcp-proxy: the upstream server sent a message of [\d,]+ bytes, over the proxy's limit of [\d,]+ bytes \(--max-message-bytes\); it was not passed on\. Ask for less \(a page, a range\), or raise the limit\.)$/;

/**
 * The error to pass on when a tools/call got no answer from the upstream (it timed
 * out, the connection closed, the answer was too large or not a tools/call result),
 * worded by the proxy; null when the upstream answered with its own JSON-RPC error,
 * whose message is output the model reads and is judged as such. Nothing the upstream
 * wrote reaches the client through here: an upstream that sends a timeout or
 * connection code gets the proxy's words, not its own.
 */
export function noAnswer(error: unknown): McpError | null {
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout) return new McpError(error.code, 'mcp-proxy: the upstream server did not answer in time');
    if (error.code === ErrorCode.ConnectionClosed)
      return new McpError(error.code, 'mcp-proxy: the connection to the upstream server closed before it answered');
    const tooLarge = TOO_LARGE.exec(error.message);
    if (tooLarge) return new McpError(ErrorCode.InternalError, tooLarge[1]!);
    return null;
  }
  const kind = error instanceof Error ? error.name : typeof error;
  return new McpError(ErrorCode.InternalError, `mcp-proxy: the upstream server's answer could not be used (${kind}); it was not passed on`);
}
