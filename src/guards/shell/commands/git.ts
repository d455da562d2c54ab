/** git: configuration that runs programs, transports that run commands, destructive subcommands elsewhere. */
import { has, literalArg, parseOptions, valuesOf, type Arg } from '../args.js';
import { BENIGN_VIEWERS } from '../env-rules.js';
import type { Invocation, JudgeApi } from '../types.js';
import { def } from './registry.js';

const RISKY_GIT_KEY =
  /^(core\.(pager|editor|sshcommand|hookspath|fsmonitor|gitproxy|askpass|worktree|attributesfile)|sequence\.editor|diff\.external|diff\.[^.]+\.(textconv|command)|merge\.[^.]+\.driver|filter\.[^.]+\.(clean|smudge|process)|alias\..+|credential(\..+)?\.helper|gpg\.(program|[^.]+\.program)|protocol\..*allow|uploadpack\.packobjectshook|receive\.procreceiverefs|https?\..*proxy|url\..+\.insteadof|include\.path|includeif\..+\.path|remote\..+\.(uploadpack|receivepack|proxy)|pager\..+|interactive\.difffilter|browser\..+\.(cmd|path)|web\.browser|man\..+\.(cmd|path)|(diff|merge)tool\..+\.(cmd|path)|sendemail\..+|ssh\.variant|submodule\..+\.update|core\.sshcommand)$/i;
const DESTRUCTIVE_GIT = new Set([
  'clean',
  'reset',
  'checkout',
  'restore',
  'rm',
  'stash',
  'switch',
  'worktree',
  'gc',
  'prune',
  'update-ref',
  'filter-branch',
  'mv',
  'apply',
  'am',
  'merge',
  'pull',
  'rebase',
  'commit',
]);

