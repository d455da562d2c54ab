import http from 'node:http';
import net from 'node:net';
import { isAllowed, isIpLiteral, normalizeHost } from './allowlist.js';
import { systemResolver, type Resolver } from './resolve.js';
import { listenOnSocket } from '../unix-socket.js';

/**
 * hookwise's network proxy (docs/security.md#the-os-sandbox): an HTTP proxy on a Unix
 * socket, outside the sandbox, that the sandbox's bridge forwards to. It tunnels
 * CONNECT (TLS) and forwards plain `http://` requests, each only to a host on the
 * allowlist; everything else gets a 403 whose body names the host and the setting.
 * It resolves names itself and connects to the addresses it found, so the sandbox
 * never chooses an address.
 */
export interface NetProxyOptions {
  /** The Unix socket to listen on. A stale socket file (nothing listening) is replaced. */
  socket: string;
  /** Normalized entries (settings.ts resolves them). */
  allow: readonly string[];
  /** How names become addresses; tests give one that maps test names to loopback. */
  resolve?: Resolver;
  /** Told of every refusal (the daemon writes them to its log). */
  onRefuse?: (target: string, why: string) => void;
}

export interface NetProxy {
  readonly socket: string;
  /** Connections open now (the daemon does not end while one is). */
  readonly open: number;
  /** When a connection last opened or closed (ms since the epoch). */
  readonly lastActivity: number;
  close(): Promise<void>;
}

/** What the sandbox's start asks to learn that the proxy is up: origin-form, so no host is named. */
export const PING_PATH = '/.hookwise/ping';
const SETTING = 'sandbox.network in the shell guard';
/** Headers that describe one hop, never forwarded (RFC 9110 7.6.1), and the proxy's own. */
const HOP_BY_HOP = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

