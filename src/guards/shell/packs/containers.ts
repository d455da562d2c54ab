/** The containers pack: container, volume and cluster commands that delete data or running services. */
import type { Arg } from '../args.js';
import { packRule } from './registry.js';

/** Options whose value is the next word (`kubectl -n prod delete ...`). */
const VALUED =
  /^(-n|--namespace|--context|--kubeconfig|--cluster|--user|-s|--server|-l|--selector|-o|--output|-f|--filename|-H|--host|-p|--project-name|--env-file|--kube-context)$/;
const words = (args: Arg[]) =>
  args.filter((a, i) => !a.value?.startsWith('-') && !VALUED.test(args[i - 1]?.value ?? '')).map((a) => a.value ?? '');
const flag = (args: Arg[], re: RegExp) => args.some((a) => a.value !== undefined && re.test(a.value));
const dryRun = (args: Arg[]) => flag(args, /^--dry-run(=(client|server|true))?$/);
/** `docker compose down -v`, and `--volumes=true` as compose's flag parser reads it (`--volumes=false` keeps them). */
const VOLUMES = /^(-v|--volumes(=(true|1|t|T|TRUE|True))?)$/;

packRule('containers', ['docker', 'podman', 'nerdctl'], (inv, p) => {
  const w = words(inv.args);
  const [a, b] = w;
  const line = `${inv.name} ${w.slice(0, 2).join(' ')}`;
  if ((a === 'system' || a === 'volume') && b === 'prune')
    p.deny(
      `containers/${a}-prune`,
      `\`${line}\` deletes ${a === 'volume' ? 'volumes and the data in them' : 'stopped containers, networks, images and build cache'}`,
    );
  else if (a === 'system' && b === 'reset')
    p.deny('containers/system-prune', `\`${line}\` deletes every container, image, volume and network`);
  else if (a === 'volume' && (b === 'rm' || b === 'remove'))
    p.deny('containers/volume-rm', `\`${line}\` deletes volumes and the data in them`);
  else if ((a === 'rm' || (a === 'container' && (b === 'rm' || b === 'prune'))) && flag(inv.args, /^(-f|--force|-[a-zA-Z]*f[a-zA-Z]*)$/))
    p.deny('containers/rm-force', `\`${line} -f\` removes running containers and what they hold`);
  else if (a === 'compose' && b === 'down' && flag(inv.args, VOLUMES))
    p.deny('containers/compose-down-volumes', `\`${line} -v\` deletes the project's volumes`);
});

packRule('containers', ['docker-compose', 'podman-compose'], (inv, p) => {
  if (words(inv.args)[0] === 'down' && flag(inv.args, VOLUMES))
    p.deny('containers/compose-down-volumes', `\`${inv.name} down -v\` deletes the project's volumes`);
});

packRule('containers', ['kubectl', 'oc', 'k3s', 'microk8s'], (inv, p) => {
  let args = inv.args;
  // `k3s kubectl ...`, `microk8s kubectl ...`
  if ((inv.name === 'k3s' || inv.name === 'microk8s') && args[0]?.value === 'kubectl') args = args.slice(1);
  else if (inv.name === 'k3s' || inv.name === 'microk8s') return;
  const w = words(args);
  if (dryRun(args)) return;
  if (w[0] === 'delete') p.deny('containers/kubectl-delete', `\`kubectl delete ${w.slice(1, 3).join(' ')}\` deletes cluster resources`);
  else if (w[0] === 'drain') p.deny('containers/kubectl-drain', `\`kubectl drain\` evicts every pod from a node`);
  else if (w[0] === 'replace' && flag(args, /^--force$/))
    p.deny('containers/kubectl-delete', '`kubectl replace --force` deletes and recreates resources');
  else if (w[0] === 'scale' && flag(args, /^--replicas=0$/))
    p.deny('containers/kubectl-scale-zero', '`kubectl scale --replicas=0` stops every pod of the workload');
});

packRule('containers', ['helm'], (inv, p) => {
  const w = words(inv.args);
  if (['uninstall', 'delete', 'del', 'un'].includes(w[0] ?? '') && !dryRun(inv.args))
    p.deny('containers/helm-uninstall', `\`helm ${w[0]} ${w[1] ?? ''}\` removes a release and its resources`);
});
