import { createHash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { userStateDir } from './head-copy.js';

/** The environment variable that moves the audit database. */
export const AUDIT_DB_ENV = 'HOOKWISE_AUDIT_DB';

/** The file in a project's folder of the user's state folder that says the project keeps its state there. */
export const PROJECT_STATE_FILE = 'project.json';

/**
 * Where the audit database is unless told otherwise: `$HOOKWISE_AUDIT_DB`
 * (relative to `cwd`); else, for a project set up with `hookwise init --state
 * user`, `audit.db` in its folder of the user's state folder (projectStateDir);
 * else `.hookwise/audit.db` under `cwd`. The store, the runtime, the hosts and
 * every `hookwise audit` and `approvals` command use this one function; the key
 * (`audit.key`) and the approvals go beside the database.
 */
export function defaultAuditPath(cwd: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env[AUDIT_DB_ENV];
  if (fromEnv) return path.resolve(cwd, fromEnv);
  if (usesUserState(cwd, env)) return path.join(projectStateDir(cwd, env), 'audit.db');
  return path.join(path.resolve(cwd), '.hookwise', 'audit.db');
}

/**
 * A project's folder in the user's state folder, outside the workspace and out of
 * the agent's reach: `<state>/projects/<folder name>-<hash of its real path>`.
 */
export function projectStateDir(workspace: string, env: NodeJS.ProcessEnv = process.env): string {
  let real = path.resolve(workspace);
  try {
    real = realpathSync(real);
  } catch {
    // A folder not made yet is named by its path.
  }
  const name =
    path
      .basename(real)
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .slice(0, 40) || 'root';
  return path.join(userStateDir(env), 'projects', `${name}-${createHash('sha256').update(real).digest('hex').slice(0, 16)}`);
}

/** Whether the project keeps its audit trail, approvals and key in the user's state folder (`hookwise init --state user`). */
export function usesUserState(workspace: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return existsSync(path.join(projectStateDir(workspace, env), PROJECT_STATE_FILE));
}
