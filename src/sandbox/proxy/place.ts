import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Where the network proxy for an allowlist listens: one Unix socket per allowlist,
 * named by its hash, in the folder residents use (`$HOOKWISE_RESIDENT_DIR`, else
 * `$XDG_RUNTIME_DIR/hookwise`, else `<tmp>/hookwise-<uid>`; the same rules as
 * src/cli/resident/address.cts, which the sandbox may not import). The name does not
 * end in `.sock`, so `hookwise residents` leaves it alone.
 */
export function netProxyDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HOOKWISE_RESIDENT_DIR) return path.resolve(env.HOOKWISE_RESIDENT_DIR);
  if (env.XDG_RUNTIME_DIR) return path.join(env.XDG_RUNTIME_DIR, 'hookwise');
  return path.join(os.tmpdir(), `hookwise-${process.getuid?.() ?? 'user'}`);
}

/** Unix socket paths are limited to 108 bytes on Linux. */
const MAX_SOCKET_PATH = 100;

/** The socket for this allowlist; undefined when its path would be too long for a Unix socket. */
export function netProxySocket(allow: readonly string[], env: NodeJS.ProcessEnv = process.env): string | undefined {
  const hash = createHash('sha256').update(JSON.stringify(allow)).digest('hex').slice(0, 16);
  const socket = path.join(netProxyDir(env), `net-${hash}.netproxy`);
  return socket.length <= MAX_SOCKET_PATH ? socket : undefined;
}

/**
 * Whoever can make a socket in the folder could stand in for the proxy and let any
 * host through: only a real folder of ours, closed to others, is used (created 700).
 * The reason it is not, or undefined.
 */
export function untrustedDir(dir: string): string | undefined {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    return `${dir} cannot be made (${(error as Error).message})`;
  }
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory()) return `${dir} is not a directory`;
  if (process.getuid && stat.uid !== process.getuid()) return `${dir} belongs to another user (uid ${stat.uid})`;
  if ((stat.mode & 0o077) !== 0) return `${dir} is open to other users (mode ${(stat.mode & 0o777).toString(8)}); it must be 700`;
  return undefined;
}
