import path from 'node:path';
import type { ParsedScripts } from '../../shell/parsed.js';
import { ParseRefused, type Parser } from '../../shell/parser.js';
import type { SimpleCommand } from '../../shell/script.js';
import { evalWord, type Lookup } from '../../shell/words.js';
import { SCRATCH_WHY, type PathPolicy, type PathVerdict } from '../../path-policy/judge.js';
import { resolvePath } from '../../path-policy/resolve.js';
import { textHazard } from '../../path-policy/text-hazards.js';
import { argsOf, commandName, literalArg, type Arg } from './args.js';
import { COMMANDS, genericChecks, handlerFor } from './commands/index.js';
import { envPoisoning } from './env-rules.js';
import { scanForeign, type Language } from './foreign-code.js';
import type { CompiledRule } from './rules.js';
import type { MadeThisSession } from './made-this-session.js';
import { describeStdin, peelWrapper, type StdinProducer } from './wrappers.js';
import { invocationLabel } from './label.js';
import { pathCandidates, secretsInFile, secretsInText } from './file-contents.js';
import { couldMatchDotDot, globReadCandidates, protectedMatch } from './globs.js';
import fs from 'node:fs';
import type { Finding, Invocation, JudgeApi, Level, Stdin, StdinText, WriteOptions } from './types.js';
import { DiskLook, judgeDeletion, judgeUnknownProgram, PACK_RULES, type PackApi, type PackName } from './packs/index.js';

export interface ShellJudgeOptions {
  policy: PathPolicy;
  /** The guard's parsed scripts, kept between calls. */
  scripts: ParsedScripts;
  allow: CompiledRule[];
  ask: CompiledRule[];
  deny: CompiledRule[];
  /** The rule packs that are on. */
  packs: ReadonlySet<PackName>;
  /** Files the agent made this session and may delete (made-this-session.ts); none when absent. */
  madeThisSession?: MadeThisSession;
}

/** One simple command as the judge saw it, for `hookwise guard shell --explain`. */
import type { Judgement, SeenCommand } from './judgement.js';

export type { Judgement, SeenCommand };

const MAX_DEPTH = 6;
const WRITE_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&', '&>|']);
/** Builtins that run no program, so a `VAR=x` prefix on them reaches nothing (`:` and other special builtins keep it in POSIX mode). */
const INERT_BUILTINS = new Set(['echo', 'printf', 'true', 'false', 'test', '[', 'pwd']);
/** Why code that only changes files is contained by the OS sandbox whatever its network: the kernel decides where it writes. */
export const FILE_WRITES_WHY = 'the OS sandbox decides which folders it may write';

const HARMLESS_DEVICES = /^\/dev\/(null|stdout|stderr|stdin|tty|zero|fd\/[0-2]|full|random|urandom)$|^\/proc\/self\/fd\/[0-2]$/;

/**
 * Programs without a handler that only read (or print) what they are given:
 * paths outside the workspace are fine for them (secrets are still refused).
 */
const READ_ONLY_PROGRAMS = new Set([
  'cat',
  'tac',
  'head',
  'tail',
  'grep',
  'egrep',
  'fgrep',
  'zgrep',
  'ls',
  'll',
  'dir',
  'vdir',
  'tree',
  'wc',
  'stat',
  'file',
  'du',
  'df',
  'diff',
  'cmp',
  'comm',
  'md5sum',
  'sha1sum',
  'sha224sum',
  'sha256sum',
  'sha384sum',
  'sha512sum',
  'b2sum',
  'cksum',
  'sum',
  'jq',
  'yq',
  'cut',
  'tr',
  'nl',
  'od',
  'xxd',
  'hexdump',
  'strings',
  'readlink',
  'realpath',
  'basename',
  'dirname',
  'echo',
  'printf',
  'test',
  '[',
  '[[',
  'which',
  'type',
  'whereis',
  'column',
  'fold',
  'fmt',
  'paste',
  'join',
  'uniq',
  'expand',
  'unexpand',
  'base64',
  'base32',
  'zcat',
  'bzcat',
  'xzcat',
  'zless',
  'pwd',
  'id',
  'whoami',
  'date',
  'uname',
  'printenv',
  'true',
  'false',
  'sleep',
  'seq',
  'locale',
  'cd',
  'pushd',
  'popd',
  'export',
  'unset',
  'shopt',
  'set',
  'read',
  'wait',
  'jobs',
  'local',
  'declare',
  'typeset',
  'return',
  'exit',
  'shift',
  'break',
  'continue',
  'getopts',
  'nm',
  'objdump',
  'readelf',
  'getfacl',
  'namei',
  'locate',
  'fd',
  'fdfind',
  'ag',
  'ack',
  'bat',
  'batcat',
  'glow',
  'look',
  'rev',
  'shuf',
  'tsort',
  'numfmt',
  'iconv',
  'lsattr',
  'ps',
  'pgrep',
  'free',
  'uptime',
  'hostname',
  'nproc',
  'lscpu',
  'lsblk',
  'lsof',
  'env',
  'command',
  'hash',
  'enable',
  'ulimit',
  'umask',
  'history',
  'fc',
  'dirs',
  'disown',
  'let',
  'times',
  'caller',
  'compgen',
  'complete',
  'mapfile',
  'readarray',
  'xdg-user-dir',
  'getconf',
  'tput',
  'stty',
  'tty',
  'clear',
  'reset',
  'mountpoint',
  'findmnt',
  'vmstat',
  'iostat',
  'watch',
]);

