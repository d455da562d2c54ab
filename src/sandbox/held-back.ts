import fs from 'node:fs';
import path from 'node:path';
import type { PathPolicy } from '../path-policy/judge.js';
import { OWN_INSTALL_WHY, ownInstall } from '../path-policy/own-install.js';
import { isWithin } from '../path-policy/resolve.js';
import type { Layout } from './layout.js';
import type { ResolvedSandbox } from './settings.js';

/**
 * After a sandboxed command: one line for the model saying what the sandbox held back
 * and how a person allows it, read from the command's own error output (a bare
 * `Read-only file system`, a DNS failure, `No such file or directory` for a path that
 * exists outside). Only facts the disk confirms are named; nothing when nothing matches.
 */
export interface HeldBackInputs {
  /** The tool's output as the host reports it (a string, or an object with stdout/stderr/output). */
  response: unknown;
  settings: ResolvedSandbox;
  policy: PathPolicy;
  layout: Layout;
  /** Where the command ran (relative paths in its errors are from there); default the workspace. */
  cwd?: string;
  /** The session's own /tmp and /var/tmp, when it has them. */
  temp?: Readonly<Record<string, string>>;
}

const GUARD = 'shellGuard';
const MAX_TEXT = 256 * 1024;

export function heldBack(inputs: HeldBackInputs): string | undefined {
  const text = textOf(inputs.response).slice(-MAX_TEXT);
  if (text === '') return undefined;
  return readOnly(text, inputs) ?? network(text, inputs.settings) ?? hidden(text, inputs);
}

/** The text of a tool's output: a string, or the string fields of an object (stdout, stderr, output, error...). */
function textOf(response: unknown, depth = 0): string {
  if (typeof response === 'string') return response;
  if (response === null || typeof response !== 'object' || depth > 2) return '';
  return Object.values(response as Record<string, unknown>)
    .map((v) => textOf(v, depth + 1))
    .filter((t) => t !== '')
    .join('\n');
}

const READ_ONLY = [
  /EROFS: read-only file system, \w+ '([^']+)'/,
  /'([^'\n]+)'[^'\n]*: Read-only file system/,
  /\[Errno 30\] Read-only file system: '([^']+)'/,
  /([/~][^\s:'"]*): Read-only file system/,
  // git replaces a file by renaming a new one over it: over a protected file (a read-only mount) that is EBUSY.
  /could not write config file ([^\s:]+): Device or resource busy/,
];

/** A read-only folder is a mount: removing or renaming the folder itself (`rm -rf`, `npm ci`) is EBUSY, not EROFS. */
const BUSY = [
  /cannot remove '([^']+)': Device or resource busy/,
  /cannot move '([^']+)' to [^\n]*: Device or resource busy/,
  /EBUSY: resource busy or locked, \w+ '([^']+)'/,
];

function readOnly(text: string, inputs: HeldBackInputs): string | undefined {
  if (/read-only file system|could not write config file [^\s:]+: Device or resource busy/i.test(text)) {
    const raw = firstMatch(text, READ_ONLY);
    return keptReadOnly(raw, raw === undefined ? undefined : absolute(raw, inputs.policy, inputs.cwd), inputs);
  }
  // EBUSY has other causes: named only when the path is one the sandbox keeps read-only.
  const raw = /Device or resource busy|EBUSY/.test(text) ? firstMatch(text, BUSY) : undefined;
  const where = raw === undefined ? undefined : absolute(raw, inputs.policy, inputs.cwd);
  if (where === undefined || !inputs.layout.readOnly.some((p) => isWithin(where, p))) return undefined;
  return keptReadOnly(raw, where, inputs);
}

function keptReadOnly(raw: string | undefined, where: string | undefined, { layout }: HeldBackInputs): string | undefined {
  const shown = raw === undefined ? 'a path' : raw;
  let why = 'outside the folders a command may write';
  let fix = `a person can allow it with ${GUARD}({ allowWrite: ['${where ?? '<folder>'}'] })`;
  if (where !== undefined) {
    const secret = [...layout.maskedDirs, ...layout.maskedFiles].find((m) => isWithin(where, m));
    const kept = layout.readOnly.find((p) => isWithin(where, p));
    if (kept !== undefined && ownInstall().includes(kept)) {
      why = `${OWN_INSTALL_WHY} (${kept})`;
      fix = 'a person reinstalls or removes it outside the agent, in a terminal';
    } else if (secret !== undefined) {
      why = `a secret folder, which the sandbox shows empty (${secret})`;
      fix = 'a person reads or changes it outside the agent';
    } else if (kept !== undefined) {
      why = `a protected path (${kept}): files there run code when an editor, git or an agent next starts`;
      fix = 'a person changes it outside the agent, or approves a Write of it';
    } else if (layout.writable.some((w) => isWithin(where, w))) {
      // Named in full and writable: the error is not the sandbox's. A relative name may be from another folder the command went to.
      if (path.isAbsolute(raw!) || raw!.startsWith('~')) return undefined;
      fix = `a person can allow a folder with ${GUARD}({ allowWrite: ['<folder>'] })`;
    }
  }
  return `hookwise: the OS sandbox kept ${shown} read-only: ${why}; ${fix}.`;
}

