/** The databases pack: SQL clients, mongo shells and redis-cli given statements that destroy data. */
import type { Arg } from '../args.js';
import type { Invocation } from '../types.js';
import { packRule, type PackApi } from './registry.js';
import { destructiveMongo, destructiveSql } from './sql.js';

type Found = { rule: string; what: string } | undefined;

/** Options whose value is a statement, per client. */
const CODE_OPTIONS: Record<string, RegExp> = {
  psql: /^(-c|--command)(=|$)/,
  mysql: /^(-e|--execute)(=|$)/,
  mariadb: /^(-e|--execute)(=|$)/,
  'clickhouse-client': /^(-q|--query)(=|$)/,
  cockroach: /^(-e|--execute)(=|$)/,
  mongosh: /^(--eval)(=|$)/,
  mongo: /^(--eval)(=|$)/,
  sqlcmd: /^(-Q|-q)(=|$)/,
  snowsql: /^(-q|--query)(=|$)/,
  duckdb: /^(-c|-cmd)(=|$)/,
};

function optionValues(inv: Invocation, re: RegExp): Arg[] {
  const out: Arg[] = [];
  inv.args.forEach((a, i) => {
    const v = a.value;
    if (v === undefined || !re.test(v)) return;
    const eq = v.indexOf('=');
    if (eq >= 0 && v.startsWith('--')) out.push({ ...a, value: v.slice(eq + 1), text: v.slice(eq + 1) });
    else if (inv.args[i + 1]) out.push(inv.args[i + 1]!);
  });
  return out;
}

function report(found: Found, inv: Invocation, p: PackApi): void {
  if (found) p.deny(found.rule, `\`${inv.name}\` runs ${found.what}`);
}

packRule('databases', [...Object.keys(CODE_OPTIONS), 'sqlite3', 'sqlite'], (inv, p) => {
  const mongo = inv.name === 'mongosh' || inv.name === 'mongo';
  const scan = (text: string): Found => (mongo ? destructiveMongo(text) : destructiveSql(text));
  const re = CODE_OPTIONS[inv.name];
  if (re) for (const v of optionValues(inv, re)) if (v.value !== undefined) report(scan(v.value), inv, p);
  // sqlite3 db.sqlite "DROP TABLE x"; bq query "..."; duckdb db "..."
  if (inv.name === 'sqlite3' || inv.name === 'sqlite' || inv.name === 'duckdb') {
    const operands = inv.args.filter((a) => !a.value?.startsWith('-'));
    for (const a of operands.slice(1)) if (a.value !== undefined) report(scan(a.value), inv, p);
  }
  const stdin = p.judge.stdinText(inv);
  if (stdin.kind === 'text') report(scan(stdin.text), inv, p);
  // psql -f file.sql, mysql --execute="source x": a script file in the workspace is read like stdin.
  for (const f of optionValues(inv, /^(-f|--file)(=|$)/)) {
    const text = p.judge.stdinText({ ...inv, stdin: { kind: 'file', arg: f } });
    if (text.kind === 'text') report(scan(text.text), inv, p);
  }
});

packRule('databases', ['redis-cli', 'valkey-cli', 'keydb-cli'], (inv, p) => {
  // The command is the first word after the options (`redis-cli -n 2 FLUSHDB`), not any word (`SET flushall 1`).
  let i = 0;
  while (i < inv.args.length && inv.args[i]!.value?.startsWith('-'))
    i += /^-[hpansurid]$|^--(user|pass|tls|cacert|cert|key|sni)$/.test(inv.args[i]!.value!) ? 2 : 1;
  const command = inv.args[i]?.value?.toUpperCase();
  const flush = command === 'FLUSHALL' || command === 'FLUSHDB' ? command : undefined;
  if (flush) p.deny('databases/redis-flush', `\`${inv.name} ${flush}\` deletes every key`);
  const stdin = p.judge.stdinText(inv);
  if (stdin.kind === 'text' && /^\s*(FLUSHALL|FLUSHDB)\b/im.test(stdin.text))
    p.deny('databases/redis-flush', `\`${inv.name}\` is fed FLUSHALL/FLUSHDB, which deletes every key`);
});

packRule('databases', ['dropdb', 'mysqladmin'], (inv, p) => {
  if (inv.name === 'dropdb' && !inv.args.some((a) => /^(--help|--version|-V|-\?)$/.test(a.value ?? '')))
    p.deny('databases/drop', '`dropdb` drops a whole database');
  if (inv.name === 'mysqladmin' && inv.args.some((a) => /^drop$/i.test(a.value ?? '')))
    p.deny('databases/drop', '`mysqladmin drop` drops a whole database');
});
