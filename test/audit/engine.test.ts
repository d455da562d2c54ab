import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HookEngine } from '../../src/core/engine.js';
import { allow, deny } from '../../src/core/results.js';
import { auditEngine, openAuditStore, queryAudit, verifyAudit } from '../../src/audit/index.js';
import { tempDir } from './helpers.js';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('auditEngine', () => {
  it('appends one outcome record per fire, denials included, until unsubscribed', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const file = path.join(t.dir, 'audit.db');
    const store = openAuditStore({ path: file });
    cleanups.push(() => store.close());
    const engine = new HookEngine();
    engine.register({
      name: 'no-rm',
      events: 'PreToolUse',
      matcher: 'Bash',
      handler: (input) => (String((input.tool_input as { command?: string }).command).includes('rm -rf') ? deny('no rm -rf') : allow()),
    });
    const stop = auditEngine(engine, store);

    await engine.fire('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, tool_use_id: 't1' }, { sessionId: 's1' });
    await engine.fire('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } }, { sessionId: 's1' });
    await engine.fire('UserPromptSubmit', { prompt: 'hi' }, { sessionId: 's2' });
    stop();
    await engine.fire('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } }, { sessionId: 's1' });
    await store.flush();

    const rows = queryAudit(file);
    expect(rows.map((r) => [r.kind, r.sessionId, r.event, r.decision, r.tool])).toEqual([
      ['outcome', 's1', 'PreToolUse', 'deny', 'Bash'],
      ['outcome', 's1', 'PreToolUse', 'allow', 'Bash'],
      ['outcome', 's2', 'UserPromptSubmit', null, null],
    ]);
    expect(rows[0]!.data).toMatchObject({
      event: 'PreToolUse',
      decision: 'deny',
      reason: 'no rm -rf',
      hooks: [{ name: 'no-rm', status: 'ok' }],
      input: { tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, tool_use_id: 't1' },
    });
    expect(rows[2]!.data).not.toHaveProperty('input');
    expect(Number.isNaN(Date.parse(rows[0]!.ts))).toBe(false);
    expect(verifyAudit(file).ok).toBe(true);
  });

  it('records a fixed session id when given one', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const file = path.join(t.dir, 'audit.db');
    const store = openAuditStore({ path: file });
    cleanups.push(() => store.close());
    const engine = new HookEngine();
    cleanups.push(auditEngine(engine, store, { sessionId: 'run-7' }));
    await engine.fire('Stop', {}, { sessionId: 'other' });
    await store.flush();
    expect(queryAudit(file).map((r) => r.sessionId)).toEqual(['run-7']);
  });
});
