/**
 * How a caller knows that the process on a resident's socket is the resident hookwise
 * started (docs/claude-code.md#the-resident). The launcher that starts a resident writes
 * a random key next to its socket (`<socket>.key`, mode 600, in the 700 folder); the
 * resident reads it once as it starts and shows it first on every connection. A caller
 * sends nothing (no environment, no tool input) before the key it reads from the file
 * has come back. A process that only listens on the socket path has no key.
 *
 * The key is shown, not proven by a challenge (an HMAC of a nonce): whoever can connect
 * to the socket is this user or root, who can read the key file too, and whoever can
 * listen in the folder can put a key file of their own beside their socket. A challenge
 * would keep out no one the folder and the key file do not, and node:crypto would cost
 * the launcher about 6 ms of start-up on every call.
 *
 * CommonJS (`.cts`), loaded by the launcher on every call.
 */
import type * as Crypto from 'node:crypto';
import fs = require('node:fs');

const KEY_HEX = /^[0-9a-f]{64}$/;

/** The key file of the resident on `socket`. */
export const keyFileOf = (socket: string): string => `${socket.slice(0, -'.sock'.length)}.key`;

/**
 * Where a launcher leaves the key for the resident it starts. The resident takes it as
 * its own file as it starts and makes it the key file only once it listens: a resident
 * that loses the race for the socket never replaces the key of the one that serves.
 */
export const nextKeyFileOf = (socket: string): string => `${keyFileOf(socket)}.next`;

/** A new key for a resident about to start, written whole (a reader never sees half of one) with mode 600. */
export function writeKey(file: string): void {
  const { randomBytes } = require('node:crypto') as typeof Crypto;
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  fs.renameSync(temp, file);
}

/** The key, or why it cannot be trusted: a regular file of this user, closed to others, 64 hex digits. */
export function readKey(file: string): { key: string } | { why: string } {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch {
    return { why: `${file} does not exist` };
  }
  if (!stat.isFile()) return { why: `${file} is not a regular file` };
  if (process.getuid && stat.uid !== process.getuid()) return { why: `${file} belongs to another user (uid ${stat.uid})` };
  if ((stat.mode & 0o077) !== 0) return { why: `${file} is open to other users (mode ${(stat.mode & 0o777).toString(8)}); it must be 600` };
  const key = fs.readFileSync(file, 'utf8');
  return KEY_HEX.test(key) ? { key } : { why: `${file} does not hold a resident key` };
}

/** Compared in constant time (every character, whatever differs first); anything not a string of the same length is no match. */
export function sameKey(expected: string, given: unknown): boolean {
  if (typeof given !== 'string' || given.length !== expected.length) return false;
  let differ = 0;
  for (let i = 0; i < expected.length; i++) differ |= expected.charCodeAt(i) ^ given.charCodeAt(i);
  return differ === 0;
}
