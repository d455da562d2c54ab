import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A fresh schema name per test file, so parallel files never share tables; `drop` removes it. */
export function pgSchema(base: string, label: string): { url: string; schema: string; drop: () => Promise<void> } {
  const schema = `hw_${label}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const url = new URL(base);
  url.searchParams.set('schema', schema);
  return {
    url: url.href,
    schema,
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Runs SQL in the schema as an attacker with database access would (after disabling the append-only triggers). */
export async function pgTamper(base: string, schema: string, sql: string, params: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: base, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    await client.query('ALTER TABLE audit_log DISABLE TRIGGER USER');
    await client.query(sql, params);
    await client.query('ALTER TABLE audit_log ENABLE TRIGGER USER');
  } finally {
    await client.end();
  }
}
