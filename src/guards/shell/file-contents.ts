import fs from 'node:fs';
import path from 'node:path';
import type { PathPolicy } from '../../path-policy/judge.js';
import { createScanner } from '../../secrets/scan.js';

const MAX_SCAN_BYTES = 1 << 20;
let scanner: ReturnType<typeof createScanner> | undefined;

/** Secrets inside a file about to leave the machine (first MiB), described for a reason. */
export function secretsInFile(policy: PathPolicy, raw: string, cwd: string): string | undefined {
  const expanded = policy.expandHome(raw);
  if (expanded === undefined) return undefined;
  const file = path.resolve(cwd, expanded);
  let text: string;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const buf = Buffer.alloc(Math.min(fs.fstatSync(fd).size, MAX_SCAN_BYTES));
      fs.readSync(fd, buf, 0, buf.length, 0);
      text = buf.toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
  return secretsInText(text);
}

/** Secrets in a text about to leave the machine, described for a reason. */
export function secretsInText(text: string): string | undefined {
  const hits = (scanner ??= createScanner()).find(text);
  if (hits.length === 0) return undefined;
  return [...new Set(hits.map((h) => `${/^[AEIOU]/.test(h.label) ? 'an' : 'a'} ${h.label} (${h.hint})`))].slice(0, 2).join(' and ');
}

/** Parts of an argument that may name a file: the whole, after `=`, after `@`. */
export function pathCandidates(value: string): string[] {
  const out = [value];
  const eq = value.indexOf('=');
  // `--key=path` names one path; text with spaces after `=` is an assignment inside a script (`bash -c 'K=~/x npm test'`).
  if (eq >= 0 && !/\s/.test(value.slice(eq + 1))) out.push(value.slice(eq + 1));
  const at = value.lastIndexOf('@');
  if (at >= 0) out.push(value.slice(at + 1));
  if (value.startsWith('<')) out.push(value.slice(1));
  return out.filter(
    (v) =>
      v !== '' &&
      v.length < 4096 &&
      !v.includes('\n') &&
      !/^[a-z+.-]+:\/\//i.test(v) &&
      (!/\s/.test(v) || /^(\/|~|\.\.?\/|\$HOME)/.test(v)),
  );
}
