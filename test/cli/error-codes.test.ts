import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openApprovals } from '../../src/approvals/open.js';
import { loadConfigModule } from '../../src/config/module.js';
import { HookEngine } from '../../src/core/engine.js';
import { HookwiseError } from '../../src/core/errors.js';
import { openCounterStore } from '../../src/counters/index.js';
import { secretGuard } from '../../src/guards/secret-guard.js';
import { shellGuard } from '../../src/guards/shell-guard.js';
import { commandHandler } from '../../src/handlers/command.js';
import { eventOf } from '../../src/hosts/call.js';
import { upstreamTransport } from '../../src/mcp-proxy/upstream.js';
import { createProvider } from '../../src/providers/index.js';
import { resolveSandbox } from '../../src/sandbox/settings.js';

/**
 * A user matches an error on its `code` (docs/api.md, "Errors"): a few representative
 * ones, from the API and through the CLI, where the line the CLI prints is the message
 * of the error with that code.
 */
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const BIN = path.join(REPO, 'bin', 'hookwise.js');
const root = mkdtempSync(path.join(tmpdir(), 'hookwise-error-codes-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** What `run` threw (or rejected with), as the HookwiseError it must be. */
async function thrown(run: () => unknown): Promise<HookwiseError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(HookwiseError);
    return error as HookwiseError;
  }
  throw new Error('expected a throw');
}

function claudeCode(input: Record<string, unknown>, cwd: string) {
  const r = spawnSync(process.execPath, [BIN, 'claude-code'], {
    input: JSON.stringify({ session_id: 's', cwd, ...input }),
    encoding: 'utf8',
    cwd,
    env: { ...process.env, CLAUDE_PROJECT_DIR: cwd, HOOKWISE_CLAUDE_CODE: '' },
  });
  return { code: r.status, stderr: r.stderr };
}

describe('error codes a user sees', () => {
  it.each([
    ['GUARD_OPTION', () => secretGuard({ mode: 'hide' as 'block' }), 'secretGuard: mode must be "block" or "redact", got "hide"'],
    ['GUARD_OPTION', () => shellGuard({ packs: { nope: true } as never }), 'shellGuard: packs.nope is not a pack'],
    ['SANDBOX_OPTION', () => resolveSandbox('maybe' as 'on', 'shellGuard'), 'shellGuard: sandbox must be "on", "off"'],
    ['HANDLER_OPTION', () => commandHandler({ command: '' }), 'command hook: `command` must be a non-empty string'],
    ['PROVIDER_OPTION', () => createProvider('llama'), 'invalid model provider "llama"'],
    ['COUNTER_STORE_URL', () => openCounterStore('mysql://x'), 'unknown counter store "mysql://x"'],
    ['INPUT', () => new HookEngine().fire('PreToolUse', 'text' as never), 'fire(PreToolUse): input must be a JSON object'],
    ['EVENT_NAME', () => new HookEngine().on('nope' as 'outcome', () => {}), 'unknown engine event "nope"'],
    ['HOST_INPUT', () => eventOf(undefined), 'stdin: hook_event_name is missing'],
    [
      'MCP_PROXY_OPTION',
      () => upstreamTransport({ command: [] }),
      'no upstream server command after `--`; name it: hookwise mcp-proxy -- <command>',
    ],
  ])('%s: %s', async (code, run, message) => {
    const error = await thrown(run);
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });

  it('APPROVALS_STORE_OPTION: an approvals store opened beside an audit store of the other kind', async () => {
    const audit = { kind: 'postgres' } as never;
    const error = await thrown(() => openApprovals(path.join(root, 'a.db'), { audit }));
    expect([error.code, error.message]).toEqual([
      'APPROVALS_STORE_OPTION',
      'openApprovals: options.audit is a PostgreSQL audit store, but the target is an SQLite database',
    ]);
  });

  it('HOST_INPUT through the CLI: the hook call fails closed with the message of the error with that code', async () => {
    const error = await thrown(() => eventOf(undefined));
    const r = claudeCode({ tool_name: 'Bash' }, mkdtempSync(path.join(root, 'p-')));
    expect([r.code, r.stderr]).toEqual([2, `hookwise failed closed: ${error.message}\n`]);
  });

  it('CONFIG through the CLI: a TypeScript config that does not parse names the file, the line and the column', async () => {
    const dir = mkdtempSync(path.join(root, 'p-'));
    const file = path.join(dir, 'hookwise.config.ts');
    writeFileSync(file, 'export default { hooks: [ };\n');
    const error = await thrown(() => loadConfigModule(file));
    expect(error.code).toBe('CONFIG');
    expect(error.message).toMatch(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: could not load config module: .* at line 1, column \\d+: `),
    );
    const r = claudeCode({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: {} }, dir);
    expect([r.code, r.stderr]).toEqual([1, `hookwise: ${error.message}\n`]);
  });
});
