import path from 'node:path';

/** The environment variable that moves hookwise's per-user state folder. */
export const STATE_DIR_ENV = 'HOOKWISE_STATE_DIR';

/**
 * hookwise's per-user state folder, outside every workspace: `$HOOKWISE_STATE_DIR`,
 * else `$XDG_STATE_HOME/hookwise`, else `<home>/.local/state/hookwise`. The audit
 * stores keep their copies of heads there, projects set up with `hookwise init
 * --state user` their audit trail, approvals and key; the path guard protects it.
 * Pure: the caller hands in the environment and the home folder.
 */
export function stateDirOf(env: NodeJS.ProcessEnv, home: string): string {
  if (env[STATE_DIR_ENV]) return path.resolve(env[STATE_DIR_ENV]);
  if (env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME)) return path.join(env.XDG_STATE_HOME, 'hookwise');
  return path.join(home, '.local', 'state', 'hookwise');
}
