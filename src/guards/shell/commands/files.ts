/** Files: deleting, changing, copying, linking, archiving, installing. */
import { posix } from 'node:path';
import { has, literalArg, parseOptions, valuesOf, type Arg } from '../args.js';
import type { Invocation, JudgeApi } from '../types.js';
import { def, operandsOf } from './registry.js';
import { interpreter } from './code.js';

def(['rm', 'srm', 'trash', 'trash-put', 'shred', 'unlink', 'rmdir'], (inv, j) => {
  const p = operandsOf(inv, inv.name === 'shred' ? 'ns' : '', ['iterations', 'size', 'random-source']);
  const recursive = has(p, '-r', '-R', '--recursive') || inv.name === 'trash' || inv.name === 'trash-put';
  if (has(p, '--no-preserve-root')) j.deny(`\`${inv.label}\` turns off rm's refusal to delete /`);
  for (const op of p.operands) j.write(op, inv, { recursive, verb: 'targets' });
});

def(['truncate'], (inv, j) => operandsOf(inv, 'sr', ['size', 'reference']).operands.forEach((op) => j.write(op, inv)));
def(['touch'], (inv, j) => operandsOf(inv, 'dtr', ['date', 'reference']).operands.forEach((op) => j.write(op, inv)));
def(['mkdir'], (inv, j) => operandsOf(inv, 'm', ['mode', 'context']).operands.forEach((op) => j.write(op, inv, { verb: 'creates' })));
def(['mkfifo', 'mknod'], (inv, j) =>
  operandsOf(inv, 'm', ['mode'])
    .operands.slice(0, 1)
    .forEach((op) => j.write(op, inv, { verb: 'creates' })),
);
def(['tee'], (inv, j) => operandsOf(inv, '', ['output-error']).operands.forEach((op) => j.write(op, inv)));

def(['chmod'], (inv, j) => {
  const p = operandsOf(inv, '', ['reference']);
  const recursive = has(p, '-R', '--recursive');
  const reference = valuesOf(p, '--reference').length > 0;
  const [mode, ...files] = reference ? [undefined, ...p.operands] : p.operands;
  if (mode && (mode.dynamic || /[+=][rwxXt]*s|^[0-7]*[2467][0-7]{3}$/.test(mode.value ?? ''))) {
    if (mode.dynamic) j.unprovable(`\`${inv.label}\` sets the mode ${mode.text}, only known when it runs`);
    else j.deny(`\`${inv.label} ${mode.value}\` sets the setuid/setgid bit, which lets a program run with its owner's privileges`);
  }
  for (const f of files) if (f) j.write(f, inv, { recursive, verb: 'changes permissions of' });
});

def(['chown', 'chgrp', 'chattr', 'setfacl', 'chcon'], (inv, j) => {
  const p = operandsOf(inv, inv.name === 'setfacl' ? 'mMxX' : '', ['reference', 'from', 'modify', 'set']);
  const recursive = has(p, '-R', '--recursive');
  const files = inv.name === 'setfacl' || valuesOf(p, '--reference').length > 0 ? p.operands : p.operands.slice(1);
  for (const f of files) j.write(f, inv, { recursive, verb: 'changes the owner or attributes of' });
});

def(['mv'], (inv, j) => {
  const p = operandsOf(inv, 'tS', ['target-directory', 'suffix']);
  const target = valuesOf(p, '-t', '--target-directory');
  const into = target.length > 0 ? target : p.operands.slice(-1);
  for (const op of [...p.operands, ...target])
    j.write(op, inv, { recursive: true, verb: 'moves', ...(into.includes(op) && { into: true }) });
});

def(['cp', 'install', 'ln', 'link'], (inv, j) => {
  const p = operandsOf(inv, inv.name === 'install' ? 'tSmogC' : 'tS', [
    'target-directory',
    'suffix',
    'mode',
    'owner',
    'group',
    'reflink',
    'sparse',
    'backup',
  ]);
  const recursive = has(p, '-r', '-R', '-a', '--recursive', '--archive');
  const target = valuesOf(p, '-t', '--target-directory');
  let dests: Arg[];
  let sources: Arg[];
  if (target.length > 0) [dests, sources] = [target, p.operands];
  else if (inv.name === 'install' && has(p, '-d', '--directory')) [dests, sources] = [p.operands, []];
  else if ((inv.name === 'ln' || inv.name === 'link') && p.operands.length === 1) [dests, sources] = [[literalArg('.')], p.operands];
  else [dests, sources] = [p.operands.slice(-1), p.operands.slice(0, -1)];
  // `cp -s` and `cp -l` make links, as ln does: a link to an outside file lets later writes reach it.
  const linking = inv.name === 'ln' || inv.name === 'link' || (inv.name === 'cp' && has(p, '-s', '-l', '--link', '--symbolic-link'));
  for (const d of dests) j.write(d, inv, { recursive, verb: linking ? 'creates a link at' : 'writes' });
  // A link to a place outside the workspace lets later commands write (or read) there through it.
  // A relative symlink target is relative to the folder the link is made in, not to the cwd.
  const symbolic = has(p, '-s', '--symbolic', '--symbolic-link');
  const dest = dests[0];
  const folder =
    dest?.value === undefined
      ? undefined
      : target.length > 0 || sources.length > 1 || dest.value.endsWith('/')
        ? dest.value
        : posix.dirname(dest.value);
  for (const s of sources) {
    if (!linking) j.read(s, inv);
    else if (symbolic && s.value !== undefined && !/^(\/|~)/.test(s.value) && folder !== undefined)
      j.write(literalArg(posix.join(folder, s.value)), inv, { verb: 'links to' });
    else j.write(s, inv, { verb: 'links to' });
  }
});

