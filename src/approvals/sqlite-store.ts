import path from 'node:path';
import Database from 'better-sqlite3';
import { sqliteCode } from '../audit/errors.js';
import { defaultAuditPath } from '../audit/paths.js';
import { AuditStore, type AuditStoreOptions } from '../audit/store.js';
import { ChainedApprovalStore, signingKey, type ApprovalStoreOptions } from './chained-store.js';
import type { ApprovalRow } from '../audit/approval-record.js';
import { listQuery, type ApprovalChain, type ApprovalTable } from './table.js';
import type { ApprovalFilter } from './types.js';
import { ApprovalStoreOptionError, ApprovalsBusyError } from './errors.js';

export interface SqliteApprovalStoreOptions
  extends ApprovalStoreOptions,
    Omit<AuditStoreOptions, 'path' | 'batchSize' | 'flushIntervalMs'> {
  /** The audit database. Default: `defaultAuditPath()` (`$HOOKWISE_AUDIT_DB`, else `.hookwise/audit.db`). */
  path?: string;
  /**
   * The audit store already open on that database (the runtime's): approval records
   * go into its chain, in order with its own records, and closing the approvals
   * store leaves it open. Default: the approvals store opens its own.
   */
  audit?: AuditStore;
}

/**
 * Approvals in the SQLite audit database, beside the chain: the `approvals`
 * table (migration 3 of src/audit/migrations.ts) on a connection of its own, and
 * the `approval` records appended durably through an AuditStore on the same file.
 * SQLite's write lock makes each conditional UPDATE atomic across processes.
 */
export class SqliteApprovalStore extends ChainedApprovalStore {
  static async open(options: SqliteApprovalStoreOptions = {}): Promise<SqliteApprovalStore> {
    const file = path.resolve(options.audit?.path ?? options.path ?? defaultAuditPath());
    if (options.audit && options.path !== undefined && path.resolve(options.path) !== file)
      throw new ApprovalStoreOptionError(
        `approvals store: path ${options.path} and the audit store's ${file} differ; approvals live in the audit database`,
      );
    // Opened first: it creates and migrates the database, the approvals table included.
    const audit = options.audit ?? new AuditStore({ ...options, path: file });
    let db: Database.Database;
    try {
      db = new Database(file, { timeout: Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000)) });
    } catch (error) {
      if (!options.audit) await audit.close();
      throw error;
    }
    const chain: ApprovalChain = {
      append: async (record) => audit.appendDurable(record),
      close: async () => {
        if (!options.audit) await audit.close();
      },
    };
    const store = new SqliteApprovalStore(file, new SqliteApprovalTable(db, file), chain, signingKey(audit.auditKey, file), options);
    try {
      await store.reconcile();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }
}

const COLUMNS =
  'id, key, tenant, session_id, event, tool, input, tool_use_id, hook, reason, created_at, expires_at, on_expiry, state, answered_by, answered_at, note, scope, chained, mac';

