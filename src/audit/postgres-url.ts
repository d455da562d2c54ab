/** A `postgres://` or `postgresql://` URL names a PostgreSQL store; anything else is an SQLite path. */
export function isPostgresUrl(target: string): boolean {
  return /^postgres(ql)?:\/\//i.test(target);
}
