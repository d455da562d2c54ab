import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, WireServer } from '../providers/wire-server.js';
import { completion, toolCall } from './chat-completion.js';
import { runCli } from './run-cli.js';

const server = new WireServer(json(200, completion({ content: 'Done.' }, 'stop')));
const workspace = mkdtempSync(path.join(os.tmpdir(), 'hookwise-run-'));
beforeAll(() => server.start());
afterAll(async () => {
  await server.stop();
  rmSync(workspace, { recursive: true, force: true });
});

describe('hookwise run --model openai:<model> --base-url URL', () => {
  it("drives a real OpenAI-compatible server under the folder's policy, with the audit trail", async () => {
    writeFileSync(
      path.join(workspace, 'hookwise.config.mjs'),
      `export default { hooks: [{ name: 'no-rm', events: 'PreToolUse', matcher: { tool: 'Bash', command: '\\\\brm\\\\b' },
        handler: () => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm in this project' } }) }] };\n`,
    );
    server
      .next(
        json(
          200,
          completion({ content: 'Cleaning first.', tool_calls: [toolCall('call_1', 'Bash', { command: 'rm -rf data' })] }, 'tool_calls'),
        ),
      )
      .next(
        json(
          200,
          completion(
            { content: 'Writing notes.', tool_calls: [toolCall('call_2', 'Write', { file_path: 'notes.md', content: '# notes\n' })] },
            'tool_calls',
          ),
        ),
      )
      .next(json(200, completion({ content: 'All done.' }, 'stop')));
    const db = path.join(workspace, 'audit.db');
    const r = await runCli(
      ['run', '--model', 'openai:local-model', '--base-url', `${server.url}/v1`, '--db', db, 'Tidy up and leave notes.'],
      {
        cwd: workspace,
        env: { OPENAI_API_KEY: 'sk-local' },
      },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/no-rm:deny/);
    expect(r.stdout).toMatch(/\| agent stopped because +\| end_turn/);
    expect(readFileSync(path.join(workspace, 'notes.md'), 'utf8')).toBe('# notes\n');
    expect(existsSync(path.join(workspace, 'data'))).toBe(false);

    expect(server.requests).toHaveLength(3);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-local');
    const second = server.requests[1]!.body as {
      model: string;
      messages: Array<{ role: string; content: string; tool_call_id?: string }>;
      tools: Array<{ function: { name: string } }>;
    };
    expect(second.model).toBe('local-model');
    expect(second.tools.map((t) => t.function.name)).toEqual(expect.arrayContaining(['Bash', 'Write', 'Read']));
    const denial = second.messages.find((m) => m.role === 'tool' && m.tool_call_id === 'call_1');
    expect(denial?.content).toMatch(/no-rm.*no rm in this project.*not run/);

    const verify = await runCli(['audit', 'verify', '--db', db]);
    expect(verify.code).toBe(0);
  });

  it('a bad --model is one clear line', async () => {
    const r = await runCli(['run', '--model', 'gpt4', 'hi'], { cwd: workspace });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^hookwise: --model: .*\n$/);
  });

  it('refuses to run with no policy, before any model call, and says how to start one', async () => {
    const bare = mkdtempSync(path.join(os.tmpdir(), 'hookwise-run-bare-'));
    try {
      const before = server.requests.length;
      const r = await runCli(['run', '--model', 'openai:local-model', '--base-url', `${server.url}/v1`, 'write outside'], {
        cwd: bare,
        unset: ['HOOKWISE_AUDIT_DB'],
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^hookwise: no policy for .*npx hookwise init.*--no-policy\n$/);
      expect(server.requests.length).toBe(before);

      server.next(json(200, completion({ content: 'Nothing to do.' }, 'stop')));
      const unguarded = await runCli(
        ['run', '--no-policy', '--model', 'openai:local-model', '--base-url', `${server.url}/v1`, '--db', path.join(bare, 'a.db'), 'hi'],
        { cwd: bare },
      );
      expect(unguarded.code).toBe(0);
      expect(unguarded.stderr).toContain('warning: running with no policy');
      expect(server.requests.length).toBe(before + 1);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it('a missing API key is found before the agent starts', async () => {
    const r = await runCli(['run', '--model', 'anthropic:claude-haiku-4-5', 'hi'], {
      cwd: workspace,
      unset: ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL'],
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'hookwise: --model anthropic:claude-haiku-4-5: ANTHROPIC_API_KEY is not set: export it (or pass --base-url for a server that needs no key)\n',
    );
  });

  it('a --workspace that does not exist is named, not a raw ENOENT', async () => {
    const r = await runCli(['run', '--model', 'openai:m', '--base-url', 'http://127.0.0.1:9/v1', '--workspace', '/nonexistent/x', 'hi'], {
      cwd: workspace,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('hookwise: --workspace /nonexistent/x: no such folder (/nonexistent/x)\n');
  });
});