const UNRESOLVED = [
  /Could not resolve host: ([^\s'"]+)/,
  /getaddrinfo (?:ENOTFOUND|EAI_AGAIN) ([^\s'"]+)/,
  /(?:Failed to connect to|Could not connect to) ([^\s'"]+)/,
  /Forbidden by hookwise: ([^\s'"]+) is not on sandbox\.network/,
  /HTTPSConnectionPool\(host='([^']+)'/,
  /unable to access 'https?:\/\/([^/':]+)/,
];

const NETWORK_FAILURE =
  /Could not resolve host|getaddrinfo (?:ENOTFOUND|EAI_AGAIN)|Temporary failure in name resolution|Name or service not known|Network is unreachable|ENETUNREACH|CONNECT tunnel failed, response 403|Forbidden by hookwise|Tunnel connection failed: 403|Failed to establish a new connection/;

function network(text: string, settings: ResolvedSandbox): string | undefined {
  if (settings.network === 'on' || !NETWORK_FAILURE.test(text)) return undefined;
  const host = firstMatch(text, UNRESOLVED);
  const named = host === undefined ? 'the host' : host;
  if (settings.network === 'off') {
    return (
      `hookwise: the OS sandbox gave this command no network (sandbox.network is 'off'), so ${named} was not reached; ` +
      `a person can allow package registries and git remotes with ${GUARD}({ sandbox: { network: 'registries' } }), ` +
      `or named hosts with { network: { allow: ['${host ?? '<host>'}'] } }.`
    );
  }
  return (
    `hookwise: the OS sandbox lets this command reach only the hosts on sandbox.network, and ${named} is not one; ` +
    `a person can add it with ${GUARD}({ sandbox: { network: { allow: ['${host ?? '<host>'}'], registries: true } } }).`
  );
}

const MISSING = [
  /cannot (?:access|open|stat) '([^']+)': No such file or directory/,
  /ENOENT: no such file or directory, \w+ '([^']+)'/,
  /\[Errno 2\] No such file or directory: '([^']+)'/,
  /([/~][^\s:'"]*): No such file or directory/,
];

function hidden(text: string, { policy, layout, temp, cwd }: HeldBackInputs): string | undefined {
  if (!/no such file or directory/i.test(text)) return undefined;
  for (const re of MISSING) {
    const raw = re.exec(text)?.[1];
    const where = raw === undefined ? undefined : absolute(raw, policy, cwd);
    if (where === undefined || fs.lstatSync(where, { throwIfNoEntry: false }) === undefined) continue;
    const secret = layout.maskedDirs.find((m) => isWithin(where, m));
    if (secret !== undefined) {
      return `hookwise: ${raw} exists, but it is in ${secret}, a secret folder the OS sandbox shows empty; a person reads it outside the agent.`;
    }
    const top = layout.hidden.find((t) => isWithin(where, t));
    const shown = [...layout.readable, ...layout.writable].some((root) => isWithin(where, root));
    if (top === undefined || shown) continue;
    if (temp?.[top] !== undefined) {
      return `hookwise: ${raw} exists outside the sandbox, but inside it ${top} is this session's own folder; a person can show the real one with ${GUARD}({ allowRead: ['${where}'] }).`;
    }
    return `hookwise: ${raw} exists, but the OS sandbox hides ${top} (a command sees the workspace, the home folder and allowRead); a person can show it with ${GUARD}({ allowRead: ['${where}'] }).`;
  }
  return undefined;
}

function firstMatch(text: string, patterns: RegExp[]): string | undefined {
  for (const re of patterns) {
    const m = re.exec(text)?.[1];
    if (m !== undefined && m !== '') return m.replace(/[.,;)]+$/, '');
  }
  return undefined;
}

/** The path as it is outside: the home folder expanded, a relative one from where the command ran. */
function absolute(raw: string, policy: PathPolicy, cwd: string | undefined): string | undefined {
  const expanded = policy.expandHome(raw);
  if (expanded === undefined) return undefined;
  return path.resolve(cwd ?? policy.workspace, expanded);
}
