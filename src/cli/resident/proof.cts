/**
 * How a caller knows that the process on a resident's socket is the resident hookwise
 * started, and that the answer it reads is that resident's answer to this request
 * (docs/claude-code.md#the-resident). The launcher that starts a resident writes a
 * random key next to its socket (`<socket>.key`, mode 600, in the 700 folder); the
 * resident reads it once as it starts. A caller sends a fresh nonce; the resident
 * answers with an HMAC of it before the caller sends anything else (no environment,
 * no tool input goes to a listener that cannot prove itself), and seals its reply
 * with an HMAC over the nonce, the request and the reply. A process that only listens
 * on the socket path has no key and cannot produce either.
 *
 * CommonJS (`.cts`), loaded by the launcher on every call. HMAC-SHA256 of a request
 * costs microseconds, but loading node:crypto costs the launcher about 3 ms: it is
 * loaded on first use, which the launcher arranges to fall while the resident computes
 * its proof (client.cts), and the nonce, which must go out before, is read from the
 * kernel's random source without it.
 */
import type * as Crypto from 'node:crypto';
import fs = require('node:fs');

let loaded: typeof Crypto | undefined;
const crypto = (): typeof Crypto => (loaded ??= require('node:crypto') as typeof Crypto);

const PROOF = 'hookwise-resident-proof\0';
const SEAL = 'hookwise-resident-reply\0';
const KEY_HEX = /^[0-9a-f]{64}$/;

/** The key file of the resident on `socket`. */
export const keyFileOf = (socket: string): string => `${socket.slice(0, -'.sock'.length)}.key`;

/**
 * Where a launcher leaves the key for the resident it starts. The resident takes it as
 * its own file as it starts and makes it the key file only once it listens: a resident
 * that loses the race for the socket never replaces the key of the one that serves.
 */
export const nextKeyFileOf = (socket: string): string => `${keyFileOf(socket)}.next`;

/**
 * 16 random bytes in hex, from /dev/urandom (the source node:crypto's generator seeds
 * from, read without loading node:crypto); node:crypto where it cannot be read.
 */
export function newNonce(): string {
  const bytes = Buffer.alloc(16);
  try {
    const fd = fs.openSync('/dev/urandom', 'r');
    try {
      if (fs.readSync(fd, bytes, 0, 16, null) === 16) return bytes.toString('hex');
    } finally {
      fs.closeSync(fd);
    }
  } catch {}
  return crypto().randomBytes(16).toString('hex');
}

export const proofOf = (key: string, nonce: string): string => crypto().createHmac('sha256', key).update(PROOF).update(nonce).digest('hex');

export function sealOf(key: string, nonce: string, request: string, reply: string): string {
  return crypto()
    .createHmac('sha256', key)
    .update(SEAL)
    .update(nonce)
    .update('\0')
    .update(request)
    .update('\0')
    .update(reply)
    .digest('hex');
}

/** Compared in constant time; anything not a 64-character hex string is no match. */
export function matches(expected: string, given: unknown): boolean {
  if (typeof given !== 'string' || given.length !== expected.length) return false;
  return crypto().timingSafeEqual(Buffer.from(expected), Buffer.from(given));
}

/** A new key for a resident about to start, written whole (a reader never sees half of one) with mode 600. */
export function writeKey(file: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, crypto().randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
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
