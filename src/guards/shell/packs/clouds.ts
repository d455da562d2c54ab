/** The clouds pack: infrastructure tools and cloud CLIs that delete resources. */
import type { Arg } from '../args.js';
import { packRule } from './registry.js';

const words = (args: Arg[]) => args.filter((a) => !a.value?.startsWith('-')).map((a) => a.value ?? '');
const flag = (args: Arg[], re: RegExp) => args.some((a) => a.value !== undefined && re.test(a.value));

packRule('clouds', ['terraform', 'tofu', 'terragrunt'], (inv, p) => {
  const args = inv.args.filter((a) => !/^-chdir=/.test(a.value ?? ''));
  const w = words(args);
  const sub = w[0] === 'run-all' ? w[1] : w[0];
  if (sub === 'destroy') p.deny('clouds/terraform-destroy', `\`${inv.name} destroy\` deletes every resource the configuration manages`);
  else if (sub === 'apply' && flag(args, /^--?destroy$/))
    p.deny('clouds/terraform-destroy', `\`${inv.name} apply -destroy\` deletes every resource`);
  else if (sub === 'apply' && flag(args, /^--?auto-approve(=true)?$/) && w.length < 2)
    p.irreversible(
      'clouds/terraform-auto-approve',
      `\`${inv.name} apply -auto-approve\` applies a plan nobody has read, which may destroy resources`,
    );
  else if (sub === 'state' && (w[1] === 'rm' || w[1] === 'push'))
    p.deny('clouds/terraform-state', `\`${inv.name} state ${w[1]}\` changes the state so resources are forgotten or overwritten`);
  else if (sub === 'workspace' && w[1] === 'delete') p.deny('clouds/terraform-state', `\`${inv.name} workspace delete\` deletes a state`);
});

packRule('clouds', ['pulumi'], (inv, p) => {
  const w = words(inv.args);
  if (w[0] === 'destroy' || (w[0] === 'stack' && w[1] === 'rm'))
    p.deny('clouds/pulumi-destroy', `\`pulumi ${w.slice(0, 2).join(' ')}\` deletes the stack's resources`);
});

/** aws's own options whose value is the next word (`aws --profile prod ec2 ...`). */
const AWS_VALUED = /^--(profile|region|output|endpoint-url|query|color|ca-bundle|cli-read-timeout|cli-connect-timeout|cli-binary-format)$/;

packRule('clouds', ['aws'], (inv, p) => {
  const w = inv.args
    .filter((a, i) => !a.value?.startsWith('-') && !AWS_VALUED.test(inv.args[i - 1]?.value ?? ''))
    .map((a) => a.value ?? '');
  const [service, op] = w;
  if (flag(inv.args, /^--dryrun$|^--dry-run$/)) return;
  if (service === 's3' && op === 'rm' && flag(inv.args, /^--recursive$/))
    p.deny('clouds/s3-rm', '`aws s3 rm --recursive` deletes every object under the prefix');
  else if (service === 's3' && op === 'rb' && flag(inv.args, /^--force$/))
    p.deny('clouds/s3-rb', '`aws s3 rb --force` deletes the bucket and every object in it');
  else if (service === 's3' && op === 'sync' && flag(inv.args, /^--delete$/))
    p.deny('clouds/s3-sync-delete', '`aws s3 sync --delete` deletes objects missing from the source');
  else if (op !== undefined && /^(batch-)?(delete|terminate|remove|deregister|purge|destroy)-/.test(op))
    p.deny('clouds/delete', `\`aws ${service} ${op}\` deletes cloud resources`);
  else if (service === 's3api' && op !== undefined && /^delete-/.test(op))
    p.deny('clouds/delete', `\`aws s3api ${op}\` deletes cloud resources`);
});

packRule('clouds', ['gcloud', 'az', 'doctl', 'linode-cli', 'hcloud', 'scw', 'oci', 'ibmcloud'], (inv, p) => {
  const w = words(inv.args);
  const verb = w.find((x) => /^(delete|remove|destroy|purge|rm|terminate)(-batch)?$/.test(x));
  if (verb && !flag(inv.args, /^--(dry-run|help)$/))
    p.deny('clouds/delete', `\`${inv.name} ${w.slice(0, w.indexOf(verb) + 1).join(' ')}\` deletes cloud resources`);
});

packRule('clouds', ['gsutil', 'gcloud'], (inv, p) => {
  const w = words(inv.args);
  if (inv.name === 'gsutil' && (w[0] === 'rb' || (w[0] === 'rm' && flag(inv.args, /^-[a-zA-Z]*r/))))
    p.deny('clouds/bucket-delete', `\`gsutil ${w[0]}\` deletes a bucket or every object under a prefix`);
  // `gsutil rsync -d`: objects the source lacks are deleted at the destination.
  if (inv.name === 'gsutil' && w[0] === 'rsync' && flag(inv.args, /^(-[a-zA-Z]*d[a-zA-Z]*|--delete-unmatched-destination-objects)$/))
    p.deny('clouds/s3-sync-delete', '`gsutil rsync -d` deletes objects at the destination that the source lacks');
  if (inv.name === 'gcloud' && w[0] === 'storage' && w[1] === 'rm' && flag(inv.args, /^(-r|--recursive)$/))
    p.deny('clouds/bucket-delete', '`gcloud storage rm -r` deletes every object under a prefix');
});

packRule('clouds', ['heroku', 'fly', 'flyctl', 'vercel', 'netlify', 'firebase', 'supabase', 'railway'], (inv, p) => {
  const w = words(inv.args);
  const hit = w.find((x) => /^(destroy|delete|remove|rm|reset|[\w-]+:(destroy|delete|remove|reset|wipe))$/.test(x));
  if (hit) p.deny('clouds/delete', `\`${inv.name} ${w.slice(0, w.indexOf(hit) + 1).join(' ')}\` deletes hosted resources`);
});
