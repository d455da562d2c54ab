import pg from 'pg';

/** The PostgreSQL every machine of the project runs; `HOOKWISE_TEST_PG` overrides it. */
export const DEFAULT_TEST_PG = 'postgres://postgres@127.0.0.1:5432/test';

/**
 * The PostgreSQL URL to test against, or undefined when it cannot be reached:
 * then one line says what to start, and the caller skips its PostgreSQL tests.
 * Under CI (`CI=true`) an unreachable server throws instead, so CI always tests it.
 */
export async function requirePostgres(): Promise<string | undefined> {
  const url = process.env.HOOKWISE_TEST_PG || DEFAULT_TEST_PG;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return url;
  } catch (error) {
    const why = `cannot reach ${url} (${(error as Error).message}). Start PostgreSQL (trust auth, database "test") on 127.0.0.1:5432, or set HOOKWISE_TEST_PG=postgres://...`;
    if (process.env.CI === 'true') throw new Error(`PostgreSQL is required under CI=true: ${why}`);
    console.warn(`PostgreSQL tests skipped: ${why}`);
    return undefined;
  } finally {
    await client.end().catch(() => {});
  }
}
