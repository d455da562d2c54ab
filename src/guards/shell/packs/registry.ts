/**
 * Rule packs: families of commands that destroy what nothing can restore (git
 * history and uncommitted work, files git cannot bring back, databases,
 * clusters, cloud resources, published packages). Each pack is switched per
 * policy; each refusal names its pack and rule, e.g. `[git/reset-hard]`.
 */
import type { Invocation, JudgeApi } from '../types.js';
import type { DiskLook } from './disk.js';

export const PACK_NAMES = ['git', 'files', 'databases', 'containers', 'clouds', 'publishing'] as const;
export type PackName = (typeof PACK_NAMES)[number];

/** One line per pack, for `hookwise check` and the docs. */
export const PACK_SUMMARIES: Record<PackName, string> = {
  git: 'reset --hard, clean -f, checkout/restore that discard, stash drop/clear, branch -D, push --force, reflog expire, gc --prune=now, filter-branch, update-ref -d, tag -d',
  files:
    'rm -r, find -delete/-exec rm, rsync --delete and interpreter rmtree of untracked or modified work that git cannot restore (ignored build output is fine); rm, unlink or truncate of one such file',
  databases:
    'DROP, TRUNCATE, DELETE/UPDATE without WHERE through psql, mysql, sqlite3, mongosh; redis-cli FLUSHALL/FLUSHDB; prisma migrate reset, rails db:drop, manage.py flush, artisan migrate:fresh',
  containers: 'docker system/volume prune, podman system reset, docker rm -f, compose down -v, kubectl delete, helm uninstall',
  clouds:
    'terraform destroy, apply -auto-approve, aws s3 rm --recursive, s3 rb --force, gcloud/az/aws delete, gh repo/release delete, wrangler/databricks/bq/vault delete, rclone purge',
  publishing: 'npm/pnpm/yarn/cargo publish, twine/poetry/uv upload, gem push, git push of tags, gh/glab release create',
};

/** What a pack rule can ask of the judge. */
export interface PackApi {
  /** The loss is proven, or the command's nature is loss: refused. */
  deny(rule: string, reason: string): void;
  /** The command may destroy what hookwise could not look at: asked when interactive, else refused. */
  irreversible(rule: string, reason: string): void;
  /** What is on disk (git status), looked up at most once per judgement. */
  readonly disk: DiskLook;
  readonly judge: JudgeApi;
  /** The folder the command runs in, when exactly one is known. */
  readonly cwd: string | undefined;
}

export type PackHandler = (inv: Invocation, p: PackApi) => void;

export const PACK_RULES = new Map<string, Array<{ pack: PackName; handler: PackHandler }>>();

export function packRule(pack: PackName, names: string[], handler: PackHandler): void {
  for (const name of names) {
    const list = PACK_RULES.get(name) ?? [];
    list.push({ pack, handler });
    PACK_RULES.set(name, list);
  }
}
