import { mkdirSync, mkdtempSync } from 'node:fs';
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '../..');

/**
 * A folder outside the workspace that the OS sandbox does not give each command empty:
 * not in /tmp or /var/tmp (docs/guards.md, the files pack), so a write there is a real
 * escape for the guards to refuse. Under the checkout's ignored `.tmp/`.
 */
export function outsideDir(prefix: string): string {
  const base = path.join(repoRoot, '.tmp');
  mkdirSync(base, { recursive: true });
  return mkdtempSync(path.join(base, prefix));
}
