import { posix } from 'node:path';
/** Otherwise safe tools with risky flags: sed, sort, tar, rg, find. */
import { has, literalArg, parseOptions, runtimeArg, valuesOf, type Arg } from '../args.js';
import { scanSed } from '../sed-script.js';
import { def, operandsOf } from './registry.js';

def(['sed', 'gsed'], (inv, j) => {
  const p = operandsOf(inv, 'efl', ['expression', 'file', 'line-length']);
  const inPlace = has(p, '-i', '--in-place') || inv.args.some((a) => /^-[a-zA-Z]*i/.test(a.value ?? '') && !a.value!.startsWith('--'));
  const scripts = valuesOf(p, '-e', '--expression');
  const files = valuesOf(p, '-f', '--file');
  let operands = p.operands;
  if (scripts.length === 0 && files.length === 0) [scripts[0], operands] = [operands[0]!, operands.slice(1)];
  for (const f of files) j.runsScript(f, inv);
  for (const s of scripts) {
    if (!s) continue;
    if (s.dynamic) {
      j.unprovable(`\`${inv.label}\` runs the sed script ${s.text}, only known when it runs`);
      continue;
    }
    const fx = scanSed(s.value!);
    if (fx.unclear) j.unprovable(`\`${inv.label}\` has a sed script hookwise cannot read with certainty: ${s.value}`);
    if (fx.executes)
      j.unprovable(`\`${inv.label}\` script ${JSON.stringify(s.value)} uses sed's e command, which runs text as a shell command`);
    for (const w of fx.writes) j.write(literalArg(w), inv, { verb: 'writes (sed w)' });
    for (const r of fx.reads) j.read(literalArg(r), inv);
  }
  if (inPlace) for (const f of operands) j.write(f, inv, { verb: 'edits' });
});

def(['sort'], (inv, j) => {
  const p = operandsOf(inv, 'oSTkt', [
    'output',
    'buffer-size',
    'temporary-directory',
    'key',
    'field-separator',
    'files0-from',
    'compress-program',
    'parallel',
    'random-source',
    'batch-size',
  ]);
  for (const o of valuesOf(p, '-o', '--output')) j.write(o, inv);
  for (const c of valuesOf(p, '--compress-program')) j.code(c, inv, 'the compression program');
});

def(['tar', 'gtar', 'bsdtar'], (inv, j) => {
  const args = [...inv.args];
  if (args[0] && !args[0].dynamic && /^[A-Za-z]+$/.test(args[0].value!)) args[0] = literalArg(`-${args[0].value}`);
  const p = parseOptions(args, {
    short: 'fCIFgKLNTVXbH',
    long: [
      'file',
      'directory',
      'use-compress-program',
      'info-script',
      'new-volume-script',
      'to-command',
      'checkpoint-action',
      'rsh-command',
      'exclude',
      'transform',
      'xform',
      'owner',
      'group',
      'mode',
      'mtime',
      'newer',
      'after-date',
      'listed-incremental',
      'index-file',
      'volno-file',
      'files-from',
      'exclude-from',
      'label',
      'format',
      'blocking-factor',
      'record-size',
      'tape-length',
      'suffix',
      'backup',
      'strip-components',
      'level',
      'sort',
      'quoting-style',
      'warning',
      'occurrence',
    ],
  });
  for (const prog of valuesOf(
    p,
    '-I',
    '--use-compress-program',
    '-F',
    '--info-script',
    '--new-volume-script',
    '--to-command',
    '--rsh-command',
  )) {
    j.code(prog, inv, 'the program');
  }
  for (const action of valuesOf(p, '--checkpoint-action')) {
    if (action.dynamic) j.unprovable(`\`${inv.label}\` has a checkpoint action only known when it runs`);
    else if (/^(exec|sleep|ttyout|echo|bell|dot|\.|totals|wait)/.test(action.value!)) {
      const m = /^exec=(.*)$/s.exec(action.value!);
      if (m) j.code(m[1]!, inv, 'the checkpoint command');
    }
  }
  const extracting = has(p, '-x', '--extract', '--get');
  const creating = has(p, '-c', '--create', '-r', '--append', '-u', '--update');
  if (extracting) {
    const dirs = valuesOf(p, '-C', '--directory');
    for (const d of dirs.length > 0 ? dirs : [literalArg('.')]) j.write(d, inv, { verb: 'extracts into' });
    if (has(p, '-P', '--absolute-names')) j.unprovable(`\`${inv.label}\` extracts members with absolute names, which can land anywhere`);
  }
  if (creating) for (const f of valuesOf(p, '-f', '--file')) if (f.value !== '-') j.write(f, inv);
});

