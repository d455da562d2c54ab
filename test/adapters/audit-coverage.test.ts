import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateText, stepCountIs, tool } from 'ai';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hookTools } from '../../src/adapters/ai-sdk/index.js';
import { openAuditStore } from '../../src/audit/index.js';
import { HookEngine, deny } from '../../src/index.js';
import { runCli } from '../cli/run-cli.js';
import { scriptedModel } from './ai-sdk-helpers.js';

const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-adapter-audit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('an adapter given an audit store', () => {
  it('leaves a trail that `hookwise audit coverage` proves covered: every execution has its allowing PreToolUse', async () => {
    const db = path.join(dir, 'audit.db');
    const store = openAuditStore({ path: db, keyFile: path.join(dir, 'audit.key') });
    const engine = new HookEngine();
    engine.register({
      name: 'no-secrets',
      events: 'PreToolUse',
      matcher: { tool: 'read' },
      handler: (input) => (input.tool_input.file === '.env' ? deny('not .env') : undefined),
    });
    const ran: string[] = [];
    const tools = hookTools(
      engine,
      {
        read: tool({
          description: 'Read a file',
          inputSchema: z.object({ file: z.string() }),
          execute: async ({ file }) => {
            ran.push(file);
            return `contents of ${file}`;
          },
        }),
      },
      { audit: store, sessionId: 'sess-cov' },
    );
    const model = scriptedModel([
      {
        calls: [
          { id: 'c1', name: 'read', input: { file: 'README.md' } },
          { id: 'c2', name: 'read', input: { file: '.env' } },
        ],
      },
      { calls: [{ id: 'c3', name: 'read', input: { file: 'src/a.ts' } }] },
      { text: 'done' },
    ]);
    await generateText({ model, tools, prompt: 'read', stopWhen: stepCountIs(5) });
    await store.close();
    expect(ran).toEqual(['README.md', 'src/a.ts']);

    const coverage = await runCli(['audit', 'coverage', '--audit', db, '--json'], {
      env: { HOOKWISE_AUDIT_KEY_FILE: path.join(dir, 'audit.key') },
    });
    expect(coverage.code, coverage.stderr).toBe(0);
    const report = JSON.parse(coverage.stdout) as { executions: number; covered: number; uncovered: unknown[] };
    expect(report).toMatchObject({ executions: 2, covered: 2, uncovered: [] });
  });
});