def(['git'], (inv, j) => {
  const args = inv.args;
  let i = 0;
  const where: Arg[] = [];
  for (; i < args.length; i++) {
    const a = args[i]!;
    const v = a.value;
    if (v === undefined || !v.startsWith('-')) break;
    if (v === '-c' || v === '--config-env') {
      const kv = args[++i];
      gitConfigPair(kv, inv, j, v === '--config-env');
    } else if (v.startsWith('--config-env=')) gitConfigPair(literalArg(v.slice(13)), inv, j, true);
    else if (v === '-C' || v === '--git-dir' || v === '--work-tree' || v === '--namespace') {
      const d = args[++i];
      if (d && v !== '--namespace') where.push(d);
    } else if (/^--(git-dir|work-tree)=/.test(v)) where.push(literalArg(v.slice(v.indexOf('=') + 1)));
    else if (v.startsWith('--exec-path=')) j.deny(`\`git ${v}\` makes git run its helper programs from another folder`);
  }
  const sub = args[i]?.value;
  const rest = args.slice(i + 1);
  if (sub === undefined) return;
  if (DESTRUCTIVE_GIT.has(sub)) for (const d of where) j.write(d, inv, { verb: `runs \`git ${sub}\` in` });
  for (const a of rest) {
    const v = a.value ?? '';
    if (
      /^--(upload-pack|receive-pack|exec)(=|$)/.test(v) ||
      (v === '-u' && ['clone', 'fetch', 'pull', 'ls-remote', 'archive'].includes(sub))
    ) {
      j.deny(`\`git ${sub} ${v}\` makes git run a program given on the command line`);
    }
    if (/^ext::/.test(v)) j.deny(`\`git ${sub} ${v}\` uses the ext:: transport, which runs a command`);
  }
  if (sub === 'clone' || sub === 'init') {
    const p = parseOptions(rest, {
      short: 'obcju',
      long: [
        'origin',
        'branch',
        'config',
        'depth',
        'reference',
        'separate-git-dir',
        'template',
        'upload-pack',
        'jobs',
        'filter',
        'shallow-since',
        'shallow-exclude',
        'server-option',
        'bundle-uri',
        'object-format',
        'initial-branch',
      ],
    });
    const dest = sub === 'init' ? p.operands[0] : p.operands[1];
    if (dest) j.write(dest, inv, { verb: `runs \`git ${sub}\` into` });
    for (const t of valuesOf(p, '--template', '--separate-git-dir')) j.write(t, inv);
    for (const c of valuesOf(p, '-c', '--config')) gitConfigPair(c, inv, j, false);
  }
  if (sub === 'config') {
    const p = parseOptions(rest, { short: 'f', long: ['file', 'blob', 'type', 'default', 'comment', 'value'] });
    for (const f of valuesOf(p, '-f', '--file')) j.write(f, inv);
    const reading =
      has(
        p,
        '--get',
        '--get-all',
        '--get-regexp',
        '-l',
        '--list',
        '--unset',
        '--unset-all',
        '--show-origin',
        '--get-urlmatch',
        '--remove-section',
        '--rename-section',
      ) || p.operands.length === 1;
    const key = p.operands[0];
    if (!reading && key) {
      if (key.dynamic) j.unprovable(`\`git config ${key.text}\` sets a key only known when it runs`);
      else if (RISKY_GIT_KEY.test(key.value!)) j.deny(`\`git config ${key.value}\` sets ${key.value}, which makes git run a program`);
    }
    if (p.operands[0]?.value && ['set', 'add'].includes(p.operands[0].value) && p.operands[1]) {
      const k = p.operands[1];
      if (k.dynamic || RISKY_GIT_KEY.test(k.value!))
        j.deny(`\`git config ${p.operands[0].value} ${k.text}\` sets ${k.text}, which makes git run a program`);
    }
  }
  if (sub === 'rebase') {
    const p = parseOptions(rest, { short: 'xsX', long: ['exec', 'strategy', 'strategy-option', 'onto'] });
    for (const x of valuesOf(p, '-x', '--exec')) j.code(x, inv, 'the command');
  }
  if (sub === 'bisect' && rest[0]?.value === 'run') j.argv(rest.slice(1), { kind: 'none' });
  if (sub === 'submodule' && rest.some((a) => a.value === 'foreach')) {
    const cmd = rest.slice(rest.findIndex((a) => a.value === 'foreach') + 1).filter((a) => !/^--/.test(a.value ?? ''));
    if (cmd.some((a) => a.dynamic)) j.unprovable('`git submodule foreach` runs a command only known when it runs');
    else j.code(cmd.map((a) => a.value).join(' '), inv, 'the command');
  }
  if ((sub === 'difftool' || sub === 'mergetool') && rest.some((a) => /^(-x|--extcmd|-t|--tool)/.test(a.value ?? ''))) {
    j.unprovable(`\`git ${sub}\` with a tool runs a program hookwise does not follow`);
  }
  if (sub === 'grep') {
    for (const a of rest) {
      // -O<pager> / --open-files-in-pager=<pager> runs the pager on the matching files.
      const m = /^(?:-[a-zA-Z]*O|--open-files-in-pager=?)(.*)$/s.exec(a.value ?? '');
      if (a.dynamic && /^(-[a-zA-Z]*O|--open-files-in-pager)/.test(a.text))
        j.unprovable(`\`git grep ${a.text}\` runs a pager only known when it runs`);
      else if (m && m[1] !== '' && !BENIGN_VIEWERS.test(m[1]!.trim())) j.deny(`\`git grep ${a.value}\` runs ${m[1]} on the matching files`);
    }
  }
  if (sub === 'filter-branch' || sub === 'filter-repo') j.unprovable(`\`git ${sub}\` runs filter code over the whole history`);
});

function gitConfigPair(kv: Arg | undefined, _inv: Invocation, j: JudgeApi, fromEnv: boolean): void {
  if (!kv) return;
  if (kv.dynamic) {
    j.unprovable(`\`git -c ${kv.text}\` sets configuration only known when it runs`);
    return;
  }
  const [key = '', ...rest] = kv.value!.split('=');
  // Pagers and editors are fine when they name an ordinary viewer (core.editor=vim).
  if (!fromEnv && /^(core\.(pager|editor)|sequence\.editor|pager\..+)$/i.test(key) && BENIGN_VIEWERS.test(rest.join('=').trim())) return;
  if (RISKY_GIT_KEY.test(key)) j.deny(`\`git ${fromEnv ? '--config-env' : '-c'} ${kv.value}\` sets ${key}, which makes git run a program`);
}
