import { UserError } from './errors.js';

/** The `--audit <file|url>` flag and its older name `--db`. */
export interface AuditTargetFlags {
  audit?: string;
  db?: string;
}

/**
 * The store a command reads: `--audit` or `--db`, else the default every writer
 * uses (`$HOOKWISE_AUDIT_DB`, else `.hookwise/audit.db` here). A path is resolved; a
 * `postgres://` URL is kept as it is.
 */
export async function auditTargetOf(flags: AuditTargetFlags): Promise<string> {
  const path = await import('node:path');
  if (flags.audit !== undefined && flags.db !== undefined && flags.audit !== flags.db)
    throw new UserError('--audit and --db name the same thing: give one of them');
  const given = flags.audit ?? flags.db;
  const { isPostgresUrl } = await import('../audit/postgres-url.js');
  if (given !== undefined) return isPostgresUrl(given) ? given : path.resolve(given);
  const { defaultAuditPath } = await import('../audit/paths.js');
  return defaultAuditPath(process.cwd());
}
