import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { anchorProblem, type Head } from './anchor.js';
import { stateDirOf } from '../core/state-dir.js';

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
 * streams' head seqs (./postgres-trail.ts), which only grows while nobody cuts
 * a stream, with the trail's id in place of a hash.
 *
 * The rule is the same for both: the copy may lag the trail (it is written after
 * the commit, and by several processes), never lead it.
 */
export { STATE_DIR_ENV } from '../core/state-dir.js';

export function userStateDir(env: NodeJS.ProcessEnv = process.env): string {
  return stateDirOf(env, os.homedir());
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

/**
 * The identity of a PostgreSQL trail: server, port, database and schema, without
 * user or password (two roles writing one schema write one trail).
 */
export function postgresIdentity(connectionString: string, schema: string): string {
  const url = new URL(connectionString);
  const host = (url.hostname || url.searchParams.get('host') || 'localhost').toLowerCase();
  const port = url.port || url.searchParams.get('port') || '5432';
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || decodeURIComponent(url.username) || 'postgres';
  return `postgres://${host}:${port}/${database}#${schema}`;
}

/**
 * The copy against the trail's end: true when the copy is level with it or
 * behind it and agrees with what stands there (`at(n)`: SQLite the hash of row n,
 * PostgreSQL the trail id while n is within the sum of its heads).
 */
export function copyFits(copy: Head, count: number, at: (n: number) => string | undefined): boolean {
  return copy.seq <= count && (copy.seq === 0 || at(copy.seq) === copy.hash);
}

/** An SQLite chain against hookwise's copy of its head: undefined when the copy fits, else where it went wrong. */
export function sqliteCopyProblem(
  copy: Head,
  file: string,
  lastSeq: number,
  hashAt: (seq: number) => string | undefined,
): { seq: number; message: string } | undefined {
  if (copyFits(copy, lastSeq, hashAt)) return undefined;
  const problem = anchorProblem(copy, `hookwise's own copy ${file}`, Math.min(lastSeq, copy.seq), hashAt);
  return {
    seq: problem?.seq ?? copy.seq,
    message: `${problem?.message ?? `the chain differs from hookwise's own copy ${file}`}: an older or other database is in its place (a replay)`,
  };
}

/** Creates the folder of the copies, for this user only. */
export function ensureHeadCopyDir(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
}
