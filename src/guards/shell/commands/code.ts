/** Shells, eval, source and interpreters: code inside code. */
import { has, parseOptions, valuesOf } from '../args.js';
import { languageOf } from '../foreign-code.js';
import type { Invocation, JudgeApi } from '../types.js';
import { def } from './registry.js';

const SHELLS = [
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'ash',
  'fish',
  'csh',
  'tcsh',
  'rbash',
  'yash',
  'posh',
  'oksh',
  'pdksh',
  'busybox-sh',
];

def(SHELLS, (inv, j) => {
  const args = inv.args;
  let command = false;
  let i = 0;
  for (; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined || !/^[-+]/.test(v) || v === '-' || v === '--') {
      if (v === '--' || v === '-') i++;
      break;
    }
    if (v === '--rcfile' || v === '--init-file') {
      const f = args[++i];
      if (f) j.runsScript(f, inv);
      continue;
    }
    if (v.startsWith('--')) continue;
    if (/^[-+][a-zA-Z]*[oO]$/.test(v)) i++;
    if (v.startsWith('-') && v.includes('c')) command = true;
  }
  const first = args[i];
  const fromStdin = args.slice(0, i).some((a) => /^-[a-zA-Z]*s/.test(a.value ?? ''));
  if (command) {
    if (!first) j.unprovable(`\`${inv.label}\` has -c without a command`);
    else j.code(first, inv, 'the command');
    return;
  }
  if (first && !fromStdin) {
    j.runsScript(first, inv);
    return;
  }
  j.stdinCode(inv, 'shell');
});

def(['eval'], (inv, j) => {
  if (inv.args.some((a) => a.dynamic)) j.unprovable(`\`eval ${inv.args.map((a) => a.text).join(' ')}\` runs code only known when it runs`);
  else j.code(inv.args.map((a) => a.value).join(' '), inv, 'the code');
});

def(['source', '.'], (inv, j) => {
  const file = inv.args[0];
  if (file) j.runsScript(file, inv);
});

def(['alias'], (inv, j) => {
  for (const a of inv.args) {
    if (a.dynamic) j.unprovable(`\`alias ${a.text}\` defines a command only known when it runs`);
    else {
      const m = /^[^=]+=(.*)$/s.exec(a.value!);
      if (m) j.code(m[1]!, inv, 'the alias');
    }
  }
});

def(['trap'], (inv, j) => {
  const action = inv.args[0];
  if (action && !/^-[lp]$/.test(action.value ?? '') && action.value !== '-' && action.value !== '--')
    j.code(action, inv, 'the trap action');
});

def(['export', 'declare', 'typeset', 'local', 'readonly'], (inv, j) => {
  for (const a of inv.args) {
    const m = /^([A-Za-z_]\w*)=(.*)$/s.exec(a.value ?? a.text);
    if (m) j.assign(m[1]!, a.dynamic ? undefined : m[2], a.value ?? a.text, m[2]);
  }
});

const CODE_FLAGS: Record<string, { short: string; long: string[]; code: string[]; script?: boolean }> = {
  python: { short: 'cmWXQ', long: [], code: ['-c'] },
  node: {
    short: 'eprC',
    long: ['eval', 'print', 'require', 'import', 'loader', 'experimental-loader', 'input-type', 'conditions', 'env-file'],
    code: ['-e', '--eval', '-p', '--print'],
  },
  perl: { short: 'eEIMmlx0iC', long: [], code: ['-e', '-E'] },
  ruby: { short: 'eIrCEFx', long: ['encoding'], code: ['-e'] },
  php: { short: 'rfdcBREFz', long: [], code: ['-r', '-B', '-R', '-E', '-F'] },
  lua: { short: 'el', long: [], code: ['-e'] },
  other: { short: 'e', long: [], code: ['-e'] },
};

export function interpreter(inv: Invocation, j: JudgeApi): void {
  const language = languageOf(inv.name);
  const key = language === 'awk' ? 'other' : inv.name === 'deno' || inv.name === 'bun' ? 'node' : language;
  const spec = CODE_FLAGS[key] ?? CODE_FLAGS.other!;
  let args = inv.args;
  if ((inv.name === 'deno' || inv.name === 'bun') && args[0]?.value && /^(eval|run|x)$/.test(args[0].value)) {
    if (args[0].value === 'eval') {
      const code = args.find((a, i) => i > 0 && !a.value?.startsWith('-'));
      if (code) j.foreign(code, 'node', inv);
      return;
    }
    args = args.slice(1);
  }
  const p = parseOptions(args, { short: spec.short, long: spec.long, stopAtOperand: true });
  const codes = valuesOf(p, ...spec.code);
  for (const r of valuesOf(p, '-r', '--require', '--import', '--loader', '--experimental-loader'))
    if (language === 'node' && /^[./~]/.test(r.value ?? '')) j.runsScript(r, inv);
  if (language === 'perl' && has(p, '-i')) for (const f of p.operands) j.write(f, inv, { verb: 'edits' });
  if (language === 'perl' && inv.args.some((a) => /^-[a-zA-Z]*i/.test(a.value ?? ''))) {
    const files = p.operands.slice(codes.length > 0 ? 0 : 1);
    for (const f of files) j.write(f, inv, { verb: 'edits' });
  }
  if (codes.length > 0) {
    for (const c of codes) j.foreign(c, language, inv);
    return;
  }
  if (language === 'python' && valuesOf(p, '-m').length > 0) return;
  const script = p.operands[0];
  if (script && script.value !== '-') {
    if (!script.dynamic && /^https?:\/\//.test(script.value!))
      j.deny(`\`${inv.label} ${script.value}\` runs code downloaded from the network`);
    else j.runsScript(script, inv);
    return;
  }
  j.stdinCode(inv, language);
}

def(['awk', 'gawk', 'mawk', 'nawk', 'busybox-awk'], (inv, j) => {
  const p = parseOptions(inv.args, {
    short: 'fvFiEle',
    long: ['file', 'assign', 'field-separator', 'include', 'load', 'exec', 'source'],
    stopAtOperand: true,
  });
  const files = valuesOf(p, '-f', '--file', '-E', '--exec', '-i', '--include');
  for (const f of files) if (f.value !== 'inplace') j.runsScript(f, inv);
  const sources = valuesOf(p, '--source', '-e');
  let operands = p.operands;
  const inplace = valuesOf(p, '-i', '--include').some((v) => v.value === 'inplace');
  if (files.filter((f) => f.value !== 'inplace').length === 0 && sources.length === 0) {
    const program = operands[0];
    operands = operands.slice(1);
    if (program) j.foreign(program, 'awk', inv);
  }
  for (const s of sources) j.foreign(s, 'awk', inv);
  if (inplace) for (const f of operands) if (!/^\w+=/.test(f.value ?? '')) j.write(f, inv, { verb: 'edits' });
});
