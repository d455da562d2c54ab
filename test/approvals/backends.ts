import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { pgSchema } from '../audit/pg-schema.js';

/** Where a test's approvals live, and raw SQL on it (as a crashed writer, or an operator, would leave it). */
export interface Backend {
  name: 'sqlite' | 'postgres';
  /** A fresh, empty target: a file in a temp folder, or a URL with a schema of its own. */
  fresh(): string;
  /** Runs SQL (`?` placeholders) against the target; returns the rows a SELECT reads. */
  sql(target: string, sql: string, params?: unknown[]): Promise<Array<Record<string, unknown>>>;
  /** Removes every target this backend made. */
  cleanup(): Promise<void>;
}

export function sqliteBackend(): Backend {
  const dirs: string[] = [];
  return {
    name: 'sqlite',
    fresh() {
      const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-approvals-test-'));
      dirs.push(dir);
      return path.join(dir, 'audit.db');
    },
    async sql(file, sql, params = []) {
      const db = new Database(file);
      try {
        const statement = db.prepare(sql);
        if (statement.reader) return statement.all(...params) as Array<Record<string, unknown>>;
        statement.run(...params);
        return [];
      } finally {
        db.close();
      }
    },
    async cleanup() {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function postgresBackend(base: string): Backend {
  const schemas: Array<ReturnType<typeof pgSchema>> = [];
  return {
    name: 'postgres',
    fresh() {
      const s = pgSchema(base, 'approvals');
      schemas.push(s);
      return s.url;
    },
    async sql(url, sql, params = []) {
      const schema = new URL(url).searchParams.get('schema')!;
      const client = new pg.Client({ connectionString: base, options: `-c search_path=${schema}` });
      await client.connect();
      try {
        let n = 0;
        return (
          await client.query(
            sql.replace(/\?/g, () => `$${++n}`),
            params,
          )
        ).rows;
      } finally {
        await client.end();
      }
    },
    async cleanup() {
      for (const s of schemas.splice(0)) await s.drop();
    },
  };
}
