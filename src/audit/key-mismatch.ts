import { existsSync } from 'node:fs';
import {
  AUDIT_KEY_ENV,
  AUDIT_KEY_FILE_ENV,
  keyFileSource,
  macMatches,
  readKeyFile,
  type AuditKeyOptions,
  type Head,
  type ResolvedKey,
} from './anchor.js';
import type { AuditProblem } from './verify.js';

/**
 * A head whose MAC fails reads as tampering (`forged-head`), but the usual cause is
 * verify holding another key than the store wrote with. That is a `key-mismatch` when
 * it can be told apart:
 * - another key verify can find (the `--key-file`, `$HOOKWISE_AUDIT_KEY`,
 *   `$HOOKWISE_AUDIT_KEY_FILE`, the default key file) signs the heads: certain;
 * - or none of two or more signed heads (SQLite's head and anchor, PostgreSQL's streams)
 *   matches while the rows and links check out: a forger without the key would have
 *   had to rewrite every head and no row, which changes nothing worth hiding.
 * One head alone that fails stays `forged-head`: a wrong key and a rewrite look the same.
 * Messages name where the key came from, never the key.
 */

/** Problems that mean the rows themselves changed: then a failing head is part of it. */
const CHAIN_KINDS: ReadonlySet<AuditProblem['kind']> = new Set(['edited', 'deleted', 'reordered', 'broken-link', 'rolled-back']);

/** The keys verify could have used besides `used`, in the order it looks for one. */
function otherKeys(options: AuditKeyOptions, defaultFile: string | undefined, used: ResolvedKey, env: NodeJS.ProcessEnv): ResolvedKey[] {
  const found: ResolvedKey[] = [];
  const file = (path: string | undefined, from: 'option' | 'env' | 'default') => {
    if (path === undefined || !existsSync(path)) return;
    try {
      found.push({ key: readKeyFile(path), source: keyFileSource(path, from) });
    } catch {
      // A key file verify cannot use is no candidate.
    }
  };
  if (env[AUDIT_KEY_ENV] && Buffer.byteLength(env[AUDIT_KEY_ENV]!) >= 16)
    found.push({ key: Buffer.from(env[AUDIT_KEY_ENV]!), source: `$${AUDIT_KEY_ENV}` });
  file(options.keyFile, 'option');
  file(env[AUDIT_KEY_FILE_ENV], 'env');
  file(defaultFile, 'default');
  return found.filter((k) => !k.key.equals(used.key));
}

/**
 * `problems` with the `forged-head` problems of `heads` replaced by one `key-mismatch`
 * when the failures come from the key (see above); unchanged otherwise. Returns whether
 * it was a key mismatch (then signed approvals cannot be checked with this key either).
 */
export function classifyKeyMismatch(
  heads: Head[],
  key: ResolvedKey | undefined,
  problems: AuditProblem[],
  keyOptions: AuditKeyOptions,
  defaultFile: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (key === undefined) return false;
  const signed = heads.filter((h) => h.mac !== null);
  const failing = signed.filter((h) => !macMatches(key.key, h));
  if (failing.length === 0) return false;
  const signer = otherKeys(keyOptions, defaultFile, key, env).find((k) => signed.every((h) => macMatches(k.key, h)));
  const chainIntact = !problems.some((p) => CHAIN_KINDS.has(p.kind));
  const noneMatch = failing.length === signed.length && signed.length >= 2 && chainIntact;
  if (!signer && !noneMatch) return false;
  const message = signer
    ? `the heads are signed with the audit key from ${signer.source}, not with the one verify used, from ${key.source}: a key mismatch, not tampering; verify with ${signer.source}`
    : `none of the ${signed.length} signed heads matches the audit key from ${key.source}, and the rows and links check out: the trail was written with another key (a key mismatch, not tampering); verify with the key the store writes with (--key-file <file>, $${AUDIT_KEY_ENV} or $${AUDIT_KEY_FILE_ENV})`;
  const kept = problems.filter((p) => p.kind !== 'forged-head');
  problems.length = 0;
  problems.push({ seq: failing[0]!.seq, kind: 'key-mismatch', message }, ...kept);
  return true;
}
