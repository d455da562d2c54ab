import { isPostgresUrl } from './postgres-url.js';
import type { PostgresAuditStore, PostgresAuditStoreOptions } from './postgres-store.js';
import { AuditStore, type AuditStoreOptions } from './store.js';
import { missingPackage } from '../core/missing-package.js';

/** Either store: both append, appendDurable, recordToolExecution, flush and close the same way. */
export type AnyAuditStore = AuditStore | PostgresAuditStore;

/** Options for `openAuditStore(target, options)`: each store reads the ones it knows. */
export type OpenAuditStoreOptions = Omit<AuditStoreOptions, 'path'> & Omit<PostgresAuditStoreOptions, 'url'>;

/**
 * Opens the audit store.
 * - `openAuditStore(options?)`: the SQLite store, synchronously (`options.path`,
 *   default `$HOOKWISE_AUDIT_DB`, else `.hookwise/audit.db`).
 * - `openAuditStore(target, options?)`: resolves to the PostgreSQL store for a
 *   `postgres://` URL (connected, schema migrated), else the SQLite store at that path.
 */
export function openAuditStore(options?: AuditStoreOptions): AuditStore;
export function openAuditStore(target: string, options?: OpenAuditStoreOptions): Promise<AnyAuditStore>;
export function openAuditStore(
  first?: AuditStoreOptions | string,
  options: OpenAuditStoreOptions = {},
): AuditStore | Promise<AnyAuditStore> {
  if (typeof first !== 'string') return new AuditStore(first);
  if (!isPostgresUrl(first)) {
    const target = first;
    return new Promise((resolve) => resolve(new AuditStore({ ...options, path: target })));
  }
  return import('./postgres-store.js').then(
    ({ PostgresAuditStore }) => PostgresAuditStore.open({ ...options, url: first }),
    (error: unknown) => {
      throw missingPackage(error, 'pg', 'A PostgreSQL audit trail (a postgres:// URL)');
    },
  );
}
