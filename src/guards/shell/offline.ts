import { provesEach, readsOnly } from '../checkpoint/read-only.js';
import type { ParsedScripts } from '../../shell/parsed.js';
import type { Parser } from '../../shell/parser.js';
import type { SimpleCommand } from '../../shell/script.js';
import { evalWord } from '../../shell/words.js';

/**
 * Programs that work on local files and never open a connection or start a program
 * that could (no hooks, no -exec, no script language). With a network allowlist the
 * sandbox starts its bridge to the proxy before each command, which costs more than
 * the rest of the sandbox; a command made only of these runs without the bridge.
 * Being wrong here costs a command its network, never more than the policy allows.
 */
const LOCAL_PROGRAMS = new Set(['mkdir', 'touch', 'cp', 'mv', 'rm', 'rmdir', 'ln', 'chmod', 'tee', 'truncate', 'sed']);

/** git subcommands that read or change only the local repository and run no hook or filter that fetches. */
const LOCAL_GIT = new Set(['status', 'diff', 'log', 'show', 'rev-parse', 'ls-files', 'blame', 'grep', 'describe', 'reflog', 'shortlog']);

/**
 * Whether the parser proves a command line needs no network: every simple command one
 * the checkpoint guard proves read-only, a local file program, or a local git subcommand,
 * by a name written out (no variable, no function). Anything the parser is unsure of is not proven.
 */
export function provesOffline(parser: Parser, scripts: ParsedScripts, command: string): boolean {
  return provesEach(parser, scripts, command, staysLocal);
}

function staysLocal(command: SimpleCommand): boolean {
  if (readsOnly(command)) return true;
  if (command.declaration || command.assignments.length > 0) return false;
  const [name, sub] = command.words.slice(0, 2).map((w) => evalWord(w, () => undefined).value);
  if (name === undefined) return false;
  if (LOCAL_PROGRAMS.has(name)) return true;
  return name === 'git' && sub !== undefined && LOCAL_GIT.has(sub);
}
