import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deny } from '../../src/core/index.js';
import { countAudit, openAuditStore, queryAudit, verifyAudit } from '../../src/audit/index.js';
import { harness, type Harness } from './helpers.js';

let h: Harness;
afterEach(() => h?.cleanup());

describe('runtime + SQLite audit store', () => {
  it('every fire and every executed tool call lands in a verifying hash chain', async () => {
    h = harness([{ name: 'no-rm', events: 'PreToolUse', matcher: { tool: 'Bash', command: 'rm ' }, handler: () => deny('no rm') }]);
    const file = path.join(h.transcriptDir, 'audit.db');
    const store = openAuditStore({ path: file });
    try {
      await h.run(
        [
          {
            toolCalls: [
              { name: 'Bash', input: { command: 'rm -rf x' } },
              { name: 'Write', input: { file_path: 'a.txt', content: 'a' } },
            ],
          },
          { text: 'done' },
        ],
        'p',
        { audit: store },
      );
    } finally {
      await store.close();
    }
    expect(verifyAudit(file).ok).toBe(true);
    expect(countAudit(file)).toBe(h.fired.length + 1);
    const rows = queryAudit(file);
    expect(rows.filter((r) => r.kind === 'tool').map((r) => r.tool)).toEqual(['Write']);
    expect(rows.find((r) => r.event === 'PreToolUse' && r.tool === 'Bash')).toMatchObject({ decision: 'deny' });
  });
});

describe('written before the tool runs', () => {
  it('the tool record is on disk (durable) when the tool starts', async () => {
    h = harness([]);
    const file = path.join(h.transcriptDir, 'audit-durable.db');
    const store = openAuditStore({ path: file });
    let rowsWhenToolRan = -1;
    try {
      await h.run([{ toolCalls: [{ name: 'Write', input: { file_path: 'a.txt', content: 'a' } }] }, { text: 'done' }], 'p', {
        audit: store,
        onEvent: (event: { type: string }) => {
          if (event.type === 'tool_start') rowsWhenToolRan = queryAudit(file).filter((r) => r.kind === 'tool').length;
        },
      });
    } finally {
      await store.close();
    }
    expect(rowsWhenToolRan).toBe(1);
  });

  it('a tool the audit cannot record does not run', async () => {
    h = harness([]);
    const failing = {
      append() {},
      appendDurable() {
        throw new Error('disk full');
      },
      flush: async () => {},
      close: async () => {},
    };
    const result = await h.run([{ toolCalls: [{ name: 'Write', input: { file_path: 'a.txt', content: 'a' } }] }, { text: 'done' }], 'p', {
      audit: failing,
    });
    expect(
      result.messages.some((m) => m.role === 'tool' && /audit trail could not record this Write call \(disk full\)/.test(m.content)),
    ).toBe(true);
    expect(h.fired.map((f) => f.event)).not.toContain('PostToolUse');
  });
});
