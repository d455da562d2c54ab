/**
 * Environment variables that change what later programs run ("environment
 * poisoning"). Data: a name pattern, an optional test of the value that makes
 * it harmless, and the reason shown to people.
 */
export interface EnvRule {
  name: RegExp;
  /** The assignment is fine when this returns true. */
  harmless?: (value: string) => boolean;
  /** Test `harmless` on the source text (with its $-references) when the value is only known at run time. */
  bySource?: boolean;
  why: string;
}

export const BENIGN_VIEWERS = /^(cat|less|less -[A-Za-z]+|more|most|bat|vi|vim|nvim|nano|emacs|code --wait|true|)$/;
const GIT_HARMLESS =
  /^GIT_(AUTHOR|COMMITTER)_(NAME|EMAIL|DATE)$|^GIT_(TERMINAL_PROMPT|TRACE\w*|CURL_VERBOSE|OPTIONAL_LOCKS|MERGE_AUTOEDIT|LFS_SKIP_SMUDGE|FLUSH|ADVICE|PROGRESS_DELAY)$/;

export const ENV_RULES: EnvRule[] = [
  { name: /^(LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_\w+)$/, why: 'makes every program load code from the given libraries' },
  {
    name: /^(BASH_ENV|ENV|PROMPT_COMMAND|PS4|SHELLOPTS|BASHOPTS|BASH_FUNC_\w+%*|IFS|CDPATH|GLOBIGNORE|BASH_XTRACEFD|LESSOPEN|LESSCLOSE)$/,
    why: 'changes how the shell reads and runs later commands',
  },
  {
    name: /^PATH$/,
    harmless: (v) => /^(\$PATH|\$\{PATH\})(:|$)/.test(v),
    bySource: true,
    why: 'decides which program a command name runs (appending with PATH="$PATH:..." is fine)',
  },
  {
    name: /^(PAGER|GIT_PAGER|MANPAGER|SYSTEMD_PAGER|EDITOR|VISUAL|GIT_EDITOR|SUDO_EDITOR|GIT_SEQUENCE_EDITOR|BROWSER)$/,
    harmless: (v) => BENIGN_VIEWERS.test(v.trim()),
    why: 'names a program other tools run for you',
  },
  { name: /^GIT_\w+$/, harmless: () => false, why: 'redirects git to other repositories, configs, programs or hooks' },
  {
    name: /^NODE_OPTIONS$/,
    harmless: (v) => !/(^|\s)(-r|--require|--import|--loader|--experimental-loader|--inspect\S*)(=|\s|$)/.test(v),
    why: 'can make every node process preload code',
  },
  {
    name: /^(PYTHONSTARTUP|PYTHONPATH|PYTHONHOME|PERL5OPT|PERL5LIB|PERLLIB|RUBYOPT|RUBYLIB|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|NODE_PATH)$/,
    why: 'makes an interpreter load code from elsewhere',
  },
  { name: /^(SSH_ASKPASS|SUDO_ASKPASS|GIT_ASKPASS|SSH_AUTH_SOCK)$/, why: 'names a program that answers password prompts' },
  { name: /^(HOME|XDG_CONFIG_HOME|ZDOTDIR|INPUTRC)$/, why: 'points tools at other startup and config files' },
];

/** The rule an assignment breaks, or undefined. `value` undefined = only known at run time. */
export function envPoisoning(name: string, value: string | undefined, source?: string): EnvRule | undefined {
  if (GIT_HARMLESS.test(name)) return undefined;
  for (const rule of ENV_RULES) {
    if (!rule.name.test(name)) continue;
    if (value !== undefined && rule.harmless?.(value)) return undefined;
    if (value === undefined && rule.bySource && source !== undefined && rule.harmless?.(unquote(source))) return undefined;
    return rule;
  }
  return undefined;
}

/** `"$PATH:x"` -> `$PATH:x`: the source of a value without its outer quotes. */
function unquote(source: string): string {
  const m = /^(["'])(.*)\1$/s.exec(source);
  return m ? m[2]! : source;
}
