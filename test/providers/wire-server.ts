import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WireRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export type Reply = (res: ServerResponse, request: WireRequest) => void;

/**
 * A real HTTP server on 127.0.0.1 for provider tests: each request is recorded
 * and answered by the next queued reply (the default reply when the queue is empty).
 */
export class WireServer {
  readonly requests: WireRequest[] = [];
  private readonly queue: Reply[] = [];
  private readonly held: ServerResponse[] = [];
  private server: Server | undefined;
  url = '';

  constructor(private readonly fallback: Reply) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        let body: unknown = raw;
        try {
          body = JSON.parse(raw);
        } catch {
          // Recorded as text: the test will say it is not what the API expects.
        }
        const request = { method: req.method!, path: req.url!, headers: req.headers, body };
        this.requests.push(request);
        (this.queue.shift() ?? this.fallback)(res, request);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Answer the next request with this reply. */
  next(reply: Reply): this {
    this.queue.push(reply);
    return this;
  }

  /** A reply that never answers (for timeouts and aborts). */
  hold(): Reply {
    return (res) => this.held.push(res);
  }

  reset(): void {
    this.requests.length = 0;
    this.queue.length = 0;
  }

  async stop(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Reply =>
  (res) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(typeof body === 'string' ? body : JSON.stringify(body));