export async function startNetProxy(options: NetProxyOptions): Promise<NetProxy> {
  const resolve = options.resolve ?? systemResolver;
  const sockets = new Set<net.Socket>();
  let lastActivity = Date.now();
  const refuse = (target: string, why: string) => {
    options.onRefuse?.(target, why);
    return `hookwise sandbox: refused ${target}: ${why}\n`;
  };
  /** The allowlist's verdict on a host: its addresses, or why not. */
  const admit = async (host: string): Promise<{ addresses: string[] } | { why: string; status: 403 | 502 }> => {
    if (!isAllowed(host, options.allow)) {
      const what = isIpLiteral(host) ? 'an IP address not on the allowlist' : 'not on the allowlist';
      return { status: 403, why: `${host} is ${what}; add it to ${SETTING} (network: { allow: [...] }), or set network: "on"` };
    }
    if (isIpLiteral(host)) return { addresses: [host] };
    try {
      return { addresses: await resolve(host) };
    } catch (error) {
      return { status: 502, why: `${host} is allowed but could not be resolved: ${(error as Error).message}` };
    }
  };

  // A proxy request names its host in the URL; the Host header is checked against it here, when there is one.
  const server = http.createServer({ requireHostHeader: false }, (req, res) => {
    void forward(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    lastActivity = Date.now();
    socket.on('close', () => {
      sockets.delete(socket);
      lastActivity = Date.now();
    });
  });
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end(plain(400, 'Bad Request', refuse('a request', 'it is not HTTP the proxy can read')));
    else socket.destroy();
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    void tunnel(req, client, head);
  });

  async function tunnel(req: http.IncomingMessage, client: net.Socket, head: Buffer): Promise<void> {
    client.on('error', () => {});
    const target = authority(req.url ?? '');
    if (target === undefined) {
      client.end(plain(403, 'Forbidden', refuse(JSON.stringify(req.url), 'a CONNECT target must be host:port and nothing else')));
      return;
    }
    const named = req.headers.host === undefined ? undefined : authority(req.headers.host, target.port);
    if (req.headers.host !== undefined && (named === undefined || named.host !== target.host || named.port !== target.port)) {
      const why = `the Host header (${JSON.stringify(req.headers.host)}) names another host than the CONNECT target`;
      client.end(plain(403, 'Forbidden', refuse(`${target.host}:${target.port}`, why)));
      return;
    }
    const verdict = await admit(target.host);
    if ('why' in verdict) {
      client.end(plain(verdict.status, reasonOf(verdict.status, target.host), refuse(`${target.host}:${target.port}`, verdict.why)));
      return;
    }
    const upstream = await connectAny(verdict.addresses, target.port);
    if (upstream instanceof Error) {
      client.end(plain(502, 'Bad Gateway', refuse(`${target.host}:${target.port}`, `could not connect: ${upstream.message}`)));
      return;
    }
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  }

  async function forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const send = (status: number, text: string, body: string) => {
      const length = Buffer.byteLength(body);
      res.writeHead(status, text, { 'content-type': 'text/plain; charset=utf-8', 'content-length': length, connection: 'close' });
      res.end(body);
    };
    const raw = req.url ?? '';
    if (raw === PING_PATH) {
      res.writeHead(204, 'hookwise', { connection: 'close' });
      res.end();
      return;
    }
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      send(400, 'Bad Request', refuse(JSON.stringify(raw), 'a proxy request names an absolute http:// URL (or uses CONNECT)'));
      return;
    }
    if (url.protocol !== 'http:') {
      send(400, 'Bad Request', refuse(JSON.stringify(raw), 'only http:// is forwarded; https goes through CONNECT'));
      return;
    }
    const host = normalizeHost(url.hostname);
    const port = url.port === '' ? 80 : Number(url.port);
    const label = `${host ?? url.hostname}:${port}`;
    const named = req.headers.host === undefined ? undefined : authority(req.headers.host, 80);
    if (host === undefined || (req.headers.host !== undefined && (named?.host !== host || named.port !== port))) {
      // A server behind a shared address routes by Host: a different one would reach another site than the one judged.
      send(403, 'Forbidden', refuse(label, `the Host header (${JSON.stringify(req.headers.host)}) names another host than the URL`));
      return;
    }
    const verdict = await admit(host);
    if ('why' in verdict) {
      send(verdict.status, reasonOf(verdict.status, host), refuse(label, verdict.why));
      return;
    }
    const headers: http.OutgoingHttpHeaders = {};
    const dropped = new Set([
      ...HOP_BY_HOP,
      ...String(req.headers.connection ?? '')
        .toLowerCase()
        .split(/\s*,\s*/),
    ]);
    for (const [name, value] of Object.entries(req.headers)) if (!dropped.has(name)) headers[name] = value;
    headers.host = url.host;
    headers.connection = 'close';
    const upstream = http.request({
      host: verdict.addresses[0],
      port,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers,
      setHost: false,
      agent: false,
    });
    upstream.on('response', (answer) => {
      const back: http.OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP.has(name)) back[name] = value;
      back.connection = 'close';
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, back);
      answer.pipe(res);
    });
    upstream.on('error', (error) => {
      if (!res.headersSent) send(502, 'Bad Gateway', refuse(label, `could not connect: ${error.message}`));
      else res.destroy();
    });
    req.pipe(upstream);
  }

  await listenOnSocket(server, options.socket);
  return {
    socket: options.socket,
    get open() {
      return sockets.size;
    },
    get lastActivity() {
      return lastActivity;
    },
    close: () =>
      new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        for (const s of sockets) s.destroy();
      }),
  };
}

/** `host:port` exactly, as CONNECT names its target (RFC 9110 9.3.6): no scheme, user, path or query. */
function authority(text: string, defaultPort?: number): { host: string; port: number } | undefined {
  const m = /^(\[[0-9A-Fa-f:.]+\]|[^\s:/@?#[\]\\]+)(?::(\d{1,5}))?$/.exec(text);
  if (!m) return undefined;
  const port = m[2] === undefined ? defaultPort : Number(m[2]);
  if (port === undefined || port < 1 || port > 65535) return undefined;
  const host = normalizeHost(m[1]!);
  return host === undefined ? undefined : { host, port };
}

/**
 * The status line's reason names the host: clients that show no body of a refused
 * CONNECT (Python's `Tunnel connection failed: 403 …`) still show this.
 */
function reasonOf(status: 403 | 502, host: string): string {
  return status === 403 ? `Forbidden by hookwise: ${host} is not on sandbox.network` : 'Bad Gateway';
}

function plain(status: number, text: string, body: string): string {
  const length = Buffer.byteLength(body);
  return `HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n${body}`;
}

/** The first address that answers, in the resolver's order. */
async function connectAny(addresses: string[], port: number): Promise<net.Socket | Error> {
  // plain Error: the answer when the resolver gave no address; the caller words the refusal
  let last: Error = new Error('no address');
  for (const address of addresses) {
    const socket = await new Promise<net.Socket | Error>((resolve) => {
      const s = net.connect({ host: address, port });
      s.once('connect', () => resolve(s));
      s.once('error', (error) => resolve(error));
    });
    if (!(socket instanceof Error)) return socket;
    last = socket;
  }
  return last;
}
