/** Network clients: downloads written outside, uploads of secrets, remote shells. */
import { valuesOf } from '../args.js';
import type { Invocation, JudgeApi } from '../types.js';
import { def, operandsOf } from './registry.js';

const SECRET_VAR =
  /\$\{?([A-Za-z_]*(KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|CREDENTIAL|CREDENTIALS|AUTH|COOKIE|SESSION|PRIVATE)[A-Za-z0-9_]*)\}?/i;
const ENV_DUMPERS = new Set(['env', 'printenv', 'set', 'export', 'declare', 'compgen']);

/** A command substitution that prints the environment, or a process's environment file. */
const ENV_SUBSTITUTION = /(\$\(|`)\s*([^`]*?[\s|;&(])?(env|printenv|set|export|declare|typeset|compgen)\b|\/proc\/[^/\s]+\/environ/;

/** Checks every network client gets: the environment or secret variables in what it sends. */
export function envLeaks(inv: Invocation, j: JudgeApi): void {
  for (const a of inv.args) {
    if (ENV_SUBSTITUTION.test(a.text)) j.deny(`\`${inv.label}\` sends the environment, which holds secrets, over the network (${a.text})`);
    const secret = SECRET_VAR.exec(a.text);
    if (a.dynamic && secret) j.ask(`\`${inv.label}\` sends $${secret[1]} over the network; confirm the destination is meant to receive it`);
  }
}

/**
 * `curl file:///etc/shadow` reads a local file (and may send it on): judged as
 * a read, and refused outside the workspace, where hookwise cannot see it.
 */
function localUrls(inv: Invocation, j: JudgeApi): void {
  for (const a of inv.args) {
    const m = /^(?:[^=]*=)?file:(?:\/\/[^/]*)?(\/.*)$/is.exec(a.value ?? '');
    if (a.dynamic && /file:/i.test(a.text)) j.unprovable(`\`${inv.label}\` reads a local file URL only known when it runs (${a.text})`);
    if (!m) continue;
    let file = m[1]!;
    try {
      file = decodeURIComponent(file);
    } catch {
      j.unprovable(`\`${inv.label}\` reads ${a.value}, a file URL hookwise cannot decode`);
      continue;
    }
    const arg = { text: a.text, value: file, glob: false, dynamic: false };
    j.read(arg, inv);
    if (!(j.cwds ?? []).some((cwd) => j.isInside(file, cwd)))
      j.unprovable(`\`${inv.label}\` reads ${file} through a file:// URL, outside the workspace`);
  }
}

function network(inv: Invocation, j: JudgeApi, sendsStdin: boolean): void {
  if (sendsStdin) j.uploadStdin(inv);
  if (inv.stdin.kind === 'pipe') {
    for (const cmd of inv.stdin.upstream) {
      const first = cmd.words[0]?.text.replace(/^\\/, '').split('/').pop();
      if (first && ENV_DUMPERS.has(first))
        j.deny(`\`${first} | ${inv.label}\` sends the environment, which holds secrets, over the network`);
      if (first && cmd.words.some((w) => /\/proc\/[^/]+\/environ/.test(w.text)))
        j.deny(`\`${inv.label}\` sends a process environment over the network`);
    }
  }
  envLeaks(inv, j);
  localUrls(inv, j);
}

/** DNS and reachability tools send their arguments to the network too (`host $(printenv KEY).x`). */
def(
  [
    'host',
    'dig',
    'nslookup',
    'drill',
    'ping',
    'ping6',
    'traceroute',
    'traceroute6',
    'tracepath',
    'whois',
    'mtr',
    'nping',
    'arping',
    'kdig',
    'delv',
    'resolvectl',
  ],
  envLeaks,
);

def(['curl'], (inv, j) => {
  const p = operandsOf(inv, 'odDcbHXeuATKEFrmwxyYzCQ', [
    'output',
    'output-dir',
    'dump-header',
    'cookie-jar',
    'cookie',
    'header',
    'request',
    'data',
    'data-binary',
    'data-raw',
    'data-ascii',
    'data-urlencode',
    'form',
    'form-string',
    'upload-file',
    'config',
    'user',
    'proxy',
    'stderr',
    'trace',
    'trace-ascii',
    'libcurl',
    'write-out',
    'referer',
    'user-agent',
    'max-time',
    'connect-timeout',
    'retry',
    'cert',
    'key',
    'cacert',
    'capath',
    'json',
    'url',
    'resolve',
    'connect-to',
    'netrc-file',
    'variable',
    'etag-save',
    'hsts',
    'alt-svc',
  ]);
  for (const f of valuesOf(
    p,
    '-o',
    '--output',
    '-D',
    '--dump-header',
    '-c',
    '--cookie-jar',
    '--stderr',
    '--trace',
    '--trace-ascii',
    '--libcurl',
    '--etag-save',
    '--hsts',
    '--alt-svc',
  )) {
    if (f.value !== '-') j.write(f, inv);
  }
  for (const d of valuesOf(p, '--output-dir')) j.write(d, inv, { verb: 'writes into' });
  let sendsStdin = false;
  for (const v of valuesOf(p, '-d', '--data', '--data-binary', '--data-ascii', '--data-urlencode', '--json', '-F', '--form')) {
    const m = /^(?:[^=@<]*=)?[@<](.+)$/s.exec(v.value ?? '');
    if (v.dynamic && /(^|=)[@<]/.test(v.text)) j.unprovable(`\`${inv.label}\` sends ${v.text}, a file only known when it runs`);
    if (!m) continue;
    const file = m[1]!.replace(/;.*$/, '');
    if (file === '-') sendsStdin = true;
    else j.upload({ ...v, value: file, text: m[1]! }, inv);
  }
  for (const f of valuesOf(p, '-T', '--upload-file')) {
    if (f.value === '-' || f.value === '.') sendsStdin = true;
    else j.upload(f, inv);
  }
  for (const k of valuesOf(p, '-K', '--config')) j.runsScript(k, inv);
  network(inv, j, sendsStdin);
});

def(['wget', 'wget2'], (inv, j) => {
  network(inv, j, false);
  const p = operandsOf(inv, 'OoaPeiUtTwQ', [
    'output-document',
    'output-file',
    'append-output',
    'directory-prefix',
    'save-cookies',
    'warc-file',
    'execute',
    'input-file',
    'post-file',
    'body-file',
    'user-agent',
    'tries',
    'timeout',
    'wait',
    'quota',
    'header',
    'post-data',
    'load-cookies',
  ]);
  for (const f of valuesOf(p, '-O', '--output-document', '-o', '--output-file', '-a', '--append-output', '--save-cookies', '--warc-file'))
    if (f.value !== '-') j.write(f, inv);
  for (const d of valuesOf(p, '-P', '--directory-prefix')) j.write(d, inv, { verb: 'writes into' });
  for (const f of valuesOf(p, '--post-file', '--body-file')) j.upload(f, inv);
});

def(['nc', 'ncat', 'netcat', 'telnet', 'http', 'https', 'xh', 'httpie', 'ftp', 'tftp', 'openssl'], (inv, j) => {
  // openssl only talks to the network as s_client.
  if (inv.name === 'openssl' && inv.args[0]?.value !== 's_client') return;
  network(inv, j, true);
  if (inv.args.some((a) => /^-[a-zA-Z]*[ec]$|^--(exec|sh-exec|lua-exec)(=|$)/.test(a.value ?? ''))) {
    j.deny(`\`${inv.label}\` gives the network a shell (nc -e/-c runs a program for the remote side)`);
  }
});

def(['socat'], (inv, j) => {
  network(inv, j, true);
  for (const a of inv.args)
    if (/(^|[,!])(exec|system):/i.test(a.value ?? a.text)) j.deny(`\`socat ${a.text}\` connects the network to a program (a remote shell)`);
});
