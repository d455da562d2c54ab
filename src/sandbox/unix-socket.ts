import fs from 'node:fs';
import net from 'node:net';

/** Whether something accepts connections on the Unix socket now. */
export function answers(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(socket);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/**
 * Listen on a Unix socket, closed to other users (mode 600). A socket file nobody answers
 * on (its server was killed) is replaced; one that answers is another live server, and
 * the EADDRINUSE is thrown.
 * Shared by the network proxy (proxy/server.ts) and the resident (cli/resident/server.ts).
 */
export async function listenOnSocket(server: net.Server, socket: string): Promise<void> {
  const attempt = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socket, () => {
        server.off('error', reject);
        resolve();
      });
    });
  try {
    await attempt();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || (await answers(socket))) throw error;
    fs.rmSync(socket, { force: true });
    await attempt();
  }
  fs.chmodSync(socket, 0o600);
}
