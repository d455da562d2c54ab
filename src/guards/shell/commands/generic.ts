/** Checks every command gets, known or not. */
import type { Invocation, JudgeApi } from '../types.js';

/** Programs that only print names: a secret path among their arguments is not read. */
const NAMES_ONLY = new Set([
  'echo',
  'printf',
  'ls',
  'stat',
  'test',
  '[',
  'dirname',
  'basename',
  'realpath',
  'readlink',
  'which',
  'type',
  'file',
  'source',
  '.',
  'cd',
  'pushd',
  'mkdir',
  'touch',
  'export',
  'git',
  'rm',
  'unlink',
  'shred',
]);
const OUTPUT_OPTION = /^--(output|output-file|out-file|outfile|log-file|logfile|output-document|output-dir|out-dir|outdir)(=(.*))?$/s;

export function genericChecks(inv: Invocation, j: JudgeApi): void {
  if (!NAMES_ONLY.has(inv.name)) for (const a of inv.args) j.read(a, inv);
  if (inv.name === 'git') gitReads(inv, j);
  for (let i = 0; i < inv.args.length; i++) {
    const m = OUTPUT_OPTION.exec(inv.args[i]!.value ?? '');
    if (!m) continue;
    const target = m[2] !== undefined ? { ...inv.args[i]!, value: m[3], text: m[3]! } : inv.args[i + 1];
    if (target) j.write(target, inv);
  }
}

/** git subcommands that print file contents (or stage them for pushing). */
const REVEALING_GIT = new Set([
  'add',
  'show',
  'diff',
  'cat-file',
  'log',
  'whatchanged',
  'archive',
  'blame',
  'annotate',
  'grep',
  'format-patch',
  'difftool',
  'bundle',
  'stash',
  'notes',
]);

/**
 * `git show HEAD:.env`, `git log -p -- .env`, `git add .env`: a secret read
 * through git's own names for files (revisions, pathspecs, which git expands
 * itself, so `'.en*'` is a glob here).
 */
function gitReads(inv: Invocation, j: JudgeApi): void {
  // git's own options before the subcommand; some take a value (`git -C dir show …`).
  let subAt = 0;
  while (subAt < inv.args.length && inv.args[subAt]!.value?.startsWith('-'))
    subAt += /^(-C|-c|--git-dir|--work-tree|--namespace|--config-env|--super-prefix)$/.test(inv.args[subAt]!.value!) ? 2 : 1;
  const sub = inv.args[subAt]?.value;
  if (sub === undefined || !REVEALING_GIT.has(sub)) return;
  for (const a of inv.args.slice(subAt + 1)) {
    const v = a.value;
    if (v === undefined || (v.startsWith('-') && !v.includes('='))) continue;
    const value = v.startsWith('-') ? v.slice(v.indexOf('=') + 1) : v;
    if (/^:[!^]/.test(value)) continue; // an exclusion
    const magic = /^:\([^)]*\)(.*)$/s.exec(value);
    const path = magic
      ? magic[1]!
      : value.startsWith(':/')
        ? value.slice(2)
        : value.includes(':')
          ? value.slice(value.indexOf(':') + 1)
          : value;
    if (path !== '') j.readPattern(path.replace(/^\.\//, ''), inv);
  }
}
