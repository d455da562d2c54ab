import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export type RequestId = string | number;

/** What is kept of an over-long line's ends, to find its JSON-RPC id. */
const END_BYTES = 512;

/** The id of a message whose middle was dropped: first keys (`{"jsonrpc":"2.0","id":7,`) or last key (`,"id":7}`). */
const ID_FIRST = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*,/;
const ID_LAST = /[{,]\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/;

/**
 * Splits the upstream's stdout into JSON-RPC messages, one per line, as the SDK's
 * ReadBuffer does, but a line longer than `limit` bytes is never held whole: its
 * middle is dropped as it arrives, and in its place the request it answered gets an
 * error response that says why. The SDK's own buffer closes the connection instead
 * (the proxy then ended silently). Which request: the id read from the line's ends;
 * when there is none, every request still waiting (`outstanding()`), so nothing waits
 * for an answer that will not come.
 */
export class CappedLineReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Set while an over-long line is being skipped. */
  private skipping: { head: Buffer; tail: Buffer; bytes: number } | null = null;
  private readonly ready: JSONRPCMessage[] = [];
  /** Lines that did not parse: thrown from readMessage one at a time, as the SDK's buffer does. */
  private readonly broken: Array<{ at: number; error: unknown }> = [];

  constructor(
    readonly limit: number,
    private readonly outstanding: () => RequestId[],
  ) {}

  append(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.take(chunk.subarray(start, nl));
      this.endLine();
      start = nl + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
  }

  readMessage(): JSONRPCMessage | null {
    const broken = this.broken[0];
    if (broken && broken.at === 0) {
      this.broken.shift();
      throw broken.error;
    }
    const message = this.ready.shift() ?? null;
    if (message !== null) for (const b of this.broken) b.at--;
    return message;
  }

  clear(): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.skipping = null;
    this.ready.length = 0;
    this.broken.length = 0;
  }

  private take(part: Buffer): void {
    if (part.length === 0) return;
    if (this.skipping) {
      this.skip(part);
      return;
    }
    if (this.pendingBytes + part.length <= this.limit) {
      this.pending.push(part);
      this.pendingBytes += part.length;
      return;
    }
    const held = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    this.skipping = { head: Buffer.alloc(0), tail: Buffer.alloc(0), bytes: 0 };
    this.skip(held);
    this.skip(part);
  }

  private skip(part: Buffer): void {
    const s = this.skipping!;
    if (s.head.length < END_BYTES) s.head = Buffer.concat([s.head, part.subarray(0, END_BYTES - s.head.length)]);
    s.tail = Buffer.concat([s.tail, part]).subarray(-END_BYTES);
    s.bytes += part.length;
  }

  private endLine(): void {
    if (this.skipping) {
      const { head, tail, bytes } = this.skipping;
      this.skipping = null;
      this.refuse(head.toString('latin1'), tail.toString('latin1').replace(/\r$/, ''), bytes);
      return;
    }
    const line = Buffer.concat(this.pending).toString('utf8').replace(/\r$/, '');
    this.pending = [];
    this.pendingBytes = 0;
    if (line.trim() === '') return;
    try {
      this.ready.push(deserializeMessage(line));
    } catch (error) {
      this.broken.push({ at: this.ready.length, error });
    }
  }

  private refuse(head: string, tail: string, bytes: number): void {
    const found = ID_FIRST.exec(head)?.[1] ?? ID_LAST.exec(tail)?.[1];
    const ids = found === undefined ? this.outstanding() : [JSON.parse(found) as RequestId];
    const message =
      `mcp-proxy: the upstream server sent a message of ${bytes.toLocaleString('en')} bytes, over the proxy's limit of ` +
      `${this.limit.toLocaleString('en')} bytes (--max-message-bytes); it was not passed on. Ask for less (a page, a range), or raise the limit.`;
    for (const id of ids) this.ready.push({ jsonrpc: '2.0', id, error: { code: -32603, message } });
  }
}
