/**
 * The clouds pack, hosted services: code forges (`gh`, `glab`), edge and data
 * platforms, object stores and key-value stores whose CLIs delete what no local
 * copy restores (a repository with its issues, a release, a bucket, a secret).
 */
import type { Arg } from '../args.js';
import type { Invocation } from '../types.js';
import { packRule, type PackApi } from './registry.js';
import { destructiveSql } from './sql.js';

/** Options whose value is the next word, so it is not read as a subcommand. */
const VALUED =
  /^(-R|--repo|-p|--profile|--hostname|--env|-e|--config|-c|--target|-t|--namespace-id|--binding|--account|--region|--project_id|--location|--address|--token|-n|--name)$/;
const words = (args: Arg[]) =>
  args.filter((a, i) => !a.value?.startsWith('-') && !VALUED.test(args[i - 1]?.value ?? '')).map((a) => a.value ?? '');
const flag = (args: Arg[], re: RegExp) => args.some((a) => a.value !== undefined && re.test(a.value));
const dryRun = (args: Arg[]) => flag(args, /^--(dry-run|dryrun)(=true)?$/);

function deletes(inv: Invocation, p: PackApi, rule: string, upto: string[], what: string): void {
  p.deny(rule, `\`${inv.name} ${upto.join(' ')}\` ${what}`);
}

// `gh repo delete`, `gh release delete`, `gh secret delete`, `glab repo delete`, `gh api -X DELETE`.
packRule('clouds', ['gh', 'glab'], (inv, p) => {
  const w = words(inv.args);
  if (w[0] === 'api') {
    const i = inv.args.findIndex((a) => /^(-X|--method)$/.test(a.value ?? ''));
    const method = (i >= 0 ? inv.args[i + 1]?.value : inv.args.find((a) => /^(-X|--method=)\w+$/.test(a.value ?? ''))?.value)
      ?.replace(/^(-X|--method=)/, '')
      .toUpperCase();
    if (method === 'DELETE') deletes(inv, p, 'clouds/forge-delete', ['api', '-X DELETE'], 'deletes a resource on the forge');
    return;
  }
  if (w[1] === 'delete' || w[1] === 'delete-asset')
    deletes(inv, p, 'clouds/forge-delete', w.slice(0, 2), `deletes the ${w[0]} on the forge, which no local copy restores`);
});

// Cloudflare, Databricks, BigQuery, InfluxDB, Vault, Consul: a delete verb anywhere in the command path.
packRule('clouds', ['wrangler', 'databricks', 'bq', 'influx', 'vault', 'consul', 'eksctl', 'civo', 'vultr-cli'], (inv, p) => {
  const w = words(inv.args);
  if (dryRun(inv.args)) return;
  const verb = w.findIndex((x) => /^(delete|permanent-delete|destroy|rm|purge|disable)$/.test(x));
  if (verb >= 0 && !(inv.name === 'vault' && w[verb] === 'disable' && w[0] !== 'secrets' && w[0] !== 'auth'))
    deletes(inv, p, 'clouds/delete', w.slice(0, verb + 1), 'deletes hosted resources and the data in them');
  // `wrangler d1 execute db --command "DROP TABLE x"`, `bq query "DELETE FROM t"`: the SQL is read like psql's.
  const sql: string[] = [];
  if (inv.name === 'wrangler' && w[0] === 'd1' && w[1] === 'execute')
    inv.args.forEach((a, i) => {
      if (/^--command=/.test(a.value ?? '')) sql.push(a.value!.slice('--command='.length));
      else if (inv.args[i - 1]?.value === '--command' && a.value !== undefined) sql.push(a.value);
    });
  if (inv.name === 'bq' && w[0] === 'query') sql.push(...w.slice(1));
  for (const text of sql) {
    const found = destructiveSql(text);
    if (found) p.deny(found.rule, `\`${inv.name} ${w.slice(0, 2).join(' ')}\` runs ${found.what}`);
  }
});

// Key-value stores: etcd, Kafka topics.
packRule('clouds', ['etcdctl', 'kafka-topics', 'kafka-topics.sh'], (inv, p) => {
  const w = words(inv.args);
  if (inv.name === 'etcdctl' && (w[0] === 'del' || w[0] === 'delete' || (w[0] === 'lease' && w[1] === 'revoke')))
    deletes(inv, p, 'clouds/delete', w.slice(0, 1), 'deletes keys from the cluster store');
  if (inv.name !== 'etcdctl' && flag(inv.args, /^--delete$/))
    deletes(inv, p, 'clouds/delete', ['--delete'], 'deletes topics and every message in them');
});

// Object-store sync tools: a delete, or a sync that deletes what the source lacks.
packRule('clouds', ['rclone', 's3cmd', 'mc', 'azcopy'], (inv, p) => {
  const w = words(inv.args);
  if (dryRun(inv.args) || flag(inv.args, /^(-n|--interactive|-i)$/)) return;
  const sub = w[0] ?? '';
  const removes =
    (inv.name === 'rclone' && /^(delete|deletefile|purge|rmdir|rmdirs|cleanup)$/.test(sub)) ||
    (inv.name === 's3cmd' && /^(del|rm|rb|deleted|expire)$/.test(sub)) ||
    (inv.name === 'mc' && /^(rm|rb)$/.test(sub)) ||
    (inv.name === 'azcopy' && /^(remove|rm)$/.test(sub));
  const mirrors =
    (inv.name === 'rclone' && sub === 'sync') ||
    (inv.name === 's3cmd' && sub === 'sync' && flag(inv.args, /^--delete-removed$/)) ||
    (inv.name === 'mc' && sub === 'mirror' && flag(inv.args, /^--remove$/)) ||
    (inv.name === 'azcopy' && sub === 'sync' && flag(inv.args, /^--delete-destination(=true)?$/));
  if (removes) deletes(inv, p, 'clouds/bucket-delete', [sub], 'deletes objects from the store, which keeps no copy');
  else if (mirrors) deletes(inv, p, 'clouds/s3-sync-delete', [sub], 'deletes objects at the destination that the source lacks');
});
