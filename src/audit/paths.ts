import path from 'node:path';

/** The environment variable that moves the audit database. */
export const AUDIT_DB_ENV = 'HOOKWISE_AUDIT_DB';

/**
 * Where the audit database is unless told otherwise: `$HOOKWISE_AUDIT_DB`
 * (relative to `cwd`), else `.hookwise/audit.db` under `cwd`. The store, the
 * runtime and every `hookwise audit` command use this one function.
 */
export function defaultAuditPath(cwd: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env[AUDIT_DB_ENV];
  if (fromEnv) return path.resolve(cwd, fromEnv);
  return path.join(path.resolve(cwd), '.hookwise', 'audit.db');
}
