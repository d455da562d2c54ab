import fs from 'node:fs';

/**
 * A sandboxed line as a whole: a sealed line (src/sandbox/sealed-line.ts) names its script
 * by digest; this is the line followed by that script, read from the file the line names,
 * so a test can look for what the sandbox runs (`/bwrap `) in either form.
 */
export function unsealed(line: string | undefined): string {
  if (typeof line !== 'string') return String(line);
  const named = /__hw_f=(?:'([^']*)'|([^;\s]+));/.exec(line);
  if (named === null) return line;
  return `${line}\n${fs.readFileSync(named[1] ?? named[2]!, 'utf8')}`;
}