/** Programs whose output, with these arguments, is known harmless text (no file contents, no environment). */
const KNOWN_TEXT_PRINTERS = new Set(['date', 'uname', 'hostname', 'whoami', 'id', 'pwd', 'nproc', 'true', 'arch']);

function printsKnownText(argv: Arg[]): boolean {
  const name = argv[0]?.value;
  if (name === undefined || argv.some((a) => a.dynamic || a.glob)) return false;
  if (KNOWN_TEXT_PRINTERS.has(name)) return argv.slice(1).every((a) => /^[-+%\w:. ]*$/.test(a.value ?? ''));
  if (name === 'echo' || name === 'printf')
    return !secretsInText(argv.map((a) => a.value).join(' ')) && !argv.slice(1).some((a) => /%[0-9.]*[bq]/.test(a.value ?? ''));
  return false;
}

/** An argument an unknown program could take as a path: absolute, home, or with a folder part (not a URL or `host:path`). */
function looksLikePath(raw: string): boolean {
  if (raw === '' || raw.length > 4096 || /\n/.test(raw)) return false;
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw)) return false;
  return raw.startsWith('/') || raw.startsWith('~') || raw === '..' || raw.includes('/');
}

/** Judges one command line. One instance per judgement; cheap to make. */
export class ShellJudgement implements JudgeApi {
  readonly findings: Finding[] = [];
  private muted = 0;
  private depth = 0;
  private simpleCount = 0;
  private allowCount = 0;
  private readonly seen: string[] = [];
  private readonly simpleSeen: SeenCommand[] = [];
  private readonly fired: string[] = [];
  private diskLook: DiskLook | undefined;
  private packApiValue: PackApi | undefined;
  cwds: string[] | undefined;
  dotglob = false;
  /** The line may define a function or alias, so `echo` may not be the builtin. */
  private redefines = false;
  /** Files this command line writes (as written): uploading one later sends what hookwise never saw. */
  private readonly written = new Set<string>();
  /** The whole command line, as given. */
  private line = '';
  /** Files only ever written (truncated) by programs that print known, harmless text (`date > stamp.txt`). */
  private readonly printed = new Set<string>();

  constructor(
    private readonly parser: Parser,
    private readonly options: ShellJudgeOptions,
    cwd: string,
  ) {
    this.cwds = [resolvePath(cwd)];
  }

  get policy(): PathPolicy {
    return this.options.policy;
  }

  run(command: string): Judgement {
    this.line = command;
    this.script(command);
    return {
      findings: this.findings,
      allowedByRule: this.simpleCount > 0 && this.allowCount === this.simpleCount,
      commands: this.seen,
      simple: this.simpleSeen,
      rules: [...new Set(this.fired)],
      looks: this.diskLook?.looks ?? [],
    };
  }

