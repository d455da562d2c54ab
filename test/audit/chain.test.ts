import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/audit/canonical-json.js';
import { GENESIS_HASH, rowCanonicalForm, rowHash, type ChainedFields } from '../../src/audit/chain.js';
import { openAuditStore, verifyAudit } from '../../src/audit/index.js';
import { sampleRecord, tamper, tempDir } from './helpers.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe('the canonical form of a row', () => {
  it('is the canonical JSON of its columns, whatever the strings hold (quotes, controls, surrogates)', () => {
    const text = fc.string({ unit: 'binary' });
    const column = fc.option(text, { nil: null });
    fc.assert(
      fc.property(
        fc.nat(),
        text,
        text,
        text,
        column,
        column,
        column,
        fc.jsonValue(),
        (seq, ts, sessionId, kind, event, decision, tool, data) => {
          const row: ChainedFields = { seq, ts, sessionId, kind, event, decision, tool, data: canonicalJson(data) };
          // Twice: the second time the repeated columns come from the quoting cache.
          for (let round = 0; round < 2; round++) {
            expect(rowCanonicalForm(row)).toBe(canonicalJson({ data, decision, event, kind, seq, session_id: sessionId, tool, ts }));
          }
        },
      ),
    );
  });

  it('tells a text column from the same bytes stored as another type (only a tampered row holds one)', () => {
    const row: ChainedFields = {
      seq: 1,
      ts: '2026-01-01T00:00:00.000Z',
      sessionId: '42',
      kind: 'tool',
      event: null,
      decision: null,
      tool: 'Bash',
      data: '{}',
    };
    const asNumber = { ...row, sessionId: 42 as unknown as string };
    const asBlob = { ...row, kind: Buffer.from('tool') as unknown as string };
    expect(rowHash(GENESIS_HASH, asNumber)).not.toBe(rowHash(GENESIS_HASH, row));
    expect(rowHash(GENESIS_HASH, asBlob)).not.toBe(rowHash(GENESIS_HASH, row));
  });

  it('lets verify catch a column rewritten as a BLOB of the same bytes', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const file = path.join(t.dir, 'audit.db');
    const store = openAuditStore({ path: file });
    for (let i = 0; i < 5; i++) store.append(sampleRecord(i));
    await store.close();
    tamper(file, 'UPDATE audit_log SET session_id = CAST(session_id AS BLOB) WHERE seq = 3');
    const result = verifyAudit(file);
    expect(result.ok).toBe(false);
    expect(result.problems.map((p) => [p.seq, p.kind])).toEqual([[3, 'edited']]);
  });
});
