import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * hookwise's own copy of each trail's head, kept in the user's state folder
 * outside the workspace (`$HOOKWISE_STATE_DIR`, else `$XDG_STATE_HOME/hookwise`,
 * else `~/.local/state/hookwise`), where the agent cannot write: the path guard
 * protects it and the sandbox does not mount it. The `<db>.head` anchor sits
 * beside the database and goes wherever the database goes; this copy does not,
 * so an old database put back with its old anchor (a replay) ends before it.
 *
 * One file per trail, named by a hash of the trail's identity (the database's
 * real path; for PostgreSQL, the server, database and schema), in the anchor's
 * format (./anchor.ts): SQLite keeps its head; PostgreSQL keeps the sum of its
 * streams' head seqs, which only grows while nobody cuts a stream.
 */
export const STATE_DIR_ENV = 'HOOKWISE_STATE_DIR';

export function userStateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env[STATE_DIR_ENV]) return path.resolve(env[STATE_DIR_ENV]);
  if (env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME)) return path.join(env.XDG_STATE_HOME, 'hookwise');
  return path.join(os.homedir(), '.local', 'state', 'hookwise');
}

/** The copy's file for a trail; `identity` is a database's real path or a PostgreSQL target without its password. */
export function headCopyPath(stateDir: string, identity: string): string {
  return path.join(stateDir, 'heads', `${createHash('sha256').update(identity).digest('hex').slice(0, 32)}.head`);
}

/** The identity of an SQLite database: its real path (a symlink to it is the same trail). */
export function sqliteIdentity(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/** Creates the folder of the copies, for this user only. */
export function ensureHeadCopyDir(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
}
