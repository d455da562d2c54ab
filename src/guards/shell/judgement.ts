/**
 * What the shell judge found, as plain data. It imports nothing, so the public types
 * that show it (ShellJudge) do not pull the bash parser's declarations into a
 * consumer's type-check (test/package).
 */
/**
 * deny: refused. irreversible: would destroy what hookwise could not look at (asked when
 * interactive, else refused; never contained by a sandbox, since the loss is inside the
 * workspace). unprovable: not proven safe (asked or refused). ask: needs a person.
 */
export type Level = 'deny' | 'irreversible' | 'unprovable' | 'ask';

export interface Finding {
  level: Level;
  reason: string;
}

/** One simple command of the line, as bash will run it. */
export interface SeenCommand {
  line: string;
  /** Wrappers peeled before it (env, command, nice, ...). */
  wrappers: string[];
}

export interface Judgement {
  findings: Finding[];
  /** Every simple command matched a user allow rule. */
  allowedByRule: boolean;
  /** The simple commands seen (for explanations). */
  commands: string[];
  /** The same, with the wrappers peeled from each. */
  simple: SeenCommand[];
  /** Pack rules that objected, e.g. `git/reset-hard`. */
  rules: string[];
  /** What was looked at on disk. */
  looks: string[];
}
