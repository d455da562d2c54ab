import { commandName, parseOptions, runtimeArg, type Arg, type OptionSpec } from './args.js';
import type { JudgeApi, Stdin } from './types.js';

/**
 * Programs that run another program given as their arguments. Each entry says
 * which options take a value, so the inner command is found exactly where the
 * wrapper would find it.
 */
const SIMPLE_WRAPPERS: Record<string, OptionSpec & { skipOperands?: number }> = {
  command: { short: '' },
  builtin: {},
  exec: { short: 'a' },
  nice: { short: 'n', long: ['adjustment'], numericOptions: true },
  nohup: {},
  setsid: {},
  time: { short: 'of', long: ['output', 'format'] },
  timeout: { short: 'sk', long: ['signal', 'kill-after'], skipOperands: 1 },
  stdbuf: { short: 'ioe', long: ['input', 'output', 'error'] },
  ionice: { short: 'cnp', long: ['class', 'classdata', 'pid'] },
  chronic: {},
  unbuffer: {},
  caffeinate: { short: 'tw' },
  noglob: {},
  nocorrect: {},
  catchsegv: {},
  taskset: { skipOperands: 1 },
  chrt: { skipOperands: 1 },
  flock: { short: 'wEc', long: ['timeout', 'conflict-exit-code', 'command'], skipOperands: 1 },
  'systemd-run': { short: 'pu', long: ['property', 'unit', 'uid', 'gid'] },
  busybox: {},
  toybox: {},
  torsocks: {},
  // Tracers, profilers and sandboxes run the command they are given.
  strace: {
    short: 'oepsuEabOSXPI',
    long: ['output', 'expr', 'attach', 'string-limit', 'user', 'env', 'trace', 'signal', 'status', 'summary-columns', 'trace-path'],
  },
  ltrace: { short: 'oepsunaADFlLwxXIu', long: ['output', 'library', 'align', 'indent'] },
  valgrind: {},
  fakeroot: { short: 'lsib', long: ['lib', 'faked'] },
  'ssh-agent': { short: 'aEPt' },
  unshare: {
    short: 'SGRw',
    long: ['map-user', 'map-group', 'map-users', 'map-groups', 'propagation', 'setgroups', 'setuid', 'setgid', 'root', 'wd', 'mount-proc'],
  },
  prlimit: { short: 'p', long: ['pid'] },
  numactl: { short: 'iNmCcp', long: ['interleave', 'cpunodebind', 'membind', 'physcpubind', 'preferred'] },
  cgexec: { short: 'g' },
  'xvfb-run': { short: 'anpsfe', long: ['server-num', 'server-args', 'auth-file', 'error-file', 'xauth-protocol'] },
  'dbus-run-session': { long: ['config-file', 'dbus-daemon'] },
  chpst: { short: 'ugUm/nlLbeo' },
  perf: { short: 'eoptG', long: ['event', 'output', 'pid', 'tid'], skipOperands: 1 },
  entr: {},
  'cross-env': {},
  'env-cmd': { short: 'fe', long: ['file', 'environments'] },
  dotenv: { short: 'ec', long: [] },
  bunx: { short: 'p', long: ['package', 'bun'] },
  proxychains: { short: 'f' },
  proxychains4: { short: 'f' },
  firejail: {},
  dbus_launch: {},
};

const PRIVILEGE = new Set([
  'sudo',
  'doas',
  'pkexec',
  'run0',
  'su',
  'sudoedit',
  'calife',
  'ksu',
  'chroot',
  'nsenter',
  'runuser',
  'setpriv',
  'capsh',
  'sg',
  'newgrp',
  'sudo-rs',
  'please',
  'machinectl',
  'systemd-nspawn',
  'bwrap',
  'proot',
]);

