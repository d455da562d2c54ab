import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { type Connection, connectUnix, netConnection, pipeBindings, pipeConnection } from '../../src/cli/resident/unix-connection.cjs';

const root = mkdtempSync(path.join(tmpdir(), 'hookwise-unix-connection-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let sockets = 0;
const socketPath = () => path.join(root, `s${++sockets}.sock`);

type Open = (socket: string, on: Parameters<typeof netConnection>[1]) => Connection;

const transports: [string, Open][] = [
  ['the pipe binding (Node 20)', (socket, on) => pipeConnection(pipeBindings()!, socket, on)],
  ['node:net', netConnection],
];

/** A server on a fresh socket; `serve` gets each connection. */
async function server(serve: (c: net.Socket) => void): Promise<{ socket: string; close(): Promise<void> }> {
  const socket = socketPath();
  // A client that went first makes the server's own writes fail: that is the client's doing, not an error here.
  const s = net.createServer((c) => serve(c.on('error', () => {})));
  await new Promise<void>((resolve) => s.listen(socket, resolve));
  return { socket, close: () => new Promise((resolve) => s.close(() => resolve())) };
}

/** Open a connection and collect what happens until it closes. */
function record(open: Open, socket: string, before: (c: Connection) => void = () => {}) {
  const seen = { connected: 0, text: '', closed: 0 };
  let connection!: Connection;
  const closed = new Promise<typeof seen>((resolve) => {
    connection = open(socket, {
      connected: () => seen.connected++,
      data: (text) => {
        seen.text += text;
      },
      closed: () => {
        seen.closed++;
        resolve(seen);
      },
    });
  });
  before(connection);
  return { connection, closed };
}

describe('the launcher reaches its resident over a Unix socket', () => {
  it('this Node offers the pipe binding (the tests below run it, not node:net twice)', () => {
    expect(process.versions.node.startsWith('20.')).toBe(true);
    expect(pipeBindings()).toBeDefined();
  });

  for (const [name, open] of transports) {
    describe(name, () => {
      it('sends what was written before it connected, in order, and reads the answer until the server ends', async () => {
        const s = await server((c) => {
          let got = '';
          c.setEncoding('utf8');
          c.on('data', (d: string) => {
            got += d;
            if (got.endsWith('\n')) c.end(`echo:${got}`);
          });
        });
        const { closed } = record(open, s.socket, (c) => {
          c.write('one ');
          c.write('two\n');
        });
        expect(await closed).toEqual({ connected: 1, text: 'echo:one two\n', closed: 1 });
        await s.close();
      });

      it('decodes characters split across chunks', async () => {
        const euro = Buffer.from('a€b\n');
        const s = await server((c) => {
          c.write(euro.subarray(0, 2));
          setTimeout(() => c.end(euro.subarray(2)), 50);
        });
        const { closed } = record(open, s.socket);
        expect((await closed).text).toBe('a€b\n');
        await s.close();
      });

      it('carries a megabyte each way', async () => {
        const big = 'x'.repeat(1024 * 1024);
        const s = await server((c) => {
          let got = 0;
          c.on('data', (d: Buffer) => {
            got += d.length;
            if (got === big.length + 1) c.end(`${got}:${big}`);
          });
        });
        const { closed } = record(open, s.socket, (c) => c.write(`${big}\n`));
        expect((await closed).text).toBe(`${big.length + 1}:${big}`);
        await s.close();
      });

      it('a path nobody listens on closes without connecting, and writes go nowhere', async () => {
        const { closed } = record(open, path.join(root, 'nobody.sock'), (c) => c.write('lost\n'));
        expect(await closed).toEqual({ connected: 0, text: '', closed: 1 });
      });

      it('destroy closes once; what is written after goes nowhere', async () => {
        const received: string[] = [];
        const s = await server((c) => {
          c.on('data', (d) => received.push(String(d)));
          c.write('hi\n');
        });
        const { connection, closed } = record(open, s.socket);
        connection.destroy();
        connection.destroy();
        connection.write('late\n');
        expect((await closed).closed).toBe(1);
        await s.close();
        expect(received).toEqual([]);
      });
    });
  }

  const launcherModule = fileURLToPath(new URL('../../dist/cli/resident/unix-connection.cjs', import.meta.url));
  const chosen = (execArgv: string[], env: NodeJS.ProcessEnv = {}) => {
    const r = spawnSync(
      process.execPath,
      [...execArgv, '-e', `process.stdout.write(require(${JSON.stringify(launcherModule)}).pipeBindings() ? 'pipe' : 'net')`],
      { env: { ...process.env, ...env }, encoding: 'utf8' },
    );
    return { transport: r.stdout, stderr: r.stderr };
  };

  it('the binding is used only where it says nothing: not under --pending-deprecation, however it is set', () => {
    expect(chosen([])).toEqual({ transport: 'pipe', stderr: '' });
    expect(chosen(['--pending-deprecation'])).toEqual({ transport: 'net', stderr: '' });
    expect(chosen([], { NODE_OPTIONS: '--pending-deprecation' })).toEqual({ transport: 'net', stderr: '' });
    expect(chosen([], { NODE_PENDING_DEPRECATION: '1' })).toEqual({ transport: 'net', stderr: '' });
  });

  it('connectUnix falls back to node:net where the binding is not offered', async () => {
    const s = await server((c) => c.end('ok\n'));
    const node = process as unknown as { binding: unknown };
    const binding = node.binding;
    node.binding = () => {
      throw new Error('no bindings here');
    };
    try {
      expect(pipeBindings()).toBeUndefined();
      const { closed } = record(connectUnix, s.socket);
      expect((await closed).text).toBe('ok\n');
    } finally {
      node.binding = binding;
    }
    await s.close();
  });
});
