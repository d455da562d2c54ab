/**
 * The launcher's connection to its resident: one Unix socket, text in and out
 * (docs/claude-code.md#the-resident). CommonJS (`.cts`), loaded on every call.
 *
 * Why not only node:net: loading it (and the stream modules under it) and making its
 * first connection cost the launcher about 6 ms of Node 20's start-up, a fifth of what
 * a call adds over `node -e 0` (docs/benchmarks.md). On Node 20 the connection is made
 * with the pipe binding node:net itself is built on (`process.binding('pipe_wrap')`,
 * which Node 20 still offers without a warning); on any other Node, under
 * `--pending-deprecation` (which makes that binding warn), or when the binding is not
 * as Node 20 shapes it, node:net. Both speak the same interface and are tested alike
 * (test/cli/unix-connection.test.ts).
 */
import type * as Net from 'node:net';

/** What the connection tells its owner; `closed` comes once, whatever ended it (or a failed connect). */
export interface ConnectionEvents {
  connected?(): void;
  data(text: string): void;
  closed(): void;
}

export interface Connection {
  /** Sent once connected (queued until then); nothing after the connection closed. */
  write(text: string): void;
  destroy(): void;
}

/** Connect to a Unix socket with the cheapest transport this Node offers. */
export function connectUnix(socket: string, on: ConnectionEvents): Connection {
  const bindings = pipeBindings();
  if (bindings) {
    try {
      return pipeConnection(bindings, socket, on);
    } catch {}
  }
  return netConnection(socket, on);
}

/** The same connection through node:net. */
export function netConnection(socket: string, on: ConnectionEvents): Connection {
  const net = require('node:net') as typeof Net;
  const connection = net.createConnection(socket);
  connection.setEncoding('utf8');
  connection.on('error', () => {});
  connection.on('connect', () => on.connected?.());
  connection.on('data', (chunk: string) => on.data(chunk));
  connection.on('close', () => on.closed());
  return { write: (text) => void connection.write(text), destroy: () => void connection.destroy() };
}

/** Node 20's stream bindings, as lib/net.js uses them. */
interface PipeBindings {
  Pipe: new (type: number) => PipeHandle;
  PipeConnectWrap: new () => { oncomplete?: (status: number) => void };
  WriteWrap: new () => { handle?: PipeHandle; oncomplete?: () => void; async?: boolean };
  SOCKET: number;
  state: Int32Array;
  readBytes: number;
  bufferOffset: number;
  lastWriteAsync: number;
}

interface PipeHandle {
  connect(request: object, address: string): number;
  writeUtf8String(request: object, text: string): number;
  readStart(): number;
  onread: ((buffer: ArrayBuffer) => void) | undefined;
  close(callback: () => void): void;
}

/** The bindings, or undefined where they are not Node 20's or would warn. */
export function pipeBindings(): PipeBindings | undefined {
  if (!process.versions.node.startsWith('20.') || pendingDeprecation()) return undefined;
  try {
    const binding = (process as unknown as { binding(name: string): Record<string, unknown> }).binding;
    const pipe = binding('pipe_wrap') as { Pipe?: unknown; PipeConnectWrap?: unknown; constants?: { SOCKET?: unknown } };
    const stream = binding('stream_wrap') as Record<string, unknown>;
    const ok =
      typeof pipe.Pipe === 'function' &&
      typeof pipe.PipeConnectWrap === 'function' &&
      typeof pipe.constants?.SOCKET === 'number' &&
      typeof stream.WriteWrap === 'function' &&
      stream.streamBaseState instanceof Int32Array &&
      typeof stream.kReadBytesOrError === 'number' &&
      typeof stream.kArrayBufferOffset === 'number' &&
      typeof stream.kLastWriteWasAsync === 'number';
    if (!ok) return undefined;
    return {
      Pipe: pipe.Pipe as PipeBindings['Pipe'],
      PipeConnectWrap: pipe.PipeConnectWrap as PipeBindings['PipeConnectWrap'],
      WriteWrap: stream.WriteWrap as PipeBindings['WriteWrap'],
      SOCKET: pipe.constants!.SOCKET as number,
      state: stream.streamBaseState as Int32Array,
      readBytes: stream.kReadBytesOrError as number,
      bufferOffset: stream.kArrayBufferOffset as number,
      lastWriteAsync: stream.kLastWriteWasAsync as number,
    };
  } catch {
    return undefined;
  }
}

function pendingDeprecation(): boolean {
  const flag = '--pending-deprecation';
  return process.execArgv.includes(flag) || (process.env.NODE_OPTIONS ?? '').includes(flag) || process.env.NODE_PENDING_DEPRECATION === '1';
}

/** The connection on the bindings: connect, write UTF-8, read until the end, close once. */
export function pipeConnection(b: PipeBindings, socket: string, on: ConnectionEvents): Connection {
  const handle = new b.Pipe(b.SOCKET);
  const decoder = new TextDecoder();
  const queued: string[] = [];
  /** Writes in flight: the binding calls back into these objects, so they are kept until it has. */
  const writing = new Set<object>();
  let connected = false;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    handle.close(() => on.closed());
  };
  const send = (text: string) => {
    const request = new b.WriteWrap();
    request.handle = handle;
    request.async = false;
    request.oncomplete = () => writing.delete(request);
    writing.add(request);
    if (handle.writeUtf8String(request, text) < 0) return close();
    // A write the kernel took at once never calls back.
    if (!b.state[b.lastWriteAsync]) writing.delete(request);
  };
  const connect = new b.PipeConnectWrap();
  connect.oncomplete = (status) => {
    if (closed) return;
    if (status < 0) return close();
    connected = true;
    handle.onread = (buffer) => {
      const read = b.state[b.readBytes]!;
      if (read < 0) return close();
      if (read > 0) on.data(decoder.decode(new Uint8Array(buffer, b.state[b.bufferOffset]!, read), { stream: true }));
    };
    if (handle.readStart() < 0) return close();
    on.connected?.();
    for (const text of queued.splice(0)) if (!closed) send(text);
  };
  // A path that cannot be connected to at all fails here; the owner hears of it as a close, later, as from node:net.
  if (handle.connect(connect, socket) < 0) queueMicrotask(close);
  return {
    write: (text) => {
      if (closed) return;
      if (connected) send(text);
      else queued.push(text);
    },
    destroy: close,
  };
}