/** Package managers' "run this program" subcommands: `npx x`, `npm exec -- x`, `pnpm dlx x`, `uv run x`. */
const RUNNERS: Record<string, { subcommands: string[]; globalValued: string[] }> = {
  npm: { subcommands: ['exec', 'x'], globalValued: ['-w', '--workspace', '--prefix', '-C'] },
  pnpm: { subcommands: ['exec', 'dlx', 'x'], globalValued: ['-C', '--dir', '--filter', '-F', '-w', '--workspace'] },
  yarn: { subcommands: ['exec', 'dlx'], globalValued: ['--cwd'] },
  bun: { subcommands: ['x'], globalValued: ['--cwd'] },
  uv: { subcommands: ['run', 'tool'], globalValued: ['--directory', '--project', '--with', '--python', '-p'] },
  uvx: { subcommands: [], globalValued: [] },
  poetry: { subcommands: ['run'], globalValued: ['-C', '--directory', '-P', '--project'] },
  pipenv: { subcommands: ['run'], globalValued: [] },
  pdm: { subcommands: ['run'], globalValued: ['-p', '--project'] },
  hatch: { subcommands: ['run'], globalValued: ['-e', '--env'] },
  rye: { subcommands: ['run'], globalValued: [] },
  bundle: { subcommands: ['exec'], globalValued: [] },
  conda: { subcommands: ['run'], globalValued: [] },
  mamba: { subcommands: ['run'], globalValued: [] },
  mise: { subcommands: ['exec', 'x'], globalValued: ['-C', '--cd'] },
  asdf: { subcommands: ['exec'], globalValued: [] },
  pixi: { subcommands: ['run', 'exec'], globalValued: [] },
  devbox: { subcommands: ['run'], globalValued: [] },
};
/** Options of the runner subcommands that take a value (the inner command comes after them). */
const RUNNER_OPTIONS: OptionSpec = {
  short: 'pcwnCe',
  long: [
    'package',
    'call',
    'workspace',
    'prefix',
    'with',
    'from',
    'python',
    'env',
    'name',
    'prefix',
    'cwd',
    'filter',
    'dir',
    'directory',
    'project',
    'extra',
    'group',
  ],
};

/** `npx rm -rf /etc` runs rm: the inner command of a package manager's runner, or undefined. */
function peelRunner(name: string, rest: Arg[], argv0: Arg, judge: JudgeApi): Arg[] | undefined {
  let args = rest;
  if (name !== 'npx' && name !== 'uvx' && name !== 'pnpx') {
    const spec = RUNNERS[name];
    if (!spec) return undefined;
    let i = 0;
    while (i < args.length && args[i]!.value?.startsWith('-')) i += spec.globalValued.includes(args[i]!.value!) ? 2 : 1;
    const sub = args[i]?.value;
    if (sub === undefined || !spec.subcommands.includes(sub)) return undefined;
    args = args.slice(i + 1);
    // `uv tool run x`
    if (name === 'uv' && sub === 'tool') {
      if (args[0]?.value !== 'run') return undefined;
      args = args.slice(1);
    }
  }
  const parsed = parseOptions(args, { ...RUNNER_OPTIONS, stopAtOperand: true });
  const call = parsed.options.find((o) => o.name === '-c' || o.name === '--call');
  const inv = { name, argv0, args: rest, label: `${name} -c`, stdin: { kind: 'none' } as Stdin };
  if (call?.value) judge.code(call.value, inv, 'the command');
  else if (call) judge.unprovable(`\`${name} -c\` runs a command hookwise cannot read`);
  return call ? [] : parsed.operands;
}

