import type pg from 'pg';
import {
  PostgresAuditStore,
  connectError,
  newPool,
  postgresTarget,
  type PostgresAuditStoreOptions,
  type PostgresTarget,
} from '../audit/postgres-store.js';
import { ChainedApprovalStore, signingKey, type ApprovalStoreOptions } from './chained-store.js';
import type { ApprovalRow } from '../audit/approval-record.js';
import { listQuery, type ApprovalChain, type ApprovalTable } from './table.js';
import type { ApprovalFilter } from './types.js';
import { ApprovalStoreOptionError } from './errors.js';

export interface PostgresApprovalStoreOptions
  extends ApprovalStoreOptions,
    Omit<PostgresAuditStoreOptions, 'batchSize' | 'flushIntervalMs'> {
  /**
   * The audit store already open on that URL and schema (serve's): approval records
   * go into its chains, and closing the approvals store leaves it open. Default:
   * the approvals store opens its own.
   */
  audit?: PostgresAuditStore;
}

/**
 * Approvals in the PostgreSQL audit store's schema: the `approvals` table
 * (migration 2 of src/audit/migrations.ts) and `approval` records appended durably
 * to the session's chain through a PostgresAuditStore. A conditional UPDATE takes
 * the row's lock, so of two replicas answering at once the second sees the first's
 * answer and changes nothing.
 */
export class PostgresApprovalStore extends ChainedApprovalStore {
  readonly schema: string;

  private constructor(target: PostgresTarget, table: ApprovalTable, chain: ApprovalChain, key: Buffer, options: ApprovalStoreOptions) {
    super(target.shown, table, chain, key, options);
    this.schema = target.schema;
  }

  /** Connects, migrates the schema (through the audit store), catches up the chain, and returns the store. */
  static async open(options: PostgresApprovalStoreOptions): Promise<PostgresApprovalStore> {
    const target = postgresTarget(options.url, options.schema);
    if (options.audit && options.audit.schema !== target.schema)
      throw new ApprovalStoreOptionError(
        `approvals store: schema ${target.schema} and the audit store's ${options.audit.schema} differ; approvals live beside the audit trail`,
      );
    const audit = options.audit ?? (await PostgresAuditStore.open({ ...options, poolSize: 1 }));
    let key: Buffer;
    try {
      key = signingKey(audit.auditKey, target.shown);
    } catch (error) {
      if (!options.audit) await audit.close();
      throw error;
    }
    const pool = newPool(target, options.poolSize ?? 2);
    const chain: ApprovalChain = {
      append: (record) => audit.appendDurable(record),
      close: async () => {
        if (!options.audit) await audit.close();
      },
    };
    const store = new PostgresApprovalStore(target, new PostgresApprovalTable(pool, target.shown), chain, key, options);
    try {
      await store.reconcile();
    } catch (error) {
      await store.close();
      throw connectError(error, target.shown);
    }
    return store;
  }
}

const COLUMNS =
  'id, key, tenant, session_id, event, tool, input, tool_use_id, hook, reason, created_at, expires_at, on_expiry, state, answered_by, answered_at, note, scope, chained, mac';

class PostgresApprovalTable implements ApprovalTable {
  constructor(
    private readonly pool: pg.Pool,
    private readonly shown: string,
  ) {}

  async insert(row: ApprovalRow): Promise<boolean> {
    const inserted = await this.query(
      `INSERT INTO approvals (${COLUMNS}) SELECT ${COLUMNS} FROM json_populate_record(NULL::approvals, $1::json) ON CONFLICT (key) DO NOTHING`,
      [JSON.stringify(row)],
    );
    return inserted.rowCount === 1;
  }

  async byId(id: string): Promise<ApprovalRow | undefined> {
    return (await this.query(`SELECT ${COLUMNS} FROM approvals WHERE id = $1`, [id])).rows[0];
  }

  async byKey(key: string): Promise<ApprovalRow | undefined> {
    return (await this.query(`SELECT ${COLUMNS} FROM approvals WHERE key = $1`, [key])).rows[0];
  }

  async list(filter: ApprovalFilter): Promise<ApprovalRow[]> {
    const { sql, params } = listQuery(COLUMNS, filter, (i) => `$${i}`);
    return (await this.query(sql, params)).rows;
  }

  async due(now: string): Promise<ApprovalRow[]> {
    return (await this.query(`SELECT ${COLUMNS} FROM approvals WHERE state = 'pending' AND expires_at <= $1 ORDER BY expires_at`, [now]))
      .rows;
  }

  async replace(row: ApprovalRow, expected: Pick<ApprovalRow, 'state' | 'mac'>, deadline: string | null): Promise<boolean> {
    const updated = await this.query(
      `UPDATE approvals AS a SET key = r.key, tenant = r.tenant, session_id = r.session_id, event = r.event, tool = r.tool, input = r.input,
         tool_use_id = r.tool_use_id, hook = r.hook, reason = r.reason, created_at = r.created_at, expires_at = r.expires_at,
         on_expiry = r.on_expiry, state = r.state, answered_by = r.answered_by, answered_at = r.answered_at, note = r.note, scope = r.scope, mac = r.mac
       FROM json_populate_record(NULL::approvals, $1::json) AS r
       WHERE a.id = r.id AND a.state = $2 AND a.mac IS NOT DISTINCT FROM $3::text AND ($4::text IS NULL OR a.expires_at > $4::text)`,
      [JSON.stringify(row), expected.state, expected.mac, deadline],
    );
    return updated.rowCount === 1;
  }

  async withdraw(id: string): Promise<void> {
    await this.query(`DELETE FROM approvals WHERE id = $1 AND state = 'pending' AND chained = 0`, [id]);
  }

  async setChained(id: string, level: number): Promise<void> {
    await this.query('UPDATE approvals SET chained = $2 WHERE id = $1 AND chained < $2', [id, level]);
  }

  async unchained(before: string): Promise<ApprovalRow[]> {
    return (
      await this.query(
        `SELECT ${COLUMNS} FROM approvals
         WHERE (chained < 1 AND created_at <= $1) OR (state <> 'pending' AND chained < 2 AND answered_at <= $1)
         ORDER BY seq`,
        [before],
      )
    ).rows;
  }

  async standing(tenant: string, sessionId: string, tool: string, input: string): Promise<ApprovalRow[]> {
    return (
      await this.query(
        `SELECT ${COLUMNS} FROM approvals
         WHERE tenant = $1 AND session_id = $2 AND tool = $3 AND input = $4 AND state = 'approved' AND scope = 'session'
         ORDER BY answered_at DESC LIMIT 20`,
        [tenant, sessionId, tool, input],
      )
    ).rows;
  }

  /** Uses the partial index of migration 3. */
  async chainRecords(id: string): Promise<unknown[]> {
    const found = await this.pool
      .query<{ data: string }>(`SELECT data FROM audit_log WHERE kind = 'approval' AND (data::jsonb ->> 'id') = $1 ORDER BY stream, seq`, [
        id,
      ])
      .catch((error: unknown) => {
        throw connectError(error, this.shown);
      });
    return found.rows.map((r) => JSON.parse(r.data) as unknown);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  private async query(sql: string, params: unknown[]): Promise<pg.QueryResult<ApprovalRow>> {
    try {
      return await this.pool.query<ApprovalRow>(sql, params);
    } catch (error) {
      throw connectError(error, this.shown);
    }
  }
}
