import { isPostgresUrl } from '../audit/postgres-url.js';
import type { AnyAuditStore } from '../audit/open.js';
import type { PostgresAuditStore } from '../audit/postgres-store.js';
import { AuditStore } from '../audit/store.js';
import type { PostgresApprovalStoreOptions } from './postgres-store.js';
import { SqliteApprovalStore, type SqliteApprovalStoreOptions } from './sqlite-store.js';
import type { ApprovalStore } from './types.js';
import { missingPackage } from '../core/missing-package.js';
import { ApprovalStoreOptionError } from './errors.js';

/** Options for `openApprovals(target, options)`: each store reads the ones it knows. */
export type OpenApprovalsOptions = Omit<SqliteApprovalStoreOptions, 'path' | 'audit'> &
  Omit<PostgresApprovalStoreOptions, 'url' | 'audit'> & {
    /** The audit store already open on the same target; approval records go into its chain, and it stays open on close. */
    audit?: AnyAuditStore;
  };

/** Either store, with what both add to ApprovalStore. */
export type AnyApprovalStore = ApprovalStore & {
  readonly path: string;
  readonly closed: boolean;
  reconcile(): Promise<number>;
};

/**
 * Opens the approvals store beside the audit trail: the PostgreSQL store for a
 * `postgres://` URL (its code loaded only then), else the SQLite store at that path
 * (default `$HOOKWISE_AUDIT_DB`, else `.hookwise/audit.db`).
 */
export async function openApprovals(target?: string, options: OpenApprovalsOptions = {}): Promise<AnyApprovalStore> {
  const { audit, ...rest } = options;
  if (target === undefined || !isPostgresUrl(target)) {
    if (audit !== undefined && !(audit instanceof AuditStore))
      throw new ApprovalStoreOptionError('openApprovals: options.audit is a PostgreSQL audit store, but the target is an SQLite database');
    return SqliteApprovalStore.open({ ...rest, path: target, audit });
  }
  if (audit !== undefined && audit instanceof AuditStore)
    throw new ApprovalStoreOptionError('openApprovals: options.audit is an SQLite audit store, but the target is a PostgreSQL URL');
  const { PostgresApprovalStore } = await import('./postgres-store.js').catch((error: unknown) => {
    throw missingPackage(error, 'pg', 'PostgreSQL approvals (a postgres:// URL)');
  });
  return PostgresApprovalStore.open({ ...rest, url: target, audit: audit as PostgresAuditStore | undefined });
}
