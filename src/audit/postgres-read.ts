import type pg from 'pg';
import { readAnchor, resolveAuditKey, type Head } from './anchor.js';
import { GENESIS_HASH } from './chain.js';
import { AuditConnectionError } from './errors.js';
import { POSTGRES_DEFAULT_KEY_FILE, connectError, newPool, postgresTarget, type PostgresTarget } from './postgres-store.js';
import { buildFilters, toAuditRow, type AuditFilters, type AuditRow } from './query.js';
import type { ApprovalRow } from './approval-record.js';
import type { StoredRow } from './schema.js';
import { checkApprovals, parsedRecord } from './verify-approvals.js';
import { userStateDir } from './head-copy.js';
import { postgresCopyPath, postgresCopyProblem, readTrail, trailSigned } from './postgres-trail.js';
import { classifyKeyMismatch } from './key-mismatch.js';
import { checkChain, checkHead, checkSignature, type AuditProblem, type AuditVerifyOptions, type AuditVerifyResult } from './verify.js';

/** Runs `read` on one connection inside a read-only, repeatable-read transaction: one consistent snapshot. */
async function withSnapshot<T>(
  url: string,
  read: (client: pg.PoolClient, shown: string, target: PostgresTarget) => Promise<T>,
): Promise<T> {
  const target = postgresTarget(url);
  const pool = newPool(target, 1);
  try {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw connectError(error, target.shown);
    }
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const exists = await client.query(`SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'audit_log'`, [
        target.schema,
      ]);
      if (exists.rowCount === 0)
        throw new AuditConnectionError(`${target.shown} is not a hookwise audit store: schema ${target.schema} has no audit_log table`);
      return await read(client, target.shown, target);
    } finally {
      await client.query('ROLLBACK').catch(() => {});
      client.release();
    }
  } finally {
    await pool.end();
  }
}

interface PgRow extends Omit<StoredRow, 'seq'> {
  seq: string;
}

function stored(row: PgRow): StoredRow {
  return { ...row, seq: Number(row.seq) };
}

/**
 * Verifies every stream's chain, head and head signature, and the trail against
 * hookwise's own copy of it (./postgres-trail.ts), when this user has one.
 */
export function verifyPostgres(url: string, options: AuditVerifyOptions = {}): Promise<AuditVerifyResult> {
  const key = resolveAuditKey(options, POSTGRES_DEFAULT_KEY_FILE, false);
  return withSnapshot(url, async (client, shown, target) => {
    const heads = new Map<string, Head>();
    for (const h of (
      await client.query<{ stream: string; seq: string; hash: string; mac: string | null }>('SELECT stream, seq, hash, mac FROM audit_head')
    ).rows) {
      heads.set(h.stream, { stream: h.stream, seq: Number(h.seq), hash: h.hash, mac: h.mac });
    }
    const withRows = (await client.query<{ stream: string }>('SELECT DISTINCT stream FROM audit_log')).rows.map((r) => r.stream);
    const streams = [...new Set([...heads.keys(), ...withRows])].sort();
    const problems: AuditProblem[] = [];
    let rows = 0;
    let headHash = GENESIS_HASH;
    for (const stream of streams) {
      const chainRows = (await client.query<PgRow>('SELECT * FROM audit_log WHERE stream = $1 ORDER BY seq', [stream])).rows.map(stored);
      const bySeq = new Map(chainRows.map((r) => [r.hash, r.seq]));
      const chain = checkChain(chainRows, (hash) => (hash === GENESIS_HASH ? 0 : bySeq.get(hash)));
      const found = chain.problems;
      checkHead(heads.get(stream), chain.last, found);
      checkSignature(heads.get(stream), key, found, stream);
      for (const p of found) problems.push({ ...p, stream });
      rows += chain.rows;
      headHash = chain.last?.hash ?? headHash;
    }
    const headCopy = options.anchor === false ? 'off' : await checkTrail(client, target, heads, key?.key, options.stateDir, problems);
    const approvals = await client.query(
      `SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'approvals'`,
    );
    // Approvals are signed with the same key: with another key, every row would read as changed.
    const mismatch = classifyKeyMismatch([...heads.values()], key, problems, options, POSTGRES_DEFAULT_KEY_FILE);
    if (key && !mismatch && (approvals.rowCount ?? 0) > 0) {
      const records = await client.query<{ data: string }>(`SELECT data FROM audit_log WHERE kind = 'approval' ORDER BY stream, seq`);
      const table = await client.query<ApprovalRow>('SELECT * FROM approvals ORDER BY seq');
      checkApprovals(
        table.rows,
        records.rows.map((r) => parsedRecord(r.data)),
        key.key,
        problems,
      );
    }
    return {
      ok: problems.length === 0,
      path: shown,
      rows,
      headHash,
      signed: key !== undefined,
      anchored: false,
      streams: streams.length,
      headCopy,
      problems,
    };
  });
}

/** The trail id's signature, and the sum of the heads against hookwise's own copy: it may lag, never lead. */
async function checkTrail(
  client: pg.PoolClient,
  target: PostgresTarget,
  heads: Map<string, Head>,
  key: Buffer | undefined,
  stateDir: string | undefined,
  problems: AuditProblem[],
): Promise<'checked' | 'missing'> {
  const trail = await readTrail(client);
  // An unsigned id (made by a store without a key) is signed by the next store with one.
  if (trail && key && trail.mac !== null && !trailSigned(key, trail))
    problems.push({
      seq: 0,
      kind: 'forged-head',
      message: `the trail id ${trail.id} (audit_trail) is not signed with the audit key: it was rewritten outside the audit store, or written with another key`,
    });
  const file = postgresCopyPath(stateDir ?? userStateDir(), target.connectionString, target.schema);
  const copy = readAnchor(file);
  // Another machine or user has no copy here (or cannot read this one): the chains still apply.
  if (copy === undefined || 'error' in copy) return 'missing';
  const total = [...heads.values()].reduce((sum, h) => sum + h.seq, 0);
  const problem = postgresCopyProblem(copy, file, trail?.id, total);
  if (problem) problems.push({ seq: Math.min(total, copy.seq) + 1, kind: 'rolled-back', message: problem });
  return 'checked';
}

/** The matching rows, ordered by time, then stream and seq. */
export function queryPostgres(url: string, filters: AuditFilters = {}): Promise<AuditRow[]> {
  return withSnapshot(url, async (client) => {
    const { where, params, limit } = buildFilters(filters, 'postgres');
    const whereSql = where.length ? ` WHERE ${where.join(' AND ')}` : '';
    let sql = `SELECT * FROM audit_log${whereSql} ORDER BY ts::timestamptz, stream, seq`;
    if (limit !== undefined) {
      params.push(limit);
      sql = `SELECT * FROM (SELECT * FROM audit_log${whereSql} ORDER BY ts::timestamptz DESC, stream DESC, seq DESC LIMIT $${params.length}) AS recent ORDER BY ts::timestamptz, stream, seq`;
    }
    return (await client.query<PgRow>(sql, params)).rows.map((r) => toAuditRow(stored(r)));
  });
}
