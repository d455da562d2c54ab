/**
 * Tools with a way out to a shell: sqlite3 dot-commands, gdb commands, ed's
 * `!`, pager and editor commands, bash's `hash -p` and `enable -f`. Each is
 * judged by the commands it is given; what cannot be read is unprovable.
 */
import { BENIGN_VIEWERS } from '../env-rules.js';
import { literalArg, parseOptions, valuesOf, type Arg } from '../args.js';
import type { Invocation, JudgeApi } from '../types.js';
import { def } from './registry.js';

/** Text given to a tool as commands: its arguments' values and its stdin, or why it cannot be read. */
function commandTexts(inv: Invocation, j: JudgeApi, args: Arg[]): { texts: string[]; unknown?: string } {
  const texts: string[] = [];
  for (const a of args) {
    if (a.dynamic) return { texts, unknown: a.text };
    texts.push(a.value!);
  }
  const stdin = j.stdinText(inv);
  if (stdin.kind === 'text') texts.push(stdin.text);
  if (stdin.kind === 'unknown') return { texts, unknown: stdin.what };
  return { texts };
}

// sqlite3: `.shell`/`.system` run commands, `|cmd` after .once/.output/.import/.read pipes through one,
// extensions load native code, edit() starts an editor.
const SQLITE_SHELL = /(^|[\n;])\s*\.(shell|system|sh)\b|\.(once|output|import|read|excel|www)\b[^\n]*?['"]?\|/i;
const SQLITE_CODE = /\.load\b|load_extension\s*\(|\bedit\s*\(/i;
const SQLITE_WRITES =
  /(?:^|[\n;])\s*\.(?:output|once|save|backup|clone|dump)\s+(?:-\S+\s+)*['"]?([^\s'";|]+)|\bwritefile\s*\(\s*'([^']+)'/gi;
const SQLITE_READS = /\breadfile\s*\(\s*'([^']+)'|(?:^|[\n;])\s*\.(?:import|read|open|restore)\s+(?:-\S+\s+)*['"]?([^\s'";|]+)/gi;

def(['sqlite3', 'sqlite'], (inv, j) => {
  // sqlite3 takes single-dash long options; the ones with a value:
  const valued = new Set([
    '-cmd',
    '-init',
    '-separator',
    '-newline',
    '-nullvalue',
    '-vfs',
    '-maxsize',
    '-lookaside',
    '-pagecache',
    '-mmap',
    '-heap',
    '-escape',
  ]);
  const cmds: Arg[] = [];
  const operands: Arg[] = [];
  let readonly = false;
  for (let i = 0; i < inv.args.length; i++) {
    const a = inv.args[i]!;
    const v = a.value ?? '';
    if (!a.dynamic && /^--?[a-z]/.test(v)) {
      const name = v.replace(/^--/, '-');
      if (name === '-readonly' || name === '-safe') readonly ||= name === '-readonly';
      if (name === '-safe') return; // --safe turns off every escape and file access
      if (valued.has(name)) {
        const value = inv.args[++i];
        if (value && name === '-cmd') cmds.push(value);
        if (value && name === '-init') j.runsScript(value, inv);
      }
      continue;
    }
    operands.push(a);
  }
  const [db, ...sql] = operands;
  if (db && !readonly && db.value !== ':memory:') j.write(db, inv, { verb: 'opens the database' });
  const { texts, unknown } = commandTexts(inv, j, [...cmds, ...sql]);
  const all = texts.join('\n');
  if (SQLITE_SHELL.test(all)) j.deny(`\`${inv.label}\` runs a shell command through sqlite3's .shell/.system or a | pipe`);
  if (SQLITE_CODE.test(all)) j.deny(`\`${inv.label}\` loads native code or starts an editor from SQL`);
  for (const m of all.matchAll(SQLITE_WRITES)) j.write(literalArg(m[1] ?? m[2]!), inv);
  for (const m of all.matchAll(SQLITE_READS)) j.read(literalArg(m[1] ?? m[2]!), inv);
  if (unknown !== undefined)
    j.unprovable(`\`${inv.label}\` runs SQL and dot-commands from ${unknown}, only known when it runs (they can run shell commands)`);
});

// gdb: `shell`, `!`, `pipe`, python, and calling functions in the debuggee all run code.
const GDB_RISKY =
  /(^|\n)\s*(shell|!|\||pipe|python\w*|py|pi|guile|gu|source|compile|call|print|p|output|eval|run|r|start|starti|attach|target|define|document|alias|set\s+(logging|history|environment|exec-wrapper|startup-with-shell|auto-load))\b|system\s*\(/i;

def(['gdb', 'gdb-multiarch', 'cgdb', 'lldb'], (inv, j) => {
  const args = inv.args;
  const cmds: Arg[] = [];
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value ?? '';
    if (/^--?(ex|iex|eval-command|init-eval-command|o|one-line|k|s|source)$/.test(v) && args[i + 1]) cmds.push(args[++i]!);
    else if (/^--?(eval-command|init-eval-command|ex|iex)=/.test(v)) cmds.push(literalArg(v.slice(v.indexOf('=') + 1)));
    else if (/^--?(x|ix|command|init-command)$/.test(v) && args[i + 1]) j.runsScript(args[++i]!, inv);
    else if (/^--?(p|pid)$/.test(v) || /^--?(p|pid)=/.test(v))
      j.deny(`\`${inv.label}\` attaches to a running process and can change what it does`);
  }
  const { texts, unknown } = commandTexts(inv, j, cmds);
  if (texts.some((t) => GDB_RISKY.test(t)))
    j.unprovable(`\`${inv.label}\` is given debugger commands that run programs or code (shell, !, python, call, run)`);
  if (unknown !== undefined && args.some((a) => /^--?(batch|nx|x)$/.test(a.value ?? '')))
    j.unprovable(`\`${inv.label}\` reads debugger commands from ${unknown}, only known when it runs`);
});

// ed: `!cmd`, `w !cmd`, `r !cmd`, `e !cmd` run shell commands.
const ED_SHELL = /(^|\n)\s*([0-9,.$;'a-z+-]*\s*)?([wWre]\s*)?!/;

def(['ed', 'ex', 'red'], (inv, j) => {
  const files = inv.args.filter((a) => !a.value?.startsWith('-') || a.value === '-');
  if (inv.name !== 'red') {
    const stdin = j.stdinText(inv);
    if (stdin.kind === 'text' && ED_SHELL.test(stdin.text)) j.deny(`\`${inv.label}\` is given a ! command, which runs a shell command`);
    if (stdin.kind === 'unknown')
      j.unprovable(`\`${inv.label}\` reads editor commands from ${stdin.what}, only known when it runs (! runs shell commands)`);
  }
  for (const f of files) if (f.value !== '-') j.write(f, inv, { verb: 'edits' });
});

// Pagers: keys come from the terminal, but `+cmd`, lesskey files and a `!` handed in are refused.
const SAFE_PLUS = /^\+(\d+|[GgF]|\d*[Gg]|\/[^!|]*|\?[^!|]*)$/;

def(['less', 'more', 'most', 'pg'], (inv, j) => {
  for (const a of inv.args) {
    const v = a.value ?? '';
    if (/^\+/.test(v) && !SAFE_PLUS.test(v)) j.unprovable(`\`${inv.name} ${v}\` runs pager commands hookwise does not follow`);
    if (/^(-k|--lesskey-file|--lesskey-src|--lesskey-content)/.test(v))
      j.unprovable(`\`${inv.name} ${v}\` loads key bindings, which can run commands`);
  }
  const stdin = j.stdinText(inv);
  if (stdin.kind === 'text' && /(^|\n)\s*[!|]/.test(stdin.text))
    j.unprovable(`\`${inv.label}\` is handed a ! or | command, which a pager runs as a shell command`);
});

def(['hash'], (inv, j) => {
  if (inv.args.some((a) => a.dynamic || /^-[a-zA-Z]*p/.test(a.value ?? ''))) j.deny('`hash -p` makes a command name run another program');
});

def(['enable'], (inv, j) => {
  const p = parseOptions(inv.args, { short: 'f' });
  if (valuesOf(p, '-f').length > 0 || p.options.some((o) => o.name === '-f'))
    j.deny('`enable -f` loads a shared library into the shell as a builtin (native code)');
  else if (inv.args.some((a) => a.dynamic)) j.unprovable('`enable` with a name only known when it runs');
});

export function benignViewer(value: string): boolean {
  return BENIGN_VIEWERS.test(value.trim());
}
