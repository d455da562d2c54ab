import { canonicalJson } from './canonical-json.js';
import type { ChainedFields } from './chain.js';
import { AuditRecordError, AuditStoreOptionError } from './errors.js';
import type { AuditRecord } from './types.js';

/** A record checked and frozen for writing: its data already canonical JSON; seq is set as it is written. */
export interface PendingRecord extends ChainedFields {
  stream: string;
}

const KIND = /^[a-z][a-z0-9_.-]{0,31}$/;

/** Records made in the same millisecond share a ts: parse each distinct one once. */
let lastValidTs = '';

/** Validates a record and serialises its data now, so later changes to the object are not recorded. */
export function freezeRecord(record: AuditRecord): PendingRecord {
  if (record === null || typeof record !== 'object') throw new AuditRecordError(`expected an object, got ${typeof record}`);
  if (record.kind !== 'outcome' && record.kind !== 'tool' && !(typeof record.kind === 'string' && KIND.test(record.kind))) {
    throw new AuditRecordError(
      `kind must be 'outcome', 'tool' or another lower-case name (letters, digits, - _ .; up to 32), got ${JSON.stringify(record.kind)}`,
    );
  }
  if (typeof record.ts !== 'string' || (record.ts !== lastValidTs && Number.isNaN(Date.parse(record.ts)))) {
    throw new AuditRecordError(`ts must be an ISO 8601 time string, got ${JSON.stringify(record.ts)}`);
  }
  lastValidTs = record.ts;
  if (typeof record.sessionId !== 'string') throw new AuditRecordError(`sessionId must be a string, got ${typeof record.sessionId}`);
  if (record.data === null || typeof record.data !== 'object' || Array.isArray(record.data)) {
    throw new AuditRecordError('data must be a plain object');
  }
  const stream = optionalString(record.stream, 'stream') ?? record.sessionId;
  return {
    stream,
    seq: 0,
    ts: record.ts,
    sessionId: record.sessionId,
    kind: record.kind,
    event: optionalString(record.event, 'event'),
    decision: optionalString(record.decision, 'decision'),
    tool: optionalString(record.tool, 'tool'),
    data: canonicalJson(record.data),
  };
}

function optionalString(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new AuditRecordError(`${field} must be a string when given, got ${typeof value}`);
  return value;
}

export function positiveInteger(value: number, field: string): number {
  // setTimeout cannot wait longer than 2^31 - 1 ms.
  if (!Number.isInteger(value) || value < 1 || value > 2 ** 31 - 1) {
    throw new AuditStoreOptionError(`audit store: ${field} must be a whole number from 1 to 2147483647, got ${value}`);
  }
  return value;
}