def(['rg', 'ripgrep'], (inv, j) => {
  const p = operandsOf(inv, 'efgtTmAB', ['pre', 'regexp', 'file', 'glob', 'type', 'type-not', 'max-count', 'pre-glob', 'ignore-file']);
  for (const pre of valuesOf(p, '--pre')) j.code(pre, inv, 'the preprocessor');
});

def(['find'], (inv, j) => {
  const args = inv.args;
  let i = 0;
  const roots: Arg[] = [];
  while (i < args.length && !(args[i]!.value !== undefined && /^[-(!),]/.test(args[i]!.value!))) roots.push(args[i++]!);
  if (roots.length === 0) roots.push(literalArg('.'));
  const names: string[] = [];
  // `-o`, `!` and `-prune` make a name test stop narrowing what -delete reaches:
  // `find . -path ./src -prune -o -delete` deletes everything but src.
  const widened = args.slice(i).some((a) => a.value !== undefined && /^(-o|-or|!|-not|-prune|,)$/.test(a.value));
  let mindepth = 0;
  for (; i < args.length; i++) {
    const a = args[i]!.value;
    if (a === '-mindepth') mindepth = Number(args[i + 1]?.value ?? 0) || 0;
    if (a === '-name' || a === '-iname' || a === '-path' || a === '-ipath' || a === '-regex' || a === '-iregex') {
      const v = args[++i];
      names.push(v?.value ?? '*');
    } else if (a === '-delete') {
      for (const r of roots) j.write(r, inv, { recursive: names.length === 0 || widened, verb: 'deletes files under' });
      if (names.some((n) => couldNameProtected(n)))
        j.deny(`\`${inv.label}\` can delete protected files (the pattern ${names.join(', ')} matches names like .env or .git/config)`);
    } else if (a === '-exec' || a === '-execdir' || a === '-ok' || a === '-okdir') {
      const inner: Arg[] = [];
      for (i++; i < args.length && args[i]!.value !== ';' && args[i]!.value !== '+'; i++) inner.push(args[i]!);
      for (const r of roots) {
        for (const found of foundPaths(r, names, mindepth)) {
          const substituted = inner.map((w) =>
            w.value?.includes('{}') ? (found === undefined ? runtimeArg(w.text) : substitute(w.value, found)) : w,
          );
          j.argv(substituted, { kind: 'runtime', what: 'find' });
        }
      }
    } else if (a === '-fprint' || a === '-fprint0' || a === '-fls' || a === '-fprintf') {
      const f = args[++i];
      if (f) j.write(f, inv);
      if (a === '-fprintf') i++;
    }
  }
});

/**
 * What `{}` stands for in `find root -name N -exec ...`: entries under the root
 * named N (a glob when N has wildcards), and the root itself only when its own
 * name passes the tests. Without a name test every entry, the root included.
 * undefined: only known when it runs.
 */
function foundPaths(root: Arg, names: string[], mindepth: number): Array<string | undefined> {
  if (root.dynamic || root.value === undefined) return [undefined];
  if (names.length === 0) return mindepth > 0 ? [posix.join(root.value, '*')] : [root.value];
  const out: string[] = [];
  const base = posix.basename(posix.resolve('/', root.value));
  for (const name of names) {
    if (/\//.test(name)) return [root.value];
    out.push(posix.join(root.value, name));
    if (mindepth === 0 && globMatches(name, base)) out.push(root.value);
  }
  return out;
}

function globMatches(glob: string, name: string): boolean {
  return new RegExp(
    `^${glob
      .replace(/[.+^${}()|\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
    'i',
  ).test(name);
}

/** `{}` filled in; a name with wildcards stays a glob (judged for what it can match). */
function substitute(word: string, found: string): Arg {
  const value = word.split('{}').join(found);
  if (!/[*?[]/.test(found)) return literalArg(value);
  return { text: value, value, pattern: value, glob: true, dynamic: false };
}

const PROTECTED_NAMES = [
  'config',
  'pre-commit',
  'post-checkout',
  'HEAD',
  '.env',
  '.env.local',
  '.envrc',
  '.bashrc',
  '.zshrc',
  '.profile',
  'settings.json',
  'settings.local.json',
  'hookwise.config.ts',
];
function couldNameProtected(pattern: string): boolean {
  const re = new RegExp(
    `^${pattern
      .replace(/[.+^${}()|\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
    'i',
  );
  return PROTECTED_NAMES.some((n) => re.test(n) || (pattern.includes('/') && /\.git|\.claude/.test(pattern)));
}
