import type { Layout } from './layout.js';

/**
 * The shell line a host runs instead of the command (docs/security.md#the-os-sandbox).
 * It is plain POSIX shell around the sandbox program, so that whichever shell the
 * host uses (bash, zsh) runs it, and running it by hand is running it sandboxed:
 *
 *   1. a temp file receives the folder the command ends in;
 *   2. bash scrubs secret-looking variables, then execs the sandbox: its first
 *      process starts from the scrubbed environment, so /proc/1/environ holds no secret;
 *   3. inside, the command is eval'd by bash as `bash -c` would run it, and on exit
 *      writes its folder to descriptor 3;
 *   4. outside again: protected files the command created are moved aside, the
 *      host's shell changes to the folder the command ended in (a `cd` persists, as
 *      it does for the host's own shell), and the command's exit status is returned.
 * Only the folder crosses back; nothing the command wrote is ever run outside.
 */
export interface WrapInputs {
  /** The sandbox program and its arguments, up to and including its `--`. */
  launcher: string[];
  layout: Layout;
  command: string;
  /** Variables to unset by name (their values looked secret when the call was judged). */
  unsetNames: string[];
  /** Variables kept although their names look secret. */
  passEnv: string[];
}

/** Names that look like they hold credentials (matched ignoring case). */
const SECRET_NAME_GLOBS = [
  '*TOKEN*',
  '*SECRET*',
  '*PASSW*',
  '*CREDENTIAL*',
  '*KEY*',
  '*AUTH*',
  '*COOKIE*',
  '*SESSION*',
  '*PRIVATE*',
  '*_PAT',
  '*DATABASE_URL*',
  '*_DSN',
  '*CONNECTION_STRING*',
];

/** A launcher argument that stands for the folder the host's shell is in when it runs the line. */
export const RUNTIME_CWD = '\0cwd';

/** Quote one word for any POSIX shell. */
export function shq(word: string): string {
  if (word === RUNTIME_CWD) return '"$PWD"';
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The scrub that runs in bash before the sandbox starts. */
function scrub(passEnv: string[], unsetNames: string[]): string {
  const keep = passEnv.length > 0 ? `${passEnv.join('|')}) ;; ` : '';
  const names = unsetNames.length > 0 ? ` unset ${unsetNames.join(' ')};` : '';
  return `shopt -s nocasematch; for v in $(compgen -e); do case $v in ${keep}${SECRET_NAME_GLOBS.join('|')}) unset "$v";; esac; done;${names} exec "$@"`;
}

/** Inside the sandbox: run the command as `bash -c` would, and report the folder it ends in. */
const INNER = `__hw_c=$1; set --; trap 'pwd -P >&3' EXIT; eval "$__hw_c"`;

function sweep(layout: Layout): string {
  if (layout.sweep.length === 0) return '';
  const names = layout.sweep.map(shq).join(' ');
  return (
    `for __hw_p in ${names}; do __hw_p=${shq(layout.workspace)}/$__hw_p; ` +
    `if [ -e "$__hw_p" ] || [ -L "$__hw_p" ]; then mv -f -- "$__hw_p" "$__hw_p.hookwise-blocked-$$" && ` +
    `echo "hookwise sandbox: moved $__hw_p aside to $__hw_p.hookwise-blocked-$$ (a protected file the command created)" >&2; fi; done; `
  );
}

export function wrapCommand({ launcher, layout, command, unsetNames, passEnv }: WrapInputs): string {
  const sandbox = [
    '/bin/bash',
    '-c',
    scrub(passEnv, unsetNames),
    'hookwise-sandbox',
    ...launcher,
    '/bin/bash',
    '-c',
    INNER,
    'bash',
    command,
  ];
  return (
    `__hw_f=$(mktemp) && { ${sandbox.map(shq).join(' ')} 3>"$__hw_f"; __hw_s=$?; ${sweep(layout)}` +
    `[ -s "$__hw_f" ] && cd -- "$(cat -- "$__hw_f")"; rm -f -- "$__hw_f"; (exit $__hw_s); }`
  );
}
