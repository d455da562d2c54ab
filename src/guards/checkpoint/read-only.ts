import { overLimit } from '../../shell/limits.js';
import type { ParsedScripts } from '../../shell/parsed.js';
import type { Parser } from '../../shell/parser.js';
import type { SimpleCommand } from '../../shell/script.js';
import { evalWord } from '../../shell/words.js';

/** Options that make a reading program write or run another (each program's own manual). */
type ArgsCheck = (args: string[]) => boolean;

const any: ArgsCheck = () => true;
const none =
  (...banned: RegExp[]): ArgsCheck =>
  (args) =>
    !args.some((a) => banned.some((b) => b.test(a)));
const noArgs: ArgsCheck = (args) => args.length === 0;

/**
 * Programs that read and print, and nothing else, with the options that would make them
 * write named. Whatever is not here (git among them: the repository's config, which the
 * agent can write, runs pagers, fsmonitors and diff drivers) is not proven read-only, and
 * gets its checkpoint. A wrong "read-only" costs an unrecoverable step; a missing one
 * costs a few milliseconds.
 */
const READERS: Record<string, ArgsCheck> = {
  cat: any,
  head: any,
  tail: any,
  wc: any,
  grep: any,
  egrep: any,
  fgrep: any,
  rg: none(/^--pre/, /^--search-zip$/, /^-[a-zA-Z]*z/),
  ls: any,
  pwd: any,
  echo: any,
  printf: any,
  which: any,
  type: any,
  stat: any,
  du: any,
  df: any,
  diff: any,
  cmp: any,
  cut: any,
  tr: any,
  nl: any,
  tac: any,
  rev: any,
  fold: any,
  column: any,
  comm: any,
  paste: any,
  expand: any,
  seq: any,
  basename: any,
  dirname: any,
  realpath: any,
  readlink: any,
  whoami: any,
  id: any,
  uname: any,
  true: any,
  false: any,
  test: any,
  '[': any,
  sha1sum: none(/^-[a-zA-Z]*c/, /^--check/),
  sha256sum: none(/^-[a-zA-Z]*c/, /^--check/),
  md5sum: none(/^-[a-zA-Z]*c/, /^--check/),
  jq: any,
  cd: any,
  nproc: any,
  ps: any,
  printenv: any,
  uptime: any,
  od: any,
  hexdump: any,
  strings: any,
  hostname: noArgs,
  tree: none(/^-[a-zA-Z]*o/, /^--fromfile/),
  file: none(/^-[a-zA-Z]*C/, /^--compile/),
  date: none(/^-[a-zA-Z]*s/, /^--set/),
  find: none(/^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/),
  sort: none(/^-[a-zA-Z]*o/, /^--output/, /^--compress-program/),
  uniq: (args) => args.filter((a) => !a.startsWith('-')).length <= 1,
};

/** Redirections that write nowhere: to /dev/null, or from one descriptor to another. */
const HARMLESS_TARGET = /^(\/dev\/null|\d+|-)$/;

/**
 * Whether the parser proves a command line reads and nothing else, so that the step
 * needs no checkpoint: every simple command a known reader with static words, no
 * assignment (a PATH= would choose another program), no function, no redirection that
 * writes a file. Anything the parser is unsure of is not proven.
 */
export function provesReadOnly(parser: Parser, scripts: ParsedScripts, command: string): boolean {
  return provesEach(parser, scripts, command, readsOnly);
}

/**
 * Whether the parser proves `holds` of every simple command of a line it reads whole:
 * no problem, no function. Anything the parser is unsure of is not proven.
 */
export function provesEach(parser: Parser, scripts: ParsedScripts, command: string, holds: (command: SimpleCommand) => boolean): boolean {
  if (command.trim() === '' || overLimit(command) !== undefined) return false;
  try {
    return scripts.use(
      parser,
      command,
      (script) => script.problems.length === 0 && script.functions.size === 0 && script.commands.every(holds),
    );
  } catch {
    return false;
  }
}

/** One simple command a known reader with static words, no assignment, no redirection that writes a file. */
export function readsOnly(command: SimpleCommand): boolean {
  if (command.declaration || command.assignments.length > 0) return false;
  const words = command.words.map((w) => evalWord(w, () => undefined));
  if (words.length === 0 || words.some((w) => w.value === undefined || w.hazard !== undefined)) return false;
  const [name, ...args] = words.map((w) => w.value!);
  const check = Object.hasOwn(READERS, name!) ? READERS[name!] : undefined;
  if (check === undefined || !check(args)) return false;
  return command.redirects.every((r) => {
    if (r.heredoc || !r.op.includes('>')) return r.target === undefined || evalWord(r.target, () => undefined).value !== undefined;
    const target = r.target === undefined ? undefined : evalWord(r.target, () => undefined).value;
    return target !== undefined && HARMLESS_TARGET.test(target);
  });
}
