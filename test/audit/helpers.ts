import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { AuditRecord } from '../../src/audit/index.js';

/** A temp folder per test, removed by the returned cleanup. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-audit-test-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Records that differ in every filterable field, in a known pattern. */
export function sampleRecord(i: number, overrides: Partial<AuditRecord> = {}): AuditRecord {
  return {
    kind: i % 3 === 2 ? 'tool' : 'outcome',
    ts: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    sessionId: `session-${i % 2}`,
    event: i % 3 === 2 ? 'PreToolUse' : i % 3 === 0 ? 'PreToolUse' : 'Stop',
    decision: i % 3 === 0 ? (i % 2 === 0 ? 'deny' : 'allow') : null,
    tool: i % 3 === 1 ? undefined : i % 2 === 0 ? 'Bash' : 'Read',
    data: { i, reason: `record ${i}`, nested: { z: 1, a: [i, 'x'] } },
    ...overrides,
  };
}

/**
 * Tampers with the database as an attacker with file access would: drops the
 * append-only triggers, runs the SQL, closes.
 */
export function tamper(file: string, sql: string, ...params: unknown[]): void {
  const db = new Database(file);
  try {
    db.exec('DROP TRIGGER IF EXISTS audit_log_no_update; DROP TRIGGER IF EXISTS audit_log_no_delete;');
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}