/** `{}` (and `{.}`, `{/}`, ...) is the whole input, `{2}` its value from the second source. */
const REPLACEMENT = /\{(\d+)?[./#%]*\}/g;
const hasReplacement = (v: string | undefined): boolean => v !== undefined && v.search(REPLACEMENT) >= 0;

/** `parallel cmd ::: a b`: the command once per input, `{}` replaced (appended when absent). */
function peelParallel(rest: Arg[], argv0: Arg, judge: JudgeApi): Arg[] {
  const parsed = parseOptions(rest, {
    short: 'jSaNnLlPEIdCe',
    long: [
      'jobs',
      'sshlogin',
      'arg-file',
      'max-args',
      'colsep',
      'delimiter',
      'tmpdir',
      'results',
      'joblog',
      'workdir',
      'wd',
      'basefile',
      'transfer',
      'return',
      'env',
      'sshloginfile',
      'timeout',
      'halt',
      'retries',
      'tag-string',
      'replace',
    ],
    stopAtOperand: true,
  });
  if (parsed.options.some((o) => /^(-S|--sshlogin|--sshloginfile|--slf)$/.test(o.name)))
    judge.unprovable('`parallel -S` runs the command on other machines');
  const words = parsed.operands;
  const sep = words.findIndex((w) => w.value !== undefined && /^:::+\+?$/.test(w.value));
  const command = sep < 0 ? words : words.slice(0, sep);
  const inputs = sep < 0 ? [[runtimeArg('<lines read by parallel>')]] : parallelInputs(words.slice(sep));
  const inv = { name: 'parallel', argv0, args: rest, label: 'parallel', stdin: { kind: 'none' } as Stdin };
  if (command.length === 0) {
    // The inputs themselves are commands.
    for (const i of inputs.flat()) judge.code(i, inv, 'the command');
    return [];
  }
  for (const input of inputs.slice(0, 16)) {
    const fill = (m: string, n?: string) => (n ? input[Number(n) - 1] : input.length === 1 ? input[0] : undefined) ?? runtimeArg(m);
    const filled = command.map((w) => {
      if (w.value === undefined || !hasReplacement(w.value)) return w;
      const parts = [...w.value.matchAll(REPLACEMENT)].map((m) => fill(m[0], m[1]));
      if (parts.some((a) => a.dynamic)) return runtimeArg(w.text);
      return { ...w, value: w.value.replace(REPLACEMENT, (m, n?: string) => fill(m, n).value!), text: w.text };
    });
    const placed = command.some((w) => hasReplacement(w.value));
    const line = placed ? filled : [...filled, ...input];
    // One word with spaces is a shell command line (`parallel 'rm -rf {}' ::: x`).
    if (line.length === 1 || (line[0]?.value?.includes(' ') ?? false)) {
      if (line.some((w) => w.dynamic)) judge.unprovable('`parallel` runs a command built from values only known when it runs');
      else judge.code(line.map((w) => w.value).join(' '), inv, 'the command');
    } else judge.argv(line, { kind: 'runtime', what: 'parallel' });
  }
  return [];
}

/** `::: a b ::: x y`: every combination of one word from each source, as parallel runs them. */
function parallelInputs(words: Arg[]): Arg[][] {
  const sources: Arg[][] = [];
  for (const w of words) {
    if (w.value !== undefined && /^:::+\+?$/.test(w.value)) sources.push([]);
    else sources.at(-1)?.push(w);
  }
  let combos: Arg[][] = [[]];
  for (const source of sources) combos = combos.flatMap((c) => source.map((w) => [...c, w])).slice(0, 64);
  return combos;
}

/**
 * If argv starts with a wrapper, report what the wrapper itself does and return
 * the inner command line ([] when there is none). undefined: not a wrapper.
 */
export function peelWrapper(argv: Arg[], judge: JudgeApi): Arg[] | undefined {
  const name = commandName(argv[0]!);
  if (name === undefined) return undefined;
  const rest = argv.slice(1);
  // `capsh --print` and its other queries print capabilities and run nothing.
  if (
    name === 'capsh' &&
    rest.length > 0 &&
    rest.every((a) => /^--(print|help|current|(decode|supports|has-[pbai]|explain)=[\w,.-]+)$/.test(a.value ?? ''))
  )
    return [];
  if (PRIVILEGE.has(name)) {
    judge.deny(`\`${name}\` runs a command with another user's privileges (privilege escalation)`);
    return [];
  }
  if (name === 'coproc') {
    judge.unprovable('`coproc` starts a background co-process whose command hookwise does not parse');
    return [];
  }
  if (name === 'env') return peelEnv(rest, judge);
  if (name === 'parallel') return peelParallel(rest, argv[0]!, judge);
  const runner = peelRunner(name, rest, argv[0]!, judge);
  if (runner !== undefined) return runner;
  if (name === 'nix-shell' || name === 'nix') return peelNix(name, rest, argv[0]!, judge);
  if (name === 'direnv' && rest[0]?.value === 'exec') return rest.slice(2);
  if (name === 'concurrently' || name === 'nodemon' || name === 'watchexec') return peelCommandStrings(name, rest, argv[0]!, judge);
  if (name === 'xargs') return peelXargs(rest, judge);
  if (name === 'watch') {
    const parsed = parseOptions(rest, { short: 'nd', long: ['interval', 'differences'], stopAtOperand: true });
    const inner = parsed.operands;
    if (parsed.options.some((o) => o.name === '-x' || o.name === '--exec')) return inner;
    if (inner.length > 0) judgeJoined(inner, judge, '`watch`');
    return [];
  }
  if (name === 'command' && parseOptions(rest, { stopAtOperand: true }).options.some((o) => o.name === '-v' || o.name === '-V')) return [];
  const spec = SIMPLE_WRAPPERS[name];
  if (!spec) return undefined;
  const parsed = parseOptions(rest, { ...spec, stopAtOperand: true });
  if (name === 'flock' && parsed.options.some((o) => o.name === '-c' || o.name === '--command')) {
    const command = parsed.options.find((o) => o.name === '-c' || o.name === '--command')!.value;
    if (command) judge.code(command, { name, argv0: argv[0]!, args: rest, label: 'flock -c', stdin: { kind: 'none' } }, 'the command');
    return [];
  }
  if (name === 'strace' || name === 'ltrace') {
    for (const o of parsed.options)
      if ((o.name === '-o' || o.name === '--output') && o.value)
        judge.write(o.value, { name, argv0: argv[0]!, args: rest, label: `${name} -o`, stdin: { kind: 'none' } });
  }
  if (name === 'time') {
    const out = parsed.options.find((o) => (o.name === '-o' || o.name === '--output') && o.value);
    if (out?.value) judge.write(out.value, { name, argv0: argv[0]!, args: rest, label: 'time -o', stdin: { kind: 'none' } });
  }
  return parsed.operands.slice(spec.skipOperands ?? 0);
}

/** `nix-shell --run 'cmd'`, `nix develop -c cmd`, `nix run pkg -- args`. */
function peelNix(name: string, rest: Arg[], argv0: Arg, judge: JudgeApi): Arg[] {
  const inv = { name, argv0, args: rest, label: name, stdin: { kind: 'none' } as Stdin };
  for (let i = 0; i < rest.length; i++) {
    const v = rest[i]!.value;
    if ((v === '--run' || v === '--command') && rest[i + 1]) judge.code(rest[i + 1]!, inv, 'the command');
    if ((v === '-c' || v === '--command') && name === 'nix') return rest.slice(i + 1);
  }
  if (name === 'nix' && rest[0]?.value === 'run') judge.unprovable('`nix run` runs a program built from a flake hookwise does not read');
  return [];
}

/** Tools whose operands (or `--exec` value, or words after `--`) are command lines. */
function peelCommandStrings(name: string, rest: Arg[], argv0: Arg, judge: JudgeApi): Arg[] {
  const inv = { name, argv0, args: rest, label: name, stdin: { kind: 'none' } as Stdin };
  const dashes = rest.findIndex((a) => a.value === '--');
  if (dashes >= 0) return rest.slice(dashes + 1);
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    const v = a.value ?? '';
    if (/^(-x|--exec|-s|--shell|--on-busy-update)$/.test(v) && rest[i + 1]) judge.code(rest[++i]!, inv, 'the command');
    else if (/^--exec=/.test(v)) judge.code(v.slice(7), inv, 'the command');
    else if (name === 'concurrently' && /^(-n|--names|-c|--prefix-colors|-p|--prefix)$/.test(v)) i++;
    // `npm:watch-*` runs package.json scripts.
    else if (name === 'concurrently' && !v.startsWith('-') && !/^(npm|yarn|pnpm|bun):/.test(v)) judge.code(a, inv, 'the command');
  }
  if (name === 'watchexec') {
    const ops = rest.filter((a) => !a.value?.startsWith('-'));
    if (ops.length > 0) judge.unprovable('`watchexec` runs a command hookwise could not separate from its options; put it after `--`');
  }
  return [];
}

function judgeJoined(args: Arg[], judge: JudgeApi, who: string): void {
  const inv = { name: who, argv0: args[0]!, args, label: who.replace(/`/g, ''), stdin: { kind: 'none' } as Stdin };
  if (args.some((a) => a.dynamic)) judge.unprovable(`${who} runs a command built from values only known when it runs`);
  else judge.code(args.map((a) => a.value).join(' '), inv, 'the command');
}

function peelEnv(rest: Arg[], judge: JudgeApi): Arg[] {
  // `-P` (BSD) is the folders searched for the program; a lone `-` empties the environment like `-i`.
  const parsed = parseOptions(rest, { short: 'uCSP', long: ['unset', 'chdir', 'split-string'], stopAtOperand: true });
  const split = parsed.options.find((o) => o.name === '-S' || o.name === '--split-string');
  let operands = parsed.operands;
  while (operands[0]?.value === '-' && !operands[0].dynamic) operands = operands.slice(1);
  const assignments: Arg[] = [];
  while (operands[0] && !operands[0].dynamic && /^[A-Za-z_]\w*=/.test(operands[0].value ?? '')) assignments.push(operands.shift()!);
  for (const a of assignments) {
    const [, name = '', value = ''] = /^([A-Za-z_]\w*)=(.*)$/s.exec(a.value!) ?? [];
    judge.assign(name, value, `env ${a.value}`);
  }
  if (operands[0]?.dynamic && /^\$?[A-Za-z_]\w*=/.test(operands[0].text)) {
    judge.unprovable(`\`env ${operands[0].text}\` sets a variable to a value only known when it runs`);
    operands = operands.slice(1);
  }
  const chdir = parsed.options.find((o) => o.name === '-C' || o.name === '--chdir');
  if (chdir?.value && operands.length > 0)
    judge.unprovable(`\`env -C ${chdir.value.text}\` runs the command in another folder; judge it with cd instead`);
  if (split?.value) {
    judgeJoined([split.value, ...operands], judge, '`env -S`');
    return [];
  }
  return operands;
}

function peelXargs(rest: Arg[], judge: JudgeApi): Arg[] {
  // GNU's `-i`, `-e`, `-l` (and `--replace`, `--eof`, `--max-lines`) take a value only when attached:
  // `xargs -i rm -rf` runs `rm -rf`, not `-rf`.
  const parsed = parseOptions(rest, {
    short: 'ILnPdEsaJRS',
    attachedOnly: 'iel',
    long: ['max-args', 'max-procs', 'delimiter', 'max-chars', 'arg-file', 'process-slot-var'],
    stopAtOperand: true,
  });
  let inner = parsed.operands.length > 0 ? parsed.operands : [{ text: 'echo', value: 'echo', glob: false, dynamic: false } as Arg];
  // `-I x` (and BSD's `-J x`) put each item where x is; GNU's `-i` and `--replace` where `{}` is, unless they name another string.
  const replace = parsed.options.find((o) => ['-I', '-J', '-i', '--replace'].includes(o.name));
  const token = replace ? replace.value?.value || '{}' : undefined;
  if (token) inner = inner.map((a) => (a.value?.includes(token) ? runtimeArg(a.text) : a));
  else inner = [...inner, runtimeArg('<items read by xargs>')];
  judge.argv(inner, { kind: 'runtime', what: 'xargs input' });
  return [];
}

export type StdinProducer =
  | { kind: 'download'; name: string }
  | { kind: 'text'; name: string; text: string }
  | { kind: 'file'; name: string; files: Arg[] }
  | { kind: 'decoder'; name: string }
  | { kind: 'other'; name: string };

const DOWNLOADERS = new Set([
  'curl',
  'wget',
  'fetch',
  'aria2c',
  'http',
  'https',
  'xh',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'lynx',
  'links',
  'ftp',
  'tftp',
  'httpie',
]);
const DECODERS = new Set([
  'base64',
  'base32',
  'basenc',
  'xxd',
  'openssl',
  'gunzip',
  'zcat',
  'gzip',
  'bzip2',
  'bzcat',
  'xz',
  'xzcat',
  'unxz',
  'zstd',
  'uudecode',
  'rev',
  'tr',
  'od',
  'iconv',
  'python',
  'python3',
  'perl',
  'ruby',
  'node',
]);

/** What a command that feeds a shell's stdin prints, as far as can be known. */
export function describeStdin(argv: Arg[]): StdinProducer {
  let args = argv;
  // Look through simple wrappers without judging them (they are judged on their own).
  for (let i = 0; i < 8 && args[0]; i++) {
    const n = commandName(args[0]);
    if (n === undefined) return { kind: 'other', name: args[0].text };
    if (n in SIMPLE_WRAPPERS || PRIVILEGE.has(n) || n === 'env') {
      args = parseOptions(args.slice(1), { ...SIMPLE_WRAPPERS[n], stopAtOperand: true }).operands;
      while (args[0]?.value && /^[A-Za-z_]\w*=/.test(args[0].value)) args = args.slice(1);
      continue;
    }
    break;
  }
  const first = args[0];
  const name = first ? (commandName(first) ?? first.text) : 'nothing';
  if (DOWNLOADERS.has(name)) return { kind: 'download', name };
  if (DECODERS.has(name)) return { kind: 'decoder', name };
  const rest = args.slice(1);
  if (name === 'echo') {
    let i = 0;
    while (i < rest.length && /^-[neE]+$/.test(rest[i]!.value ?? '')) i++;
    const flags = rest.slice(0, i);
    const words = rest.slice(i);
    const interprets = flags.some((f) => f.value!.includes('e'));
    if (words.some((a) => a.dynamic || a.glob) || (interprets && words.some((a) => a.value!.includes('\\'))))
      return { kind: 'other', name };
    return { kind: 'text', name, text: words.map((a) => a.value).join(' ') };
  }
  if (name === 'printf') {
    const format = rest[0];
    if (!format || format.dynamic || rest.length > 1 || /[%\\]/.test(format.value ?? '')) return { kind: 'other', name };
    return { kind: 'text', name, text: format.value! };
  }
  if (name === 'cat') {
    const files = rest.filter((a) => !(a.value?.startsWith('-') && a.value.length > 1));
    if (files.length === 0 || files.some((f) => f.value === '-')) return { kind: 'other', name };
    return { kind: 'file', name, files };
  }
  return { kind: 'other', name };
}
