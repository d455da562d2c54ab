import { HookwiseError } from '../core/errors.js';
/** The audit database asked for does not exist. */
export class AuditDatabaseMissingError extends HookwiseError {
  override readonly code = 'AUDIT_DATABASE_MISSING';
  constructor(readonly path: string) {
    super(`no audit database at ${path} (run an agent first, or pass --db PATH or set HOOKWISE_AUDIT_DB)`);
  }
}

/** The file exists but is not a hookwise audit database. */
export class AuditDatabaseFormatError extends HookwiseError {
  override readonly code = 'AUDIT_DATABASE_FORMAT';
  constructor(
    readonly path: string,
    why: string,
  ) {
    super(`${path} is not a hookwise audit database: ${why}`);
  }
}

/** A record given to `append` that cannot be stored. */
export class AuditRecordError extends HookwiseError {
  override readonly code = 'AUDIT_RECORD';
  constructor(message: string) {
    super(`audit record: ${message}`);
  }
}

/** Another process holds a lock on the database longer than we wait. */
export class AuditDatabaseLockedError extends HookwiseError {
  override readonly code = 'AUDIT_DATABASE_LOCKED';
  constructor(
    readonly path: string,
    waitedMs: number,
  ) {
    super(`audit database ${path} is locked by another process (waited ${waitedMs} ms); try again when that process has finished writing`);
  }
}

/** The database, its folder or its mount cannot be written, and the caller needs to write. */
export class AuditDatabaseReadOnlyError extends HookwiseError {
  override readonly code = 'AUDIT_DATABASE_READ_ONLY';
  constructor(
    readonly path: string,
    why: string,
  ) {
    super(
      `audit database ${path} is read-only (${why}): the audit store cannot write to it; check the file's and folder's permissions and the mount`,
    );
  }
}

/**
 * The database ends before its anchor: acknowledged rows are gone (cut off, or a
 * write-ahead log lost after a crash). The store refuses to write on top of it,
 * since new rows would reuse the lost seqs and hide the loss.
 */
export class AuditRollbackError extends HookwiseError {
  override readonly code = 'AUDIT_ROLLBACK';
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super(
      /^postgres(ql)?:/i.test(path)
        ? `audit store ${path} was rolled back: ${detail}. Run \`hookwise audit verify --audit ${path}\`; after checking it, a person runs \`hookwise audit reanchor --audit ${path} --reason "..."\``
        : `audit database ${path} was rolled back: ${detail}. Run \`hookwise audit verify --db ${path}\`; to start a new trail, move the database and its .head file away`,
    );
  }
}

/** An SQLite error code as better-sqlite3 reports it. */
export function sqliteCode(error: unknown): string {
  return typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : '';
}

/**
 * What a store does after a commit failed (settling anchors, hookwise's own copy of the
 * trail's heads). The rows are committed; the store reports this to `onError` and goes on.
 */
export class AuditAfterCommitError extends HookwiseError {
  override readonly code = 'AUDIT_AFTER_COMMIT';
}

/** A PostgreSQL audit store that cannot be reached or is not a hookwise one. */
export class AuditConnectionError extends HookwiseError {
  override readonly code = 'AUDIT_CONNECTION';
}

/** An approval request, answer, filter or wait whose fields cannot be used: the message names the field (`request.tool`, `answer.decision`, `filter.limit`) and what it takes. */
export class ApprovalInputError extends HookwiseError {
  override readonly code = 'APPROVAL_INPUT';
}

/** An audit query's filter that cannot be used (a limit below 0, a time that is not ISO 8601): the message names the field. */
export class AuditQueryError extends HookwiseError {
  override readonly code = 'AUDIT_QUERY';
}

/** A record given to an audit store after `close()`: open the store again. */
export class AuditStoreClosedError extends HookwiseError {
  override readonly code = 'AUDIT_STORE_CLOSED';
}

/** An audit store option that cannot be used (a batch size or wait out of range, a schema that is not a plain identifier): the message names the option. */
export class AuditStoreOptionError extends HookwiseError {
  override readonly code = 'AUDIT_STORE_OPTION';
}