  /**
   * `d=$(mktemp -d) && … rm -rf "$d"`: the argument is `"$d"` (or `"${d}"`), and the line
   * sets d once, to a folder mktemp just made, and by nothing else. Judged on the text of
   * the whole line, so any other use of the name that could set it (a second assignment,
   * `read d`, `for d in`, `printf -v d`, a nameref, code in a string) makes it unknown
   * again; a TMPDIR on the line could point mktemp into the workspace. The folder itself
   * only: a path below it may be a link the line planted.
   */
  holdsNewTemp(text: string, below = false): boolean {
    const folder = /^("?)\$(?:\{(\w+)\}|(\w+))\1$/.exec(text)?.slice(2);
    // `"$d/out.txt"`: a file written in it (a link planted there leads where the kernel lets the write go).
    const inside = below ? /^"?\$(?:\{(\w+)\}|(\w+))"?((?:\/[\w.-]+)+)"?$/.exec(text) : null;
    if (inside && inside[3]!.split('/').some((part) => part === '.' || part === '..')) return false;
    const name = (folder ?? inside?.slice(1, 3))?.find(Boolean);
    if (name === undefined || /TMPDIR/.test(this.line)) return false;
    const made = new RegExp(`(?:^|[\\s;&|(])${name}=("?)\\$\\(mktemp(?: -d| -t [\\w.-]+| --directory)*\\)\\1(?=$|[\\s;&|)])`, 'g');
    const bare = new RegExp(`(?<![-$\\w]|\\$\\{)${name}\\b`, 'g');
    return (this.line.match(made) ?? []).length === 1 && (this.line.match(bare) ?? []).length === 1;
  }

  private add(level: Level, reason: string): void {
    if (this.muted > 0) return;
    if (!this.findings.some((f) => f.level === level && f.reason === reason)) this.findings.push({ level, reason });
  }
  deny(reason: string): void {
    this.add('deny', reason);
  }
  irreversible(reason: string): void {
    this.add('irreversible', reason);
  }
  unprovable(reason: string): void {
    this.add('unprovable', reason);
  }

  /** What pack rules see: findings named `[pack/rule]`, one disk look per judgement. */
  private get packApi(): PackApi {
    if (this.packApiValue) return this.packApiValue;
    const judge = this;
    this.packApiValue = {
      deny: (rule, reason) => {
        judge.fired.push(rule);
        judge.deny(`[${rule}] ${reason}`);
      },
      irreversible: (rule, reason) => {
        judge.fired.push(rule);
        judge.irreversible(`[${rule}] ${reason}`);
      },
      get disk() {
        judge.diskLook ??= new DiskLook();
        return judge.diskLook;
      },
      judge,
      get cwd() {
        return judge.cwds?.length === 1 ? judge.cwds[0] : undefined;
      },
    };
    return this.packApiValue;
  }
  ask(reason: string): void {
    this.add('ask', reason);
  }

  /** Judge a whole script (the command line, or code found inside it). */
  private script(source: string): void {
    const hazard = textHazard(source);
    if (hazard) this.unprovable(`the command ${hazard}`);
    if (/\(\s*\)|\b(function|alias|enable)\b/.test(source)) this.redefines = true;
    if (/[^\s\\]\\\r?\n[^\s]/.test(source))
      this.unprovable('the command has a backslash-newline inside a word, which bash joins into one word');
    if (this.depth > MAX_DEPTH) {
      this.unprovable(`the command nests shells more than ${MAX_DEPTH} levels deep`);
      return;
    }
    try {
      this.options.scripts.use(this.parser, source, (script) => {
        for (const p of script.problems) this.unprovable(p);
        const outer = this.cwds;
        this.prepass(script.commands);
        for (const cmd of script.commands) this.simple(cmd);
        this.cwds = outer && this.cwds ? [...new Set([...outer, ...this.cwds])] : undefined;
      });
    } catch (error) {
      // Too large, too deep or too slow to parse: refused, whatever a person would say to it.
      if (error instanceof ParseRefused) this.deny(error.message);
      else throw error;
    }
  }

  private lookup: Lookup = (name) => {
    if (name === 'HOME') return this.policy.home;
    // `$$`, the shell's process id: always digits and never set by a script, so any pid names the same kind of path.
    if (name === '$') return '12345';
    if (name === 'PWD' && this.cwds?.length === 1) return this.cwds[0];
    return undefined;
  };

  /** Every folder a `cd` anywhere in the script could lead to (order and loops do not matter). */
  private prepass(commands: SimpleCommand[]): void {
    for (const cmd of commands) {
      if (cmd.words.length === 0 || cmd.declaration) continue;
      // Cheap look at the first word before evaluating anything.
      const first = cmd.words[0]!.text;
      if (!first.includes("$'") && !/^(cd|pushd|popd|builtin|command|shopt)$/.test(first.replace(/['"\\]/g, ''))) continue;
      let args = cmd.words.flatMap((w) => argsOf(evalWord(w, this.lookup)));
      while (args.length > 0 && (args[0]!.value === 'builtin' || args[0]!.value === 'command')) args = args.slice(1);
      const name = args[0] ? commandName(args[0]) : undefined;
      if (name === 'shopt' && args.some((a) => a.value === 'dotglob')) this.dotglob = true;
      if (name !== 'cd' && name !== 'pushd' && name !== 'popd') continue;
      const operands = args.slice(1).filter((a) => !(a.value?.startsWith('-') && a.value !== '-'));
      if (name === 'popd' || operands.some((a) => a.dynamic || a.glob || a.value === '-')) {
        this.cwds = undefined;
        continue;
      }
      const target = operands[0]?.value ?? this.policy.home;
      const expanded = this.policy.expandHome(target);
      if (expanded === undefined || !this.cwds) {
        this.cwds = undefined;
        continue;
      }
      const next = path.isAbsolute(expanded) ? [path.resolve(expanded)] : this.cwds.map((c) => path.resolve(c, expanded));
      this.cwds = [...new Set([...this.cwds, ...next])].slice(0, 16);
    }
  }

  private words(cmd: SimpleCommand): Arg[] {
    const out: Arg[] = [];
    for (const node of cmd.words) {
      const w = evalWord(node, this.lookup);
      if (w.hazard) this.unprovable(w.hazard);
      out.push(...argsOf(w));
    }
    return out;
  }

  private simple(cmd: SimpleCommand): void {
    const argv = this.words(cmd);
    // `GIT_DIR=x echo $GIT_DIR`: a prefix assignment lives only in the environment of its command, and these run no program.
    const inert = !this.redefines && argv[0] !== undefined && !argv[0].dynamic && INERT_BUILTINS.has(argv[0].value ?? '');
    for (const a of cmd.assignments) this.assignment(a, inert);
    let stdin: Stdin = cmd.upstream ? { kind: 'pipe', upstream: cmd.upstream } : { kind: 'none' };
    for (const r of cmd.redirects) {
      if (r.heredoc) {
        stdin = { kind: 'heredoc', body: r.heredoc.body, expands: r.heredoc.expands };
        continue;
      }
      if (!r.target) continue;
      const targets = argsOf(evalWord(r.target, this.lookup));
      if (r.op === '<<<') {
        stdin = { kind: 'herestring', arg: targets[0]! };
        continue;
      }
      for (const t of targets) this.redirect(r.op, t, argv, (s) => (stdin = s));
    }
    if (cmd.declaration) {
      this.declaration(argv);
      return;
    }
    if (argv.length === 0) return;
    this.argv(argv, stdin);
  }

  private redirect(op: string, target: Arg, argv: Arg[], setStdin: (s: Stdin) => void): void {
    const who = argv[0]?.value ? `\`${path.posix.basename(argv[0].value)}\`` : 'a redirection';
    if ((op === '>&' || op === '<&') && (target.value === '-' || /^\d+-?$/.test(target.value ?? ''))) return;
    if (target.dynamic) {
      if (WRITE_REDIRECTS.has(op) && this.holdsNewTemp(target.text, true))
        this.unprovable(`${who} redirects ${op} ${target.text}, in a folder mktemp made ${SCRATCH_WHY}`);
      else this.unprovable(`${who} redirects ${op} ${target.text}, a file only known when it runs`);
      return;
    }
    const value = target.value!;
    if (/^\/dev\/(tcp|udp)\//.test(value)) {
      this.deny(`${who} opens a network connection through ${value} (a classic reverse shell)`);
      return;
    }
    if (op === '<') {
      if (argv.length > 0) setStdin({ kind: 'file', arg: target });
      this.readAs(target, `${who} reads`);
      return;
    }
    if (!WRITE_REDIRECTS.has(op) || HARMLESS_DEVICES.test(value)) return;
    const key = path.normalize(value);
    const before = this.written.has(key);
    this.checkWrite(target, `${argv.length > 0 ? who : 'a redirection'} writes`, { verb: 'writes' });
    // `date > stamp.txt`: what the file will hold is known now, so sending it later sends nothing secret.
    if (!before && (op === '>' || op === '>|') && printsKnownText(argv)) {
      this.written.delete(key);
      this.printed.add(key);
    }
  }

  private assignment(node: SimpleCommand['assignments'][number], inert = false): void {
    const nameNode = node.childForFieldName('name');
    const valueNode = node.childForFieldName('value');
    const name = nameNode?.text ?? node.text.split('=')[0] ?? '';
    const value = valueNode ? evalWord(valueNode, this.lookup) : undefined;
    if (value?.hazard) this.unprovable(value.hazard);
    if (!inert) this.assign(name, valueNode ? value?.value : '', node.text, valueNode?.text);
  }

  assign(name: string, value: string | undefined, text: string, source?: string): void {
    const rule = envPoisoning(name.replace(/\+$/, ''), value, source);
    if (rule) this.deny(`\`${text.length > 60 ? `${text.slice(0, 57)}...` : text}\` sets ${name}, which ${rule.why}`);
  }

  /** export/declare/typeset/local/readonly: their assignments were checked; `NAME=value` words too. */
  private declaration(argv: Arg[]): void {
    for (const a of argv.slice(1)) {
      if (a.dynamic) {
        this.unprovable(`\`${argv[0]?.text} ${a.text}\` declares a variable whose name is only known when it runs`);
        continue;
      }
      const m = /^([A-Za-z_]\w*)=(.*)$/s.exec(a.value ?? '');
      if (m) this.assign(m[1]!, m[2], a.value!);
    }
  }

  /** Judge one command line given as arguments: strip wrappers, apply user rules, run the handler. */
  argv(argvIn: Arg[], stdin: Stdin): void {
    let argv = argvIn;
    const wrappers: string[] = [];
    for (let guard = 0; guard < 16; guard++) {
      const first = argv[0];
      if (!first) return;
      if (first.dynamic || first.glob) {
        this.unprovable(
          first.dynamic
            ? `the command name ${first.text} is only known when it runs`
            : `the command name ${first.text} is a glob, so the program it runs depends on the files present`,
        );
        if (this.options.packs.has('files')) judgeUnknownProgram('files/unknown-program', `The program \`${first.text}\``, this.packApi);
        return;
      }
      const peeled = peelWrapper(argv, this);
      if (!peeled) break;
      wrappers.push(commandName(first)!);
      if (peeled.length === 0) return;
      argv = peeled;
    }
    const argv0 = argv[0]!;
    const name = commandName(argv0)!;
    const args = argv.slice(1);
    const label = invocationLabel(name, args);
    const inv: Invocation = { name, argv0, args, label, stdin };
    const line = [name, ...args.map((a) => a.value ?? a.text)].join(' ');
    this.seen.push(line);
    this.simpleSeen.push({ line, wrappers });
    this.simpleCount++;

    const denied = this.options.deny.find((r) => r.test(line));
    if (denied) this.deny(denied.reason ?? `\`${line}\` matches your deny rule "${denied.pattern}"`);
    const asked = this.options.ask.find((r) => r.test(line));
    if (asked) this.ask(asked.reason ?? `\`${line}\` matches your ask rule "${asked.pattern}"`);
    const allowed = !denied && !asked && this.options.allow.some((r) => r.test(line));
    if (allowed) {
      this.allowCount++;
      this.muted++;
    }
    try {
      const handler = COMMANDS.get(name) ?? handlerFor(name);
      handler?.(inv, this);
      // `terraform destroy --help` prints help and destroys nothing; a command your deny or ask rules match is decided by them (a person approves an asked `npm publish`).
      const help = args.some((a) => a.value === '--help' || a.value === '-help');
      if (!help && !denied && !asked)
        for (const rule of PACK_RULES.get(name) ?? []) if (this.options.packs.has(rule.pack)) rule.handler(inv, this.packApi);
      genericChecks(inv, this);
      if (!handler && !READ_ONLY_PROGRAMS.has(name)) this.unknownProgram(inv);
    } finally {
      if (allowed) this.muted--;
    }
  }

  /**
   * A program hookwise does not model may write, delete or run whatever it is
   * given: a path argument that leads outside the workspace is unprovable.
   */
  private unknownProgram(inv: Invocation): void {
    for (const a of inv.args) {
      if (a.dynamic || a.glob || a.value === undefined) continue;
      const eq = a.value.startsWith('-') ? a.value.indexOf('=') : -1;
      const raw = eq >= 0 ? a.value.slice(eq + 1) : a.value;
      if (!looksLikePath(raw) || HARMLESS_DEVICES.test(raw)) continue;
      for (const cwd of this.cwds ?? [this.policy.workspace]) {
        if (this.policy.isInside(raw, cwd)) continue;
        this.unprovable(`\`${inv.name}\` is a program hookwise does not model, and it is given ${raw}, outside the workspace`);
        return;
      }
    }
  }

  // ---- JudgeApi -------------------------------------------------------------

  stdinText(inv: Invocation): StdinText {
    const s = inv.stdin;
    if (s.kind === 'none') return { kind: 'none' };
    if (s.kind === 'heredoc')
      return s.expands && /[$`]/.test(s.body)
        ? { kind: 'unknown', what: 'a here-document with expansions' }
        : { kind: 'text', text: s.body };
    if (s.kind === 'herestring') return s.arg.dynamic ? { kind: 'unknown', what: s.arg.text } : { kind: 'text', text: s.arg.value! };
    if (s.kind === 'file') {
      const text = s.arg.dynamic ? undefined : this.workspaceFileText(s.arg.value!);
      return text === undefined ? { kind: 'unknown', what: s.arg.text } : { kind: 'text', text };
    }
    if (s.kind === 'runtime') return { kind: 'unknown', what: s.what };
    const p = this.producer(inv);
    if (p?.kind === 'text') return { kind: 'text', text: p.text };
    if (p?.kind === 'file' && p.files.length === 1 && !p.files[0]!.dynamic) {
      const text = this.workspaceFileText(p.files[0]!.value!);
      if (text !== undefined) return { kind: 'text', text };
    }
    return { kind: 'unknown', what: `what ${p?.name ?? 'an earlier command'} prints` };
  }

  /** A small file in the workspace, read now; undefined when it is elsewhere, missing or large. */
  private workspaceFileText(raw: string): string | undefined {
    const cwd = this.cwds?.length === 1 ? this.cwds[0]! : undefined;
    if (cwd === undefined || !this.policy.isInside(raw, cwd)) return undefined;
    try {
      const file = path.resolve(cwd, raw);
      if (fs.statSync(file).size > 1 << 20) return undefined;
      return fs.readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
  }

  write(arg: Arg, inv: Invocation, opts: WriteOptions = {}): void {
    this.checkWrite(arg, `\`${inv.label}\` ${opts.verb ?? 'writes'}`, opts);
  }

  private checkWrite(arg: Arg, subject: string, opts: WriteOptions): void {
    // `curl -o /dev/null`, `tee /dev/stderr`: writing there keeps nothing, as a redirection to them does.
    if (!arg.dynamic && !arg.glob && arg.value !== undefined && HARMLESS_DEVICES.test(arg.value)) return;
    if (arg.value !== undefined) this.written.add(path.normalize(arg.value));
    if (arg.dynamic) {
      if (this.holdsNewTemp(arg.text)) this.unprovable(`${subject} ${arg.text}, a folder mktemp made ${SCRATCH_WHY}`);
      else this.unprovable(`${subject} ${arg.text}, a path only known when it runs`);
      return;
    }
    if (arg.glob) {
      this.globWrite(arg, subject, opts);
      return;
    }
    this.pathVerdicts(
      arg.value!,
      (cwd) => this.policy.check(arg.value!, 'write', { cwd, recursive: opts.recursive, ...(opts.into && { into: true }) }),
      subject,
    );
  }

  /** A write through a glob: judge the folder it expands in and what it could match there. */
  private globWrite(arg: Arg, subject: string, opts: WriteOptions): void {
    const parts = arg.pattern!.split('/');
    const first = parts.findIndex((p) => /(^|[^\\])[*?[]/.test(p));
    const dir = parts.slice(0, first).join('/') || (arg.pattern!.startsWith('/') ? '/' : '.');
    const rest = parts.slice(first);
    if (rest.some((p) => couldMatchDotDot(p))) {
      this.deny(`${subject} ${arg.text}, a glob that can match "..", the folder above`);
      return;
    }
    const dirValue = dir.replace(/\\(.)/g, '$1');
    this.pathVerdicts(
      dirValue,
      (cwd) => {
        const v = this.policy.check(dirValue, 'write', { cwd });
        if (v.level !== 'allow' || !v.resolved) return v;
        const hit = protectedMatch(this.policy, v.resolved, rest.join('/'), opts.recursive === true, this.dotglob);
        return hit ? { level: 'deny', shown: arg.text, why: `a glob that can match ${hit}, which is protected` } : v;
      },
      subject,
      arg.text,
    );
  }

  private pathVerdicts(raw: string, check: (cwd: string) => PathVerdict, subject: string, shownAs?: string): void {
    const relative = !path.isAbsolute(raw) && !/^(~|\$HOME|\$\{HOME\})(\/|$)/.test(raw);
    if (relative && this.cwds === undefined) {
      this.unprovable(`${subject} ${shownAs ?? raw}, relative to a folder only known when it runs (after a dynamic cd)`);
      return;
    }
    for (const cwd of relative ? this.cwds! : [this.cwds?.[0] ?? this.policy.workspace]) {
      const v = check(cwd);
      if (v.level === 'allow') continue;
      const reason = `${subject} ${shownAs && v.shown === shownAs ? shownAs : v.shown}, ${v.why}`;
      if (v.level === 'deny') this.deny(reason);
      else this.unprovable(reason);
      return;
    }
  }

  read(arg: Arg, inv: Invocation): void {
    this.readAs(arg, `\`${inv.label}\` reads`);
  }

  private readAs(arg: Arg, subject: string): void {
    if (arg.glob && arg.pattern !== undefined) {
      this.globRead(arg.pattern, arg.text, subject);
      return;
    }
    if (arg.dynamic || !arg.value) return;
    // Plain flags name no file; `--file=x`, `-F@x` and `@x` may.
    if (arg.value.startsWith('-') && !/[=@]/.test(arg.value)) return;
    for (const candidate of pathCandidates(arg.value)) {
      for (const cwd of this.cwds ?? [this.policy.workspace]) {
        const v = this.policy.isSecret(candidate, cwd);
        if (v) {
          if (v.level === 'deny') this.deny(`${subject} ${v.shown}, ${v.why}`);
          else this.unprovable(`${subject} ${v.shown}, ${v.why}`);
          return;
        }
      }
    }
  }

  /** A read through a glob: every path it can reach now, and every secret name it could match. */
  private globRead(pattern: string, shown: string, subject: string): void {
    const expanded = this.policy.expandHome(pattern);
    if (expanded === undefined) return;
    for (const cwd of this.cwds ?? [this.policy.workspace]) {
      for (const candidate of globReadCandidates(expanded, cwd, this.dotglob)) {
        const v = this.policy.isSecret(candidate, cwd);
        if (!v) continue;
        const reason = `${subject} ${shown}, a glob that can match ${v.shown}: ${v.why}`;
        if (v.level === 'deny') this.deny(reason);
        else this.unprovable(reason);
        return;
      }
    }
  }

  /** A git pathspec or other tool-side pattern (`'.en*'`): judged as a glob read. */
  readPattern(value: string, inv: Invocation): void {
    if (/[*?[]/.test(value)) this.globRead(value, value, `\`${inv.label}\` reads`);
    else this.read({ text: value, value, glob: false, dynamic: false }, inv);
  }

  producer(inv: Invocation): StdinProducer | undefined {
    if (inv.stdin.kind !== 'pipe' || inv.stdin.upstream.length !== 1) return undefined;
    return describeStdin(this.words(inv.stdin.upstream[0]!));
  }

  upload(arg: Arg, inv: Invocation): void {
    this.read(arg, inv);
    const subject = `\`${inv.label}\` sends`;
    if (arg.value === '-') return;
    if (arg.dynamic || arg.glob || !arg.value) {
      this.unprovable(`${subject} ${arg.text} over the network, a file only known when it runs`);
      return;
    }
    const value = arg.value;
    if (this.printed.has(path.normalize(value)) && !this.written.has(path.normalize(value))) return;
    if (this.written.has(path.normalize(value))) {
      this.unprovable(
        `${subject} ${value} over the network, and an earlier command in this line writes it, so what it will hold cannot be read now`,
      );
      return;
    }
    for (const cwd of this.cwds ?? [this.policy.workspace]) {
      const file = path.resolve(cwd, this.policy.expandHome(value) ?? value);
      let stat: fs.Stats | undefined;
      try {
        stat = fs.statSync(file);
      } catch {
        stat = undefined;
      }
      // A file that is not there sends nothing, unless an earlier command in this line (one hookwise may not model) makes it.
      if (!stat && this.seen.length <= 1) return;
      if (!stat?.isFile()) {
        this.unprovable(
          `${subject} ${value} over the network, ${stat ? 'a folder, whose files hookwise does not read one by one' : 'which does not exist yet, so what it will hold cannot be read now'}`,
        );
        return;
      }
      if (!this.policy.isInside(value, cwd)) {
        this.unprovable(`${subject} ${value} over the network, a file outside the workspace`);
        return;
      }
      const found = secretsInFile(this.policy, value, cwd);
      if (found) {
        this.deny(`${subject} ${value} over the network, and it holds ${found}`);
        return;
      }
    }
  }

  madeThisSession(files: readonly string[]): boolean {
    return this.options.madeThisSession?.(files) ?? false;
  }

  isInside(raw: string, cwd: string): boolean {
    return this.policy.isInside(raw, cwd);
  }

  /** What a network command reads from stdin is sent: judge where it comes from. */
  uploadStdin(inv: Invocation): void {
    const s = inv.stdin;
    if (s.kind === 'file') {
      this.upload(s.arg, inv);
      return;
    }
    if (s.kind === 'pipe') {
      const p = this.producer(inv);
      if (p?.kind === 'file') for (const f of p.files) this.upload(f, inv);
      else if (p?.kind !== 'text')
        this.unprovable(
          `\`${inv.label}\` sends what ${p?.name ?? 'an earlier command'} prints over the network, which hookwise cannot read before it runs`,
        );
      return;
    }
    const text = this.stdinText(inv);
    if (text.kind === 'unknown') this.unprovable(`\`${inv.label}\` sends ${text.what} over the network, only known when it runs`);
    else if (text.kind === 'text' && secretsInText(text.text))
      this.deny(`\`${inv.label}\` sends text that holds ${secretsInText(text.text)} over the network`);
  }

  runsScript(arg: Arg, inv: Invocation): void {
    if (arg.dynamic) {
      this.unprovable(`\`${inv.label}\` runs the script ${arg.text}, only known when it runs`);
      return;
    }
    if (arg.word?.node?.type === 'process_substitution') {
      this.inner(arg, inv);
      return;
    }
    const value = arg.value!;
    if (value === '/dev/stdin' || value === '-' || /^\/dev\/fd\/0$|^\/proc\/self\/fd\/0$/.test(value)) {
      this.stdinCode(inv, 'shell');
      return;
    }
    for (const cwd of this.cwds ?? [this.policy.workspace]) {
      // A script in the workspace is the project's own code (even .env, sourced into the shell).
      if (this.policy.isInside(value, cwd)) continue;
      const v = this.policy.check(value, 'read', { cwd });
      this.unprovable(`\`${inv.label}\` runs the script ${v.shown}, outside the workspace, which hookwise cannot read before it runs`);
      return;
    }
  }

  /** A process substitution used as a file: judge the commands inside by what they produce. */
  private inner(arg: Arg, inv: Invocation): void {
    const text = arg.word?.node?.text ?? arg.text;
    if (/\b(curl|wget|fetch|nc|ncat)\b/.test(text))
      this.deny(`\`${inv.label}\` runs a download from the network (${text}), whatever the server sends`);
    else this.unprovable(`\`${inv.label}\` runs code produced by ${text}, only known when it runs`);
  }

  code(arg: Arg | string, inv: Invocation, what: string): void {
    const value = typeof arg === 'string' ? arg : arg.value;
    if (typeof arg !== 'string' && (arg.dynamic || value === undefined)) {
      this.unprovable(`\`${inv.label}\` runs ${what} ${arg.text}, which is only known when it runs`);
      // Code known only when it runs may be `git reset --hard` or `rm -rf src`, like a program known only then.
      if (this.options.packs.has('files')) judgeUnknownProgram('files/unknown-program', `The code \`${inv.label}\` runs`, this.packApi);
      return;
    }
    this.nested(() => this.script(value!));
  }

  private nested(fn: () => void): void {
    const muted = this.muted;
    this.muted = 0;
    this.depth++;
    try {
      fn();
    } finally {
      this.depth--;
      this.muted = muted;
    }
  }

  foreign(codeArg: Arg | string, language: Language, inv: Invocation): void {
    const code = typeof codeArg === 'string' ? codeArg : codeArg.value;
    if (code === undefined) {
      this.unprovable(`\`${inv.label}\` runs code ${typeof codeArg === 'string' ? '' : codeArg.text} only known when it runs`);
      return;
    }
    const scan = scanForeign(code, language);
    for (const literal of scan.literals) this.read(literalArg(literal), inv);
    for (const command of scan.commands) this.nested(() => this.script(command));
    if (scan.capabilities.some((c) => c.startsWith('changes files'))) {
      for (const p of scan.paths) this.write(literalArg(p), inv, { recursive: true, verb: 'changes' });
    }
    for (const p of scan.writes) this.write(literalArg(p), inv, { verb: 'writes' });
    // The sandbox lets the workspace be written, so a recursive delete there is judged as `rm -r` is (the files pack).
    if (this.options.packs.has('files'))
      for (const r of scan.removes) judgeDeletion(literalArg(r), inv, this.packApi, `\`${inv.label}\` (a recursive delete of ${r})`);
    if (scan.capabilities.length > 0) {
      // Code that only changes files (no commands, no generated code) writes where the kernel lets it, whatever the network.
      const writesOnly = scan.capabilities.every((c) => c.startsWith('changes files'));
      this.unprovable(
        `\`${inv.label}\` runs ${language === 'other' ? 'code' : `${language} code`} that ${scan.capabilities.join(' and ')}; hookwise cannot follow code in another language${writesOnly ? `; ${FILE_WRITES_WHY}` : ''}`,
      );
    }
  }

  stdinCode(inv: Invocation, language: Language | 'shell'): void {
    const s = inv.stdin;
    const run = (text: string) => (language === 'shell' ? this.nested(() => this.script(text)) : this.foreign(text, language, inv));
    switch (s.kind) {
      case 'none':
        return;
      case 'heredoc':
        if (s.expands && /[$`]/.test(s.body)) {
          this.unprovable(`\`${inv.label}\` runs a here-document whose $-expansions are filled in first, so their values become code`);
        }
        run(s.body);
        return;
      case 'herestring':
        if (s.arg.dynamic) this.unprovable(`\`${inv.label}\` runs the here-string ${s.arg.text}, only known when it runs`);
        else run(s.arg.value!);
        return;
      case 'file':
        this.runsScript(s.arg, inv);
        return;
      case 'runtime':
        this.unprovable(`\`${inv.label}\` runs code from ${s.what}, only known when it runs`);
        return;
      case 'pipe':
        this.pipedCode(s.upstream, inv, run);
    }
  }

  /** `producer | sh`: what the producer prints becomes code. */
  private pipedCode(upstream: SimpleCommand[], inv: Invocation, run: (text: string) => void): void {
    const described = upstream.map((cmd) => describeStdin(this.words(cmd)));
    const download = described.find((d) => d.kind === 'download');
    if (download) {
      this.deny(
        `\`${download.name} | ${inv.label}\` pipes a download from the network into ${inv.name}, which runs whatever the server sends`,
      );
      return;
    }
    const only = described.length === 1 ? described[0]! : undefined;
    if (only?.kind === 'text') {
      run(only.text);
      return;
    }
    if (only?.kind === 'file') {
      for (const file of only.files) this.runsScript(file, inv);
      return;
    }
    if (only?.kind === 'decoder') {
      this.unprovable(`\`${only.name} | ${inv.label}\` runs decoded data (${only.name}), which cannot be read before it runs`);
      return;
    }
    const names = described.map((d) => d.name).join(', ');
    this.unprovable(`\`${inv.label}\` runs what ${names || 'an earlier command'} prints, which is only known when it runs`);
    if (this.options.packs.has('files')) judgeUnknownProgram('files/unknown-program', `The code \`${inv.label}\` runs`, this.packApi);
  }
}
