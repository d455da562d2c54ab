/** The audit database asked for does not exist. */
export class AuditDatabaseMissingError extends Error {
  constructor(readonly path: string) {
    super(`no audit database at ${path} (run an agent first, or pass --db PATH or set HOOKWISE_AUDIT_DB)`);
    this.name = 'AuditDatabaseMissingError';
  }
}

/** The file exists but is not a hookwise audit database. */
export class AuditDatabaseFormatError extends Error {
  constructor(
    readonly path: string,
    why: string,
  ) {
    super(`${path} is not a hookwise audit database: ${why}`);
    this.name = 'AuditDatabaseFormatError';
  }
}

/** A record given to `append` that cannot be stored. */
export class AuditRecordError extends TypeError {
  constructor(message: string) {
    super(`audit record: ${message}`);
    this.name = 'AuditRecordError';
  }
}
