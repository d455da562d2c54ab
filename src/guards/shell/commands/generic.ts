/** Checks every command gets, known or not. */
import type { Invocation, JudgeApi } from '../types.js';

/** Programs that only print names: a secret path among their arguments is not read. */
const NAMES_ONLY = new Set(['echo', 'printf', 'ls', 'stat', 'test', '[', 'dirname', 'basename', 'realpath', 'readlink', 'which', 'type', 'file', 'source', '.', 'cd', 'pushd', 'mkdir', 'touch', 'export', 'git', 'rm', 'unlink', 'shred']);
const OUTPUT_OPTION = /^--(output|output-file|out-file|outfile|log-file|logfile|output-document|output-dir|out-dir|outdir)(=(.*))?$/s;

export function genericChecks(inv: Invocation, j: JudgeApi): void {
  if (!NAMES_ONLY.has(inv.name)) for (const a of inv.args) j.read(a, inv);
  if (inv.name === 'git') {
    // git reads files it adds or shows: `git add .env` stages a secret for pushing.
    const sub = inv.args.find((a) => !a.value?.startsWith('-'))?.value;
    if (sub === 'add' || sub === 'show' || sub === 'diff' || sub === 'cat-file') for (const a of inv.args) j.read(a, inv);
  }
  for (let i = 0; i < inv.args.length; i++) {
    const m = OUTPUT_OPTION.exec(inv.args[i]!.value ?? '');
    if (!m) continue;
    const target = m[2] !== undefined ? { ...inv.args[i]!, value: m[3], text: m[3]! } : inv.args[i + 1];
    if (target) j.write(target, inv);
  }
}
