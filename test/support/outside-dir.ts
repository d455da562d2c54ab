import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const IN_TEMP = /^\/(var\/)?tmp(\/|$)/;

/**
 * A folder outside the workspace that the OS sandbox does not give each command empty:
 * not in /tmp or /var/tmp (docs/guards.md, the files pack), so a write there is a real
 * escape for the guards to refuse. Under the checkout's ignored `.tmp/`, or, for a
 * checkout that is itself in /tmp (a CI clone), under the home folder's `.cache/`.
 */
export function outsideDir(prefix: string): string {
  const base = IN_TEMP.test(realpathSync(repoRoot)) ? path.join(os.homedir(), '.cache', 'hookwise-tests') : path.join(repoRoot, '.tmp');
  mkdirSync(base, { recursive: true });
  return mkdtempSync(path.join(base, prefix));
}
