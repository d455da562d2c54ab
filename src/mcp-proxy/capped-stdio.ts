import { StdioClientTransport, type StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CappedLineReader, type RequestId } from './capped-lines.js';
import { McpSdkError } from './errors.js';

/** The largest message the proxy takes from an upstream, unless told otherwise: 16 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/**
 * The SDK's stdio client transport with its read buffer replaced by a CappedLineReader:
 * an over-long message becomes an error for the request it answered, and the
 * connection stays up. It tracks the requests it sent that have no answer yet, for
 * an over-long message whose id cannot be read.
 */
export class CappedStdioClientTransport extends StdioClientTransport {
  private readonly waiting = new Set<RequestId>();

  constructor(params: StdioServerParameters, maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES) {
    super(params);
    const self = this as unknown as { _readBuffer?: unknown };
    // A private field of the SDK's: if a new SDK renames it, refuse to start rather than run without the cap.
    if (typeof (self._readBuffer as { append?: unknown } | undefined)?.append !== 'function')
      throw new McpSdkError(
        'mcp-proxy: this version of @modelcontextprotocol/sdk has no stdio read buffer to cap; the proxy cannot bound message sizes',
      );
    self._readBuffer = new CappedLineReader(maxMessageBytes, () => [...this.waiting]);
  }

  /** The SDK sets onmessage before it starts the transport: answers are seen here first. */
  override start(): Promise<void> {
    const deliver = this.onmessage;
    this.onmessage = (message) => {
      if ('id' in message && message.id !== undefined && !('method' in message)) this.waiting.delete(message.id);
      deliver?.(message);
    };
    return super.start();
  }

  override send(message: JSONRPCMessage): Promise<void> {
    if ('id' in message && 'method' in message) this.waiting.add(message.id);
    return super.send(message);
  }
}
