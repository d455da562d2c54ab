import path from 'node:path';
import type { Layout } from './layout.js';
import type { InstallLink } from '../path-policy/own-install.js';

/**
 * The shell line a host runs instead of the command (docs/security.md#the-os-sandbox).
 * It is plain POSIX shell around the sandbox program, so that whichever shell the
 * host uses (bash, zsh, sh) runs it, and running it by hand is running it sandboxed.
 * It starts no process of its own besides the sandbox and the bash inside it:
 *
 *   1. the sandbox runs bash as its first process, whose environment file is masked
 *      (/proc/1/environ); bash unsets secret-looking variables, so nothing the command
 *      starts inherits them;
 *   2. bash evals the command as `bash -c` would, and on exit writes the folder it
 *      ends in to descriptor 3, a pipe the host's shell reads;
 *   3. outside again: protected files the command created are moved aside, the host's
 *      shell changes to the folder the command ended in (a `cd` persists, as it does
 *      for the host's own shell), and the command's exit status is returned.
 * Only the folder crosses back; nothing the command wrote is ever run outside.
 */
export interface WrapInputs {
  /** The sandbox program and its arguments, up to and including its `--`, each quoted with shq (made once per layout). */
  launcher: string;
  layout: Layout;
  command: string;
  /**
   * The command as a shell word read at run time instead of the quoted text (`"$__hw_cmd"`):
   * the line is then the same for every command, and can be sealed (sealed-line.ts).
   */
  commandWord?: string;
  /** Variables to unset by name (their values looked secret when the call was judged). */
  unsetNames: string[];
  /** Variables kept although their names look secret. */
  passEnv: string[];
  /**
   * A folder only this sandbox sees, where its bash may write (bubblewrap's private
   * /dev/shm): the scrub lists the variables there in one pass. Without one (macOS),
   * it looks the variables up letter by letter, which costs bash about 0.8 ms.
   */
  scratch?: string;
  /** Bash run inside after the scrub, before the command (the network bridge, proxy/bridge.ts). */
  prelude?: string;
  /**
   * Said on stderr when the command tried to reach a host and the sandbox's network had
   * no route for it (the kernel's own count, OutNoRoutes in /proc/net/snmp, which is the
   * sandbox's network namespace's): a blocked connection says so, whatever the program printed.
   */
  noRoute?: string;
  /** Said on stderr after the command, outside: what it did only to its session's copies (the guard's reasons). */
  notes?: readonly string[];
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

/** Every variable by the letter it starts with (\${!A*}): the same list as compgen, without forking a subshell for it. */
const ALL_VARIABLES = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_'].map((c) => `\${!${c}*}`).join(' ');

/** Inside the sandbox: drop secret-looking variables, run the command as `bash -c` would, report the folder it ends in. */
function inner(passEnv: string[], unsetNames: string[], scratch: string | undefined, prelude = '', noRoute?: string): string {
  const names = unsetNames.length > 0 ? ` unset ${unsetNames.join(' ')};` : '';
  return `${scrub(passEnv, scratch)}${names}${prelude ? ` ${prelude}` : ''} __hw_c=$1; set --; trap ${shq(onExit(noRoute))} EXIT; eval "$__hw_c"`;
}

/** The EXIT trap: report the folder; with `noRoute`, say it when a connection found no route. Builtins only: no process starts. */
function onExit(noRoute: string | undefined): string {
  if (noRoute === undefined) return 'pwd -P >&3';
  return (
    '__hw_x=$?; pwd -P >&3; { IFS=" " read -ra __hw_h; IFS=" " read -ra __hw_v; } </proc/net/snmp 2>/dev/null; ' +
    'for __hw_i in "${!__hw_h[@]}"; do [ "${__hw_h[__hw_i]}" = OutNoRoutes ] && [ "${__hw_v[__hw_i]:-0}" != 0 ] && ' +
    `printf '%s\n' ${shq(noRoute)} >&2; done; exit $__hw_x`
  );
}

function scrub(passEnv: string[], scratch: string | undefined): string {
  const secret = SECRET_NAME_GLOBS.join('|');
  if (scratch === undefined) {
    const keep = passEnv.length > 0 ? `${passEnv.join('|')}) ;; ` : '';
    return `shopt -s nocasematch; for __hw_v in ${ALL_VARIABLES}; do case $__hw_v in ${keep}${secret}) unset "$__hw_v" 2>/dev/null;; esac; done; shopt -u nocasematch;`;
  }
  // compgen lists the exported variables (all a child inherits) and keeps those that look secret, in one pass; its
  // filter honours nocasematch (a negated extglob filter would cost bash a millisecond). The sentinel word keeps its
  // status 0 when nothing matches, so a bash without compgen stops here instead of running the command unscrubbed.
  const list = `${scratch}/.hookwise-variables`;
  const unset =
    passEnv.length > 0
      ? `for __hw_v in "\${__hw_l[@]}"; do case $__hw_v in ${passEnv.join('|')}) ;; *) unset -v "$__hw_v" 2>/dev/null;; esac; done;`
      : 'unset -v "${__hw_l[@]}" 2>/dev/null;';
  return (
    `shopt -s nocasematch extglob; compgen -e -W __hw_TOKEN -X '!@(${secret})' > ${list} || ` +
    `{ echo 'hookwise sandbox: this bash cannot list its variables (compgen): nothing runs' >&2; exit 126; }; ` +
    `mapfile -t __hw_l < ${list}; : > ${list}; ${unset} shopt -u nocasematch extglob; unset -v __hw_l;`
  );
}

/** The sweep's text for each layout (a layout is kept, unchanged, while the disk is). */
const sweeps = new WeakMap<Layout, string>();

function sweep(layout: Layout): string {
  let text = sweeps.get(layout);
  if (text === undefined) sweeps.set(layout, (text = sweepText(layout)));
  return text;
}

/** Outside, after the command: what it must not have left (./layout.ts names both lists). */
function sweepText(layout: Layout): string {
  return sweepNames(layout) + layout.links.map(putBack).join('');
}

/**
 * Outside, after the command: protected names it created are moved aside. The new name
 * is one nothing holds (the command may have made `<name>.hookwise-blocked-<pid>` for
 * every pid, as a link to a folder outside, and mv moves into a folder it is given);
 * nothing in the sandbox runs any more, so the name stays free until mv.
 */
function sweepNames(layout: Layout): string {
  if (layout.sweep.length === 0) return '';
  const names = layout.sweep.map(shq).join(' ');
  return (
    `for __hw_p in ${names}; do __hw_p=${shq(layout.workspace)}/$__hw_p; ` +
    `if [ -e "$__hw_p" ] || [ -L "$__hw_p" ]; then __hw_t="$__hw_p.hookwise-blocked-$$"; ` +
    `while [ -e "$__hw_t" ] || [ -L "$__hw_t" ]; do __hw_t="$__hw_t-"; done; mv -f -- "$__hw_p" "$__hw_t" && ` +
    `echo "hookwise sandbox: moved $__hw_p aside to $__hw_t (a protected file the command created)" >&2; fi; done; `
  );
}

/**
 * A link to hookwise's own install (`node_modules/hookwise`, pnpm's links to what it
 * loads) that no longer leads where it led is moved aside and made again: the next hook
 * call starts from it, outside the sandbox. `-ef` is the shell's own test (same device
 * and inode): no process runs unless the link changed.
 */
function putBack({ link, text, real }: InstallLink): string {
  const l = shq(link);
  return (
    `if ! [ ${shq(path.join(link, 'package.json'))} -ef ${shq(path.join(real, 'package.json'))} ]; then __hw_t=${l}.hookwise-blocked-$$; ` +
    `while [ -e "$__hw_t" ] || [ -L "$__hw_t" ]; do __hw_t="$__hw_t-"; done; ` +
    `{ { [ ! -e ${l} ] && [ ! -L ${l} ]; } || mv -f -- ${l} "$__hw_t"; } && ln -s -- ${shq(text)} ${l} && ` +
    `printf '%s\\n' "hookwise sandbox: put back "${l}", a link to hookwise's own install the command changed (what was there is now $__hw_t)" >&2; fi; `
  );
}

function said(notes: readonly string[] | undefined): string {
  if (notes === undefined || notes.length === 0) return '';
  return `printf '%s\\n' ${notes.map((n) => shq(`hookwise sandbox: ${n}`)).join(' ')} >&2; `;
}

export function wrapCommand(inputs: WrapInputs): string {
  const { launcher, layout, command, commandWord, unsetNames, passEnv, scratch, prelude, noRoute, notes } = inputs;
  const word = commandWord ?? shq(command);
  const sandbox = `${launcher} /bin/bash -c ${shq(inner(passEnv, unsetNames, scratch, prelude, noRoute))} bash ${word}`;
  // fd 4 is the host's stdout; inside the substitution, the command writes there and only fd 3 is captured.
  // \`exec\`: the substitution's subshell becomes the sandbox (shells fork again for a command with redirections).
  // fd 5 (the sealed line's script, when there is one) is closed for the sandbox.
  const after = sweep(layout);
  // A host that ends the command early (its timeout: SIGTERM to the group) still gets the sweep: bash runs the
  // trap once the sandbox, which got the signal too, has gone.
  const early = after === '' ? '' : `trap ${shq(`${after}exit 143`)} TERM HUP INT; `;
  return (
    `${early}{ __hw_d=$(exec ${sandbox} 3>&1 1>&4 4>&- 5<&-); __hw_s=$?; } 4>&1; ${after === '' ? '' : 'trap - TERM HUP INT; '}${after}${said(notes)}` +
    // A function returns the status without forking a subshell for \`(exit N)\`.
    `[ -n "$__hw_d" ] && cd -- "$__hw_d"; __hw_status() { return $1; }; __hw_status $__hw_s`
  );
}