def(['rsync'], (inv, j) => {
  const p = operandsOf(inv, 'eBfT', [
    'rsh',
    'rsync-path',
    'exclude',
    'include',
    'filter',
    'files-from',
    'log-file',
    'temp-dir',
    'backup-dir',
    'chown',
    'chmod',
    'password-file',
    'compare-dest',
    'link-dest',
    'copy-dest',
  ]);
  for (const rsh of valuesOf(p, '-e', '--rsh')) j.code(rsh, inv, 'the remote-shell program');
  for (const log of valuesOf(p, '--log-file')) j.write(log, inv);
  // --link-dest hard-links unchanged files from that folder: later writes to the copy change the original.
  for (const d of valuesOf(p, '--link-dest')) j.write(d, inv, { verb: 'hard-links files from' });
  const dest = p.operands.at(-1);
  if (dest && !isRemote(dest)) j.write(dest, inv, { recursive: true, verb: 'syncs into' });
  for (const s of p.operands.slice(0, -1)) if (!isRemote(s)) dest && isRemote(dest) ? j.upload(s, inv) : j.read(s, inv);
});

def(['scp', 'sftp'], (inv, j) => {
  const p = operandsOf(inv, 'cFiJlPoSDX', []);
  sshOptions(
    p.options.filter((o) => o.name === '-o').map((o) => o.value!),
    inv,
    j,
  );
  for (const s of valuesOf(p, '-S')) j.code(s, inv, 'the ssh program');
  const dest = p.operands.at(-1);
  if (dest && !isRemote(dest) && p.operands.length > 1) j.write(dest, inv, { recursive: has(p, '-r') });
  if (dest && isRemote(dest)) for (const s of p.operands.slice(0, -1)) if (!isRemote(s)) j.upload(s, inv);
});

def(['ssh'], (inv, j) => {
  const p = parseOptions(inv.args, { short: 'BbcDEeFIiJLlmOopQRSWw', stopAtOperand: true });
  sshOptions(valuesOf(p, '-o'), inv, j);
  for (const f of valuesOf(p, '-E')) j.write(f, inv);
  // What ssh reads on stdin goes to the remote side.
  if (inv.stdin.kind !== 'none') j.uploadStdin(inv);
});

function sshOptions(values: Arg[], inv: Invocation, j: JudgeApi): void {
  for (const o of values) {
    if (o.dynamic) j.unprovable(`\`${inv.label}\` sets an ssh option only known when it runs (${o.text})`);
    else if (/^\s*(ProxyCommand|LocalCommand|PermitLocalCommand|KnownHostsCommand|Match)\b/i.test(o.value!))
      j.deny(`\`${inv.label} -o ${o.value}\` makes ssh run a local command`);
  }
}

function isRemote(arg: Arg): boolean {
  return !arg.dynamic && /^([\w.-]+@)?[\w.-]+:|^rsync:\/\/|::/.test(arg.value ?? '') && !(arg.value ?? '').startsWith('/');
}

def(['dd'], (inv, j) => {
  for (const a of inv.args) {
    if (a.dynamic) continue;
    const m = /^(of|if)=(.*)$/s.exec(a.value!);
    if (!m) continue;
    if (m[1] === 'of') j.write({ ...a, value: m[2], text: m[2]! }, inv);
    else j.read({ ...a, value: m[2], text: m[2]! }, inv);
  }
});

def(['make', 'gmake'], (inv, j) => {
  const p = operandsOf(inv, 'CfIjlWo', [
    'directory',
    'file',
    'makefile',
    'include-dir',
    'jobs',
    'load-average',
    'what-if',
    'old-file',
    'assume-old',
    'assume-new',
    'eval',
  ]);
  for (const d of valuesOf(p, '-C', '--directory')) j.runsScript(d, inv);
  for (const f of valuesOf(p, '-f', '--file', '--makefile')) j.runsScript(f, inv);
  for (const e of valuesOf(p, '--eval')) j.unprovable(`\`${inv.label} --eval ${e.text}\` adds make rules that run commands`);
});

