import type { SimpleCommand } from '../../shell/script.js';
import type { Arg } from './args.js';
import type { Language } from './foreign-code.js';

export type { Finding, Level } from './judgement.js';

/** Where a command's standard input comes from. */
export type Stdin =
  | { kind: 'none' }
  | { kind: 'heredoc'; body: string; expands: boolean }
  | { kind: 'herestring'; arg: Arg }
  | { kind: 'file'; arg: Arg }
  | { kind: 'pipe'; upstream: SimpleCommand[] }
  /** Lines produced at run time (xargs, find -exec). */
  | { kind: 'runtime'; what: string };

/** One command about to be judged, wrappers removed. */
export interface Invocation {
  name: string;
  argv0: Arg;
  args: Arg[];
  /** `rm -rf`: the name and its options, for messages. */
  label: string;
  stdin: Stdin;
}

export type StdinText = { kind: 'none' } | { kind: 'text'; text: string } | { kind: 'unknown'; what: string };

export interface WriteOptions {
  recursive?: boolean;
  /** A destination things are put into (`mv x /tmp/`), not itself replaced or deleted. */
  into?: boolean;
  /** "targets", "writes", "deletes", ... Default "writes". */
  verb?: string;
}

/** What a command handler can ask of the judge. */
export interface JudgeApi {
  deny(reason: string): void;
  /** The command destroys state hookwise cannot look at (no repository, a path known only at run time). */
  irreversible(reason: string): void;
  unprovable(reason: string): void;
  ask(reason: string): void;
  /** A file the command writes, deletes or changes. */
  write(arg: Arg, inv: Invocation, opts?: WriteOptions): void;
  /** A file the command reads: refused if it is a secret. */
  read(arg: Arg, inv: Invocation): void;
  /** A path or pattern the tool itself expands (git pathspecs): refused if it can name a secret. */
  readPattern(value: string, inv: Invocation): void;
  /** A file the command sends over the network: refused if it is a secret or holds one. */
  upload(arg: Arg, inv: Invocation): void;
  /** Whether a path really lies in the workspace (or an extra allowed root). */
  isInside(raw: string, cwd: string): boolean;
  /** Every one of these files (absolute) is the agent's own work of this session (made-this-session.ts). */
  madeThisSession(files: readonly string[]): boolean;
  /** The argument is `"$d"` (`below`: or a file in it) and the line sets d once, to a folder `$(mktemp)` made, and by nothing else. */
  holdsNewTemp(text: string, below?: boolean): boolean;
  /** The command sends its stdin over the network: judge where it comes from. */
  uploadStdin(inv: Invocation): void;
  /** What feeds the command's stdin through a pipe, when it is a single command. */
  producer(inv: Invocation): import('./wrappers.js').StdinProducer | undefined;
  /** A script file the command runs: fine in the workspace, unprovable elsewhere. */
  runsScript(arg: Arg, inv: Invocation): void;
  /** Shell code the command runs (bash -c, eval, find -exec sh -c, ...). */
  code(arg: Arg | string, inv: Invocation, what: string): void;
  /** Another command line the command runs (find -exec, xargs). */
  argv(args: Arg[], stdin: Stdin): void;
  /** Code in another language (python -c, node -e, awk programs). */
  foreign(code: Arg | string, language: Language, inv: Invocation): void;
  /** The command reads code from stdin (sh, bash -s, python -). */
  stdinCode(inv: Invocation, language: Language | 'shell'): void;
  /** A variable set for a command or the shell: refused if it poisons the environment. */
  assign(name: string, value: string | undefined, text: string, source?: string): void;
  /** The text on the command's stdin when it can be read now (here-doc, echo, a workspace file). */
  stdinText(inv: Invocation): StdinText;
  /** Folders relative paths may be relative to; undefined when unknown. */
  readonly cwds: string[] | undefined;
}

export type Handler = (inv: Invocation, judge: JudgeApi) => void;
