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
  torsocks: {},
  proxychains: { short: 'f' },
  proxychains4: { short: 'f' },
  firejail: {},
  dbus_launch: {},
};

const PRIVILEGE = new Set(['sudo', 'doas', 'pkexec', 'run0', 'su', 'sudoedit', 'calife', 'ksu', 'chroot', 'nsenter']);

/**
 * If argv starts with a wrapper, report what the wrapper itself does and return
 * the inner command line ([] when there is none). undefined: not a wrapper.
 */
export function peelWrapper(argv: Arg[], judge: JudgeApi): Arg[] | undefined {
  const name = commandName(argv[0]!);
  if (name === undefined) return undefined;
  const rest = argv.slice(1);
  if (PRIVILEGE.has(name)) {
    judge.deny(`\`${name}\` runs a command with another user's privileges (privilege escalation)`);
    return [];
  }
  if (name === 'coproc') {
    judge.unprovable('`coproc` starts a background co-process whose command hookwise does not parse');
    return [];
  }
  if (name === 'env') return peelEnv(rest, judge);
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
  if (name === 'time') {
    const out = parsed.options.find((o) => (o.name === '-o' || o.name === '--output') && o.value);
    if (out?.value) judge.write(out.value, { name, argv0: argv[0]!, args: rest, label: 'time -o', stdin: { kind: 'none' } });
  }
  return parsed.operands.slice(spec.skipOperands ?? 0);
}

function judgeJoined(args: Arg[], judge: JudgeApi, who: string): void {
  const inv = { name: who, argv0: args[0]!, args, label: who.replace(/`/g, ''), stdin: { kind: 'none' } as Stdin };
  if (args.some((a) => a.dynamic)) judge.unprovable(`${who} runs a command built from values only known when it runs`);
  else judge.code(args.map((a) => a.value).join(' '), inv, 'the command');
}

function peelEnv(rest: Arg[], judge: JudgeApi): Arg[] {
  const parsed = parseOptions(rest, { short: 'uCS', long: ['unset', 'chdir', 'split-string'], stopAtOperand: true });
  const split = parsed.options.find((o) => o.name === '-S' || o.name === '--split-string');
  let operands = parsed.operands;
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
  if (chdir?.value && operands.length > 0) judge.unprovable(`\`env -C ${chdir.value.text}\` runs the command in another folder; judge it with cd instead`);
  if (split?.value) {
    judgeJoined([split.value, ...operands], judge, '`env -S`');
    return [];
  }
  return operands;
}

function peelXargs(rest: Arg[], judge: JudgeApi): Arg[] {
  const parsed = parseOptions(rest, {
    short: 'IiLlnPdEesa',
    long: ['replace', 'max-lines', 'max-args', 'max-procs', 'delimiter', 'eof', 'max-chars', 'arg-file', 'process-slot-var'],
    stopAtOperand: true,
  });
  let inner = parsed.operands.length > 0 ? parsed.operands : [{ text: 'echo', value: 'echo', glob: false, dynamic: false } as Arg];
  const replace = parsed.options.find((o) => ['-I', '-i', '--replace'].includes(o.name));
  const token = replace ? (replace.value?.value ?? '{}') : undefined;
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

const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'aria2c', 'http', 'https', 'xh', 'nc', 'ncat', 'netcat', 'socat', 'lynx', 'links', 'ftp', 'tftp', 'httpie']);
const DECODERS = new Set(['base64', 'base32', 'basenc', 'xxd', 'openssl', 'gunzip', 'zcat', 'gzip', 'bzip2', 'bzcat', 'xz', 'xzcat', 'unxz', 'zstd', 'uudecode', 'rev', 'tr', 'od', 'iconv', 'python', 'python3', 'perl', 'ruby', 'node']);

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
    if (words.some((a) => a.dynamic || a.glob) || (interprets && words.some((a) => a.value!.includes('\\')))) return { kind: 'other', name };
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
