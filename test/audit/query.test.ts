import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportAuditJsonl, iterateAudit, openAuditStore, queryAudit } from '../../src/audit/index.js';
import { formatAuditTable } from '../../src/audit/table.js';
import { sampleRecord, tempDir } from './helpers.js';

let file: string;
let cleanup: () => void;
beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  file = path.join(t.dir, 'audit.db');
  const store = openAuditStore({ path: file });
  // seq k holds sampleRecord(k - 1); record i is at 2026-01-01T00:00:<i>Z.
  for (let i = 0; i < 12; i++) store.append(sampleRecord(i));
  // One record written in another zone: 01:00:05+01:00 is 00:00:05Z.
  store.append(sampleRecord(12, { ts: '2026-01-01T01:00:05.500+01:00', sessionId: 'zoned' }));
  await store.close();
});
afterAll(() => cleanup());

const seqs = (filters: Parameters<typeof queryAudit>[1]) => queryAudit(file, filters).map((r) => r.seq);

describe('queryAudit', () => {
  it('lists every row oldest first, data parsed', () => {
    const rows = queryAudit(file);
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(rows[0]).toMatchObject({
      kind: 'outcome',
      sessionId: 'session-0',
      event: 'PreToolUse',
      decision: 'deny',
      tool: 'Bash',
      data: { i: 0, reason: 'record 0' },
    });
    expect(rows[1]!.prevHash).toBe(rows[0]!.hash);
  });

  it('filters by session, kind, event, decision and tool', () => {
    expect(seqs({ sessionId: 'session-1' })).toEqual([2, 4, 6, 8, 10, 12]);
    expect(seqs({ kind: 'tool' })).toEqual([3, 6, 9, 12]);
    expect(seqs({ event: 'Stop' })).toEqual([2, 5, 8, 11]);
    expect(seqs({ decision: 'deny' })).toEqual([1, 7, 13]);
    expect(seqs({ decision: 'allow' })).toEqual([4, 10]);
    expect(seqs({ decision: 'none' })).toEqual([2, 3, 5, 6, 8, 9, 11, 12]);
    expect(seqs({ tool: 'Read' })).toEqual([4, 6, 10, 12]);
    expect(seqs({ sessionId: 'session-0', tool: 'Bash', kind: 'outcome' })).toEqual([1, 7]);
  });

  it('filters by time, comparing instants across zones', () => {
    expect(seqs({ since: '2026-01-01T00:00:09Z' })).toEqual([10, 11, 12]);
    expect(seqs({ until: '2026-01-01T00:00:02Z' })).toEqual([1, 2, 3]);
    expect(seqs({ since: '2026-01-01T00:00:05Z', until: new Date('2026-01-01T00:00:06Z') })).toEqual([6, 7, 13]);
    expect(() => queryAudit(file, { since: 'last tuesday' })).toThrow('audit query: since must be an ISO 8601 time');
  });

  it('limits to the most recent matches, still oldest first', () => {
    expect(seqs({ limit: 3 })).toEqual([11, 12, 13]);
    expect(seqs({ tool: 'Bash', limit: 2 })).toEqual([9, 13]);
    expect(seqs({ limit: 0 })).toEqual([]);
  });

  it('iterates without holding the whole table', () => {
    const it = iterateAudit(file);
    expect(it.next().value?.seq).toBe(1);
    // Returning early closes the database (the generator's finally).
    expect(it.return(undefined).done).toBe(true);
  });
});

describe('exportAuditJsonl', () => {
  it('writes one JSON object per line, the same rows as the query', () => {
    let out = '';
    const count = exportAuditJsonl(file, { decision: 'deny' }, (chunk) => (out += chunk));
    expect(count).toBe(3);
    expect(out.endsWith('\n')).toBe(true);
    const lines = out
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual(queryAudit(file, { decision: 'deny' }));
    expect(Object.keys(lines[0])).toEqual(['seq', 'ts', 'sessionId', 'kind', 'event', 'decision', 'tool', 'data', 'prevHash', 'hash']);
  });
});

describe('formatAuditTable', () => {
  it('aligns the columns under a header and shows why', () => {
    const lines = formatAuditTable(queryAudit(file, { limit: 2, sessionId: 'session-1' }));
    expect(lines[0]).toMatch(/^seq {2}time {22}session {4}kind {5}event {7}decision {2}tool {2}detail$/);
    expect(lines[1]).toBe('10   2026-01-01T00:00:09.000Z  session-1  outcome  PreToolUse  allow     Read  record 9');
    expect(lines[2]).toBe('12   2026-01-01T00:00:11.000Z  session-1  tool     PreToolUse  -         Read  record 11');
  });

  it('shows what a step changed on disk, as the checkpoint guard recorded it', () => {
    const row = {
      seq: 3,
      ts: '2026-01-01T00:00:02.000Z',
      sessionId: 's',
      kind: 'outcome',
      event: 'PostToolUse',
      decision: null,
      tool: 'Bash',
      data: {
        input: { tool_name: 'Bash', tool_input: { command: ': > notes.md' } },
        hooks: [{ name: 'guard:checkpoint', step: 4, changes: { summary: '+0 ~1 -0, 25 B', lost: ['notes.md'] } }],
      },
      prevHash: '',
      hash: '',
    };
    expect(formatAuditTable([row])[1]).toMatch(
      /PostToolUse {2}- {9}Bash {2}step 4 \+0 ~1 -0, 25 B, LOST 1: \{"command":": > notes\.md"\}$/,
    );
  });
});
