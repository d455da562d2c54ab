/** Network clients: downloads written outside, uploads of secrets, remote shells. */
import { valuesOf } from '../args.js';
import type { Invocation, JudgeApi } from '../types.js';
import { def, operandsOf } from './registry.js';

const SECRET_VAR = /\$\{?([A-Za-z_]*(KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|CREDENTIAL|CREDENTIALS|AUTH|COOKIE|SESSION|PRIVATE)[A-Za-z0-9_]*)\}?/i;
const ENV_DUMPERS = new Set(['env', 'printenv', 'set', 'export', 'declare', 'compgen']);

function network(inv: Invocation, j: JudgeApi): void {
  if (inv.stdin.kind === 'file') j.upload(inv.stdin.arg, inv);
  if (inv.stdin.kind === 'pipe') {
    const producer = j.producer(inv);
    if (producer?.kind === 'file') for (const f of producer.files) j.upload(f, inv);
    for (const cmd of inv.stdin.upstream) {
      const first = cmd.words[0]?.text.replace(/^\\/, '').split('/').pop();
      if (first && ENV_DUMPERS.has(first)) j.deny(`\`${first} | ${inv.label}\` sends the environment, which holds secrets, over the network`);
      if (first && cmd.words.some((w) => /\/proc\/[^/]+\/environ/.test(w.text))) j.deny(`\`${inv.label}\` sends a process environment over the network`);
    }
  }
  for (const a of inv.args) {
    if (/\$\(\s*(env|printenv|set|cat\s+\/proc\/[^/]+\/environ)\b/.test(a.text)) j.deny(`\`${inv.label}\` sends the environment, which holds secrets, over the network`);
    const secret = SECRET_VAR.exec(a.text);
    if (a.dynamic && secret) j.ask(`\`${inv.label}\` sends $${secret[1]} over the network; confirm the destination is meant to receive it`);
  }
}

def(['curl'], (inv, j) => {
  network(inv, j);
  const p = operandsOf(inv, 'odDcbHXeuATKEFrmwxyYzCQ', ['output', 'output-dir', 'dump-header', 'cookie-jar', 'cookie', 'header', 'request', 'data', 'data-binary', 'data-raw', 'data-ascii', 'data-urlencode', 'form', 'form-string', 'upload-file', 'config', 'user', 'proxy', 'stderr', 'trace', 'trace-ascii', 'libcurl', 'write-out', 'referer', 'user-agent', 'max-time', 'connect-timeout', 'retry', 'cert', 'key', 'cacert', 'capath', 'json', 'url', 'resolve', 'connect-to', 'netrc-file', 'variable', 'etag-save', 'hsts', 'alt-svc']);
  for (const f of valuesOf(p, '-o', '--output', '-D', '--dump-header', '-c', '--cookie-jar', '--stderr', '--trace', '--trace-ascii', '--libcurl', '--etag-save', '--hsts', '--alt-svc')) {
    if (f.value !== '-') j.write(f, inv);
  }
  for (const d of valuesOf(p, '--output-dir')) j.write(d, inv, { verb: 'writes into' });
  for (const v of valuesOf(p, '-d', '--data', '--data-binary', '--data-ascii', '--data-urlencode', '--json', '-F', '--form')) {
    const m = /^(?:[^=@<]*=)?[@<](.+)$/s.exec(v.value ?? '');
    if (m && !m[1]!.startsWith('-')) j.upload({ ...v, value: m[1]!.replace(/;.*$/, ''), text: m[1]! }, inv);
  }
  for (const f of valuesOf(p, '-T', '--upload-file')) j.upload(f, inv);
});

def(['wget', 'wget2'], (inv, j) => {
  network(inv, j);
  const p = operandsOf(inv, 'OoaPeiUtTwQ', ['output-document', 'output-file', 'append-output', 'directory-prefix', 'save-cookies', 'warc-file', 'execute', 'input-file', 'post-file', 'body-file', 'user-agent', 'tries', 'timeout', 'wait', 'quota', 'header', 'post-data', 'load-cookies']);
  for (const f of valuesOf(p, '-O', '--output-document', '-o', '--output-file', '-a', '--append-output', '--save-cookies', '--warc-file')) if (f.value !== '-') j.write(f, inv);
  for (const d of valuesOf(p, '-P', '--directory-prefix')) j.write(d, inv, { verb: 'writes into' });
  for (const f of valuesOf(p, '--post-file', '--body-file')) j.upload(f, inv);
});

def(['nc', 'ncat', 'netcat', 'telnet', 'http', 'https', 'xh', 'httpie', 'ftp'], (inv, j) => {
  network(inv, j);
  if (inv.args.some((a) => /^-[a-zA-Z]*[ec]$|^--(exec|sh-exec|lua-exec)(=|$)/.test(a.value ?? ''))) {
    j.deny(`\`${inv.label}\` gives the network a shell (nc -e/-c runs a program for the remote side)`);
  }
});

def(['socat'], (inv, j) => {
  network(inv, j);
  for (const a of inv.args) if (/(^|[,!])(exec|system):/i.test(a.value ?? a.text)) j.deny(`\`socat ${a.text}\` connects the network to a program (a remote shell)`);
});