/** A record's data; a row that is not JSON (written outside hookwise) is nothing signed. */
function parsedData(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

class SqliteApprovalTable implements ApprovalTable {
  private readonly insertRow: Database.Statement;
  private readonly selectById: Database.Statement;
  private readonly selectByKey: Database.Statement;
  private readonly selectDue: Database.Statement;
  private readonly replaceRow: Database.Statement;
  private readonly deleteWithdrawn: Database.Statement;
  private readonly updateChained: Database.Statement;
  private readonly selectUnchained: Database.Statement;
  private readonly selectStanding: Database.Statement;
  private readonly selectChainRecords: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly file: string,
  ) {
    this.insertRow = db.prepare(
      `INSERT INTO approvals (${COLUMNS}) VALUES (@id, @key, @tenant, @session_id, @event, @tool, @input, @tool_use_id, @hook, @reason, @created_at, @expires_at, @on_expiry, @state, @answered_by, @answered_at, @note, @scope, @chained, @mac) ON CONFLICT (key) DO NOTHING`,
    );
    this.selectById = db.prepare(`SELECT ${COLUMNS} FROM approvals WHERE id = ?`);
    this.selectByKey = db.prepare(`SELECT ${COLUMNS} FROM approvals WHERE key = ?`);
    this.selectDue = db.prepare(`SELECT ${COLUMNS} FROM approvals WHERE state = 'pending' AND expires_at <= ? ORDER BY expires_at`);
    this.replaceRow = db.prepare(
      `UPDATE approvals SET key = @key, tenant = @tenant, session_id = @session_id, event = @event, tool = @tool, input = @input,
         tool_use_id = @tool_use_id, hook = @hook, reason = @reason, created_at = @created_at, expires_at = @expires_at,
         on_expiry = @on_expiry, state = @state, answered_by = @answered_by, answered_at = @answered_at, note = @note, scope = @scope, mac = @mac
       WHERE id = @id AND state = @expected_state AND mac IS @expected_mac AND (@deadline IS NULL OR expires_at > @deadline)`,
    );
    this.deleteWithdrawn = db.prepare(`DELETE FROM approvals WHERE id = ? AND state = 'pending' AND chained = 0`);
    this.updateChained = db.prepare('UPDATE approvals SET chained = ? WHERE id = ? AND chained < ?');
    this.selectUnchained = db.prepare(
      `SELECT ${COLUMNS} FROM approvals
       WHERE (chained < 1 AND created_at <= @before) OR (state <> 'pending' AND chained < 2 AND answered_at <= @before)
       ORDER BY seq`,
    );
    this.selectStanding = db.prepare(
      `SELECT ${COLUMNS} FROM approvals
       WHERE tenant = ? AND session_id = ? AND tool = ? AND input = ? AND state = 'approved' AND scope = 'session'
       ORDER BY answered_at DESC LIMIT 20`,
    );
    // Uses the partial index of migration 4.
    this.selectChainRecords = db.prepare(
      `SELECT data FROM audit_log WHERE kind = 'approval' AND json_extract(data, '$.id') = ? ORDER BY seq`,
    );
  }

  async insert(row: ApprovalRow): Promise<boolean> {
    return this.run(() => this.insertRow.run(row).changes === 1);
  }

  async byId(id: string): Promise<ApprovalRow | undefined> {
    return this.run(() => this.selectById.get(id) as ApprovalRow | undefined);
  }

  async byKey(key: string): Promise<ApprovalRow | undefined> {
    return this.run(() => this.selectByKey.get(key) as ApprovalRow | undefined);
  }

  async list(filter: ApprovalFilter): Promise<ApprovalRow[]> {
    const { sql, params } = listQuery(COLUMNS, filter, () => '?');
    return this.run(() => this.db.prepare(sql).all(...params) as ApprovalRow[]);
  }

  async due(now: string): Promise<ApprovalRow[]> {
    return this.run(() => this.selectDue.all(now) as ApprovalRow[]);
  }

  async replace(row: ApprovalRow, expected: Pick<ApprovalRow, 'state' | 'mac'>, deadline: string | null): Promise<boolean> {
    const { chained: _chained, ...values } = row;
    return this.run(
      () => this.replaceRow.run({ ...values, expected_state: expected.state, expected_mac: expected.mac, deadline }).changes === 1,
    );
  }

  async withdraw(id: string): Promise<void> {
    this.run(() => this.deleteWithdrawn.run(id));
  }

  async setChained(id: string, level: number): Promise<void> {
    this.run(() => this.updateChained.run(level, id, level));
  }

  async unchained(before: string): Promise<ApprovalRow[]> {
    return this.run(() => this.selectUnchained.all({ before }) as ApprovalRow[]);
  }

  async standing(tenant: string, sessionId: string, tool: string, input: string): Promise<ApprovalRow[]> {
    return this.run(() => this.selectStanding.all(tenant, sessionId, tool, input) as ApprovalRow[]);
  }

  async chainRecords(id: string): Promise<unknown[]> {
    return this.run(() => (this.selectChainRecords.pluck().all(id) as string[]).map(parsedData));
  }

  async close(): Promise<void> {
    this.db.close();
  }

  /** SQLite's busy error said as the problem to fix. */
  private run<T>(statement: () => T): T {
    try {
      return statement();
    } catch (error) {
      const code = sqliteCode(error);
      if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED')
        throw new ApprovalsBusyError(
          `approvals: the audit database ${this.file} is locked by another process; try again when it has finished writing`,
          {
            cause: error,
          },
        );
      throw error;
    }
  }
}
