/**
 * Where a resident hookwise listens, and which calls it may answer
 * (docs/claude-code.md#the-resident). CommonJS (`.cts`): the client that every tool
 * call starts loads this before anything else, and an ES module costs start-up.
 *
 * A resident serves exactly one *identity*: this hookwise build, this Node, the
 * working folder, the command's arguments and the whole environment but for the
 * session's own variables (SESSION_VARIABLES), which each call carries. A call whose
 * identity differs goes elsewhere (the socket's name is a hash of it) and a resident
 * checks the identity itself, so a hash collision is refused, never answered.
 */
import fs = require('node:fs');
import type * as Os from 'node:os';
import path = require('node:path');

/** Bumped when the request or reply shape changes: an older resident then never matches. */
const PROTOCOL = 4;
/** Unix socket paths are limited to 108 bytes on Linux (104 on macOS). */
export const MAX_SOCKET_PATH = 100;

/** Set in the environment of everything hookwise runs: a hook that calls `hookwise claude-code` again is ignored. */
export const RECURSION_GUARD = 'HOOKWISE_CLAUDE_CODE';
/** The environment variable that turns residents off (`0`); `--no-resident` does the same for one command. */
export const RESIDENT_ENV = 'HOOKWISE_RESIDENT';
/** Where residents listen instead of the default folder (tests, or a machine without a private runtime folder). */
export const RESIDENT_DIR_ENV = 'HOOKWISE_RESIDENT_DIR';
/** The flag that makes `hookwise claude-code` the resident itself; never part of the identity. */
export const RESIDENT_FLAG = '--resident-serve';

/**
 * Claude Code's variables of one session (2.1.328: new values in each session, the rest
 * of its hooks' environment the same). They are not part of the identity, so that one
 * resident serves a project's sessions one after another; each call carries them
 * (sessionOf) and the resident sets them for the call (./session-env.ts).
 */
export const SESSION_VARIABLES: readonly string[] = [
  'CLAUDE_CODE_SESSION_ID',
  'CLAUDE_PID',
  'CLAUDE_CODE_MESSAGING_SOCKET',
  'CLAUDE_CODE_MESSAGING_TOKEN',
  'CLAUDE_CODE_CHILD_NOTES_DIR',
];

/** This call's values of SESSION_VARIABLES (only those set). */
export function sessionOf(env: NodeJS.ProcessEnv): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of SESSION_VARIABLES) if (env[name] !== undefined) values[name] = env[name];
  return values;
}

/** What a resident serves: compared whole, by the resident, on every call. */
export function identityOf(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): string {
  // The names sorted by the default order (UTF-16 code units, as `<` compares them): no comparator to call per pair.
  const entries: [string, string][] = [];
  for (const name of Object.keys(env).sort()) {
    const value = env[name];
    if (value !== undefined && !SESSION_VARIABLES.includes(name)) entries.push([name, value]);
  }
  return JSON.stringify([PROTOCOL, buildStamp(), process.execPath, process.version, cwd, args, entries]);
}

/** This hookwise build: a rebuilt or reinstalled hookwise never talks to a resident of the old one. */
function buildStamp(): string {
  const stat = fs.statSync(__filename);
  return `${__filename}:${stat.mtimeMs}:${stat.size}`;
}

/**
 * The folder residents listen in: `$HOOKWISE_RESIDENT_DIR`, else `$XDG_RUNTIME_DIR/hookwise`,
 * else `<tmp>/hookwise-<uid>`. Undefined when it cannot be trusted (see trusted()).
 */
export function residentDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env[RESIDENT_DIR_ENV]) return path.resolve(env[RESIDENT_DIR_ENV]);
  if (env.XDG_RUNTIME_DIR) return path.join(env.XDG_RUNTIME_DIR, 'hookwise');
  // node:os only here: the launcher loads this file on every call, and most sessions have a runtime folder.
  const { tmpdir } = require('node:os') as typeof Os;
  return path.join(tmpdir(), `hookwise-${process.getuid?.() ?? 'user'}`);
}

/**
 * Whoever can create a socket in the folder could answer for hookwise: only a folder
 * that is ours, a real directory (not a link) and closed to everyone else is used.
 * The reason it is not, or undefined when it is.
 */
export function untrusted(dir: string): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(dir);
  } catch {
    return `${dir} does not exist`;
  }
  if (!stat.isDirectory()) return `${dir} is not a directory`;
  if (process.getuid && stat.uid !== process.getuid()) return `${dir} belongs to another user (uid ${stat.uid})`;
  if ((stat.mode & 0o077) !== 0) return `${dir} is open to other users (mode ${(stat.mode & 0o777).toString(8)}); it must be 700`;
  return undefined;
}

/** The socket of the resident that serves `identity`; undefined when the path would be too long. */
export function socketPath(dir: string, identity: string): string | undefined {
  const file = path.join(dir, `${hash(identity)}.sock`);
  return file.length <= MAX_SOCKET_PATH ? file : undefined;
}

/**
 * 64 bits of FNV-1a, in hex. Only names the socket: the resident compares the whole
 * identity, so a collision costs a refused call, not a wrong answer (and node:crypto
 * would cost start-up on every tool call).
 */
function hash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (a >>> 7);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/**
 * A request, one JSON line, sent once the resident has shown its key (./key.cts), with
 * `every`: the heartbeat interval the caller asks for.
 */
export type ResidentRequest =
  | { op: 'hook'; identity: string; session: Record<string, string>; input: string }
  | { op: 'status' }
  | { op: 'stop' };

/** A reply, one JSON line; the resident closes after it. `decline`: nothing ran; the caller answers in-process. */
export type ResidentReply =
  | { kind: 'answer'; stdout?: string; stderr?: string; code: number }
  | { kind: 'decline'; why: 'identity' | 'stale' | 'closing' }
  | { kind: 'status'; pid: number; cwd: string; args: string[]; startedAt: string; answered: number; config: string[] }
  | { kind: 'stopping' };
