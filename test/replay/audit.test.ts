import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEngine, openAuditStore, type AnyAuditStore } from '../../src/audit/index.js';
import { deny, HookEngine } from '../../src/index.js';
import { pgSchema } from '../audit/pg-schema.js';
import { tempDir } from '../audit/helpers.js';
import { runCli } from '../cli/run-cli.js';
import { requirePostgres } from '../support/services.js';
import { slack } from '../support/slack.js';

const pgBase = await requirePostgres();

// The policy the sessions ran under refuses `rm`; the new one also refuses `curl`.
const OLD = `export default { hooks: [{ name: 'no-rm', events: 'PreToolUse', matcher: { tool: 'Bash', command: '\\\\brm\\\\b' }, handler: () => ({ decision: 'deny', reason: 'no rm' }) }] };\n`;
const NEW = `export default { hooks: [
  { name: 'no-rm', events: 'PreToolUse', matcher: { tool: 'Bash', command: '\\\\brm\\\\b' }, handler: () => ({ decision: 'deny', reason: 'no rm' }) },
  { name: 'no-curl', events: 'PreToolUse', matcher: { tool: 'Bash', command: '\\\\bcurl\\\\b' }, handler: () => ({ decision: 'deny', reason: 'no network' }) },
] };\n`;

const COMMANDS = ['ls', 'rm -rf build', 'curl https://example.com', 'echo hi'];

/** Two sessions' PreToolUse outcomes under the old policy, recorded as every host records them. */
async function record(store: AnyAuditStore): Promise<void> {
  const engine = new HookEngine().register({
    name: 'no-rm',
    events: 'PreToolUse',
    matcher: { tool: 'Bash', command: String.raw`\brm\b` },
    handler: () => deny('no rm'),
  });
  auditEngine(engine, store);
  for (const session of ['s-one', 's-two'])
    for (const [i, command] of COMMANDS.entries())
      await engine.fire('PreToolUse', { session_id: session, tool_name: 'Bash', tool_input: { command }, tool_use_id: `${session}-${i}` });
  await store.flush();
  await store.close();
}

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  ({ dir, cleanup } = tempDir());
  writeFileSync(path.join(dir, 'old.mjs'), OLD);
  writeFileSync(path.join(dir, 'new.mjs'), NEW);
});
afterAll(() => cleanup());

const replay = (args: string[]) => runCli(['replay', ...args, '--json'], { cwd: dir, env: { HOOKWISE_AUDIT_KEY: 'k'.repeat(32) } });
const lines = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

function suite(name: string, target: () => string) {
  describe(`hookwise replay of the audit trail (${name})`, { timeout: slack(120_000) }, () => {
    it('the unchanged policy decides every recorded call as recorded', async () => {
      const r = await replay([target(), '--config', 'old.mjs']);
      expect(r.stderr).toContain('replayed 8 tool calls');
      expect(r.stdout).toBe('');
      expect(r.code).toBe(0);
    });

    it('the new policy: exactly the curl calls, in both sessions, would have been refused', async () => {
      const r = await replay([target(), '--config', 'new.mjs']);
      expect(r.code).toBe(1);
      expect(lines(r.stdout).map((l) => [l.session, l.input.command, l.change, l.hook])).toEqual([
        ['s-one', 'curl https://example.com', 'would have refused', 'no-curl'],
        ['s-two', 'curl https://example.com', 'would have refused', 'no-curl'],
      ]);
    });

    it('one session', async () => {
      const r = await replay([target(), '--config', 'new.mjs', '--session', 's-two']);
      expect(r.stderr).toContain('replayed 4 tool calls');
      expect(lines(r.stdout).map((l) => l.session)).toEqual(['s-two']);
    });

    it('a time range that holds nothing replays nothing', async () => {
      const r = await replay([target(), '--config', 'new.mjs', '--until', '2000-01-01T00:00:00Z']);
      expect(r.stderr).toContain('replayed 0 tool calls');
      expect(r.code).toBe(0);
    });
  });
}

const sqlite = () => path.join(dir, 'audit.db');
beforeAll(async () => {
  await record(await openAuditStore(sqlite(), { key: 'k'.repeat(32) }));
});
suite('SQLite', sqlite);

const schema = pgSchema(pgBase ?? 'postgres://unused', 'replay');
describe.skipIf(!pgBase)('PostgreSQL', () => {
  beforeAll(async () => {
    await record(await openAuditStore(schema.url, { key: 'k'.repeat(32) }));
  });
  afterAll(() => schema.drop());
  suite('PostgreSQL', () => schema.url);
});

it('a missing audit database is one line and exit 2', async () => {
  const r = await replay([path.join(dir, 'missing.db'), '--config', 'old.mjs']);
  expect(r.code).toBe(2);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toContain('missing.db: no such file or folder');
});