def(['zip'], (inv, j) => {
  const p = operandsOf(inv, 'bnt', ['unzip-command', 'temp-path', 'suffixes', 'tt', 'TT']);
  for (const c of valuesOf(p, '--unzip-command')) j.code(c, inv, 'the test command');
  const tt = inv.args.findIndex((a) => a.value === '-TT');
  if (tt >= 0 && inv.args[tt + 1]) j.code(inv.args[tt + 1]!, inv, 'the test command');
  if (p.operands[0]) j.write(p.operands[0], inv);
});

def(['vi', 'vim', 'nvim', 'view', 'gvim', 'emacs', 'nano', 'man'], (inv, j) => {
  for (let i = 0; i < inv.args.length; i++) {
    const v = inv.args[i]!.value ?? '';
    if (
      /^(-c|--cmd|-S|--eval|-l|--load|-P|--pager|-H|--html)$/.test(v) ||
      (/^\+.+/.test(v) && !/^\+(\d+|\/[^!|]*)$/.test(v)) ||
      /^--(eval|load|pager|html)=/.test(v)
    ) {
      j.unprovable(`\`${inv.name} ${v}\` runs editor or pager commands hookwise does not follow`);
      return;
    }
  }
  // Commands typed on stdin (vim -e/-s, emacs --batch) run too.
  if (inv.name !== 'man' && j.stdinText(inv).kind !== 'none')
    j.unprovable(`\`${inv.label}\` reads editor commands from its input, which can run shell commands`);
  if (['vi', 'vim', 'nvim', 'ex', 'gvim', 'emacs', 'nano'].includes(inv.name)) {
    for (const f of inv.args.filter((a) => !a.value?.startsWith('-'))) j.write(f, inv, { verb: 'edits' });
  }
});

def(['patch'], (inv, j) => {
  const p = operandsOf(inv, 'iopdrBDFYVzgx', [
    'input',
    'output',
    'directory',
    'reject-file',
    'prefix',
    'basename-prefix',
    'ifdef',
    'fuzz',
    'suffix',
    'version-control',
    'get',
    'strip',
    'quoting-style',
    'reject-format',
  ]);
  for (const o of valuesOf(p, '-o', '--output', '-r', '--reject-file')) if (o.value !== '-') j.write(o, inv);
  for (const d of valuesOf(p, '-d', '--directory')) j.write(d, inv, { verb: 'patches files in' });
  if (p.operands[0]) j.write(p.operands[0], inv, { verb: 'patches' });
});

def(['script'], (inv, j) => {
  const p = operandsOf(inv, 'cETIOBm', ['command', 'echo', 'timing', 'log-in', 'log-out', 'log-io', 'logging-format']);
  for (const c of valuesOf(p, '-c', '--command')) j.code(c, inv, 'the command');
  for (const f of [...p.operands.slice(0, 1), ...valuesOf(p, '-T', '--timing', '-I', '--log-in', '-O', '--log-out', '-B', '--log-io')])
    j.write(f, inv);
});

def(['unzip'], (inv, j) => {
  const p = operandsOf(inv, 'dxP', []);
  for (const d of valuesOf(p, '-d')) j.write(d, inv, { verb: 'extracts into' });
});

/** Package managers: installing globally or into a named folder writes there. */
def(['npm', 'pnpm', 'yarn', 'bun', 'pip', 'pip3', 'uv', 'gem', 'cargo', 'go'], (inv, j) => {
  const args = inv.args;
  if (
    ['npm', 'pnpm', 'yarn', 'bun'].includes(inv.name) &&
    args.some((a) => a.value === '-g' || a.value === '--global') &&
    args.some((a) => /^(i|install|add|link|uninstall|remove|rm|update|up)$/.test(a.value ?? '') || a.value === 'global')
  ) {
    j.deny(`\`${inv.label}\` installs or removes packages globally, outside the workspace`);
  }
  for (let i = 0; i < args.length; i++) {
    const m = /^(--target|--prefix|--root|--install-dir|--bindir|-t|--user-install|--global-dir)(=(.*))?$/.exec(args[i]!.value ?? '');
    if (!m || m[1] === '--user-install') continue;
    if (m[1] === '-t' && !/^pip3?$|^uv$/.test(inv.name)) continue;
    const target = m[2] !== undefined ? { ...args[i]!, value: m[3], text: m[3]! } : args[i + 1];
    if (target) j.write(target, inv, { verb: 'installs into' });
  }
  if (inv.name === 'npm' || inv.name === 'pnpm' || inv.name === 'yarn') {
    const sub = args.find((a) => !a.value?.startsWith('-'))?.value;
    if (
      sub === 'config' &&
      args.some((a) => /^(script-shell|shell|git|node-options|prefix)$/.test(a.value ?? '')) &&
      args.some((a) => a.value === 'set')
    ) {
      j.deny(`\`${inv.label} config set\` changes which programs ${inv.name} runs for every script`);
    }
  }
  if (inv.name === 'bun') {
    const sub = inv.args[0]?.value;
    if (sub === '-e' || sub === '--eval' || sub === 'eval' || sub === 'run' || sub === 'x') return interpreter(inv, j);
  }
});
