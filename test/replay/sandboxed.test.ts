import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryAudit } from '../../src/audit/index.js';
import { tempDir } from '../audit/helpers.js';
import { repoRoot, runCli } from '../cli/run-cli.js';
import { unsealed } from '../support/sandbox-line.js';
import { slack } from '../support/slack.js';

// The default policy runs every allowed shell command in the OS sandbox: the shell
// guard's last handler rewrites `ls` into a long `bwrap` line. The audit record must
// keep what the agent asked for (`ls`) with the sandbox line beside it, and a replay
// must judge the agent's command: 0 differences with the policy unchanged, exactly
// the changed decisions after a change. Recorded through the real host path
// (`hookwise claude-code`, the real shell guard, sandbox on), replayed by the CLI.

const KEY = 'sandboxed-replay-key-0123456789ab';
const GUARDS = `import { defineConfig } from 'hookwise';
import { pathGuard, secretGuard, shellGuard } from 'hookwise/guards';
export default defineConfig({ hooks: [shellGuard(), pathGuard(), secretGuard({ mode: 'block' })`;
const DEFAULT = `${GUARDS}] });\n`;
const NO_LS = `${GUARDS}, { name: 'no-ls', events: 'PreToolUse', matcher: { tool: 'Bash', command: '^ls\\\\b' }, handler: () => ({ decision: 'deny', reason: 'no ls' }) }] });\n`;
// Allowed and sandboxed, allowed, refused by the guard: the agent's own commands.
const COMMANDS = ['ls', 'ls -la src', 'cat README.md', 'git status', 'rm -rf /'];

let project: string;
let configDir: string;
let db: string;
let cleanup: () => void;
beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  project = path.join(t.dir, 'project');
  mkdirSync(path.join(project, 'src'), { recursive: true });
  writeFileSync(path.join(project, 'README.md'), '# project\n');
  db = path.join(t.dir, 'audit.db');
  // Inside the repo, so that `import 'hookwise'` resolves to this package (dist/).
  configDir = path.join(repoRoot, '.tmp', `replay-sandboxed-${process.pid}`);
  mkdirSync(configDir, { recursive: true });
  writeFileSync(path.join(configDir, 'default.mjs'), DEFAULT);
  writeFileSync(path.join(configDir, 'no-ls.mjs'), NO_LS);
  for (const [i, command] of COMMANDS.entries()) {
    const hook = await runCli(['claude-code', '--config', path.join(configDir, 'default.mjs')], {
      cwd: project,
      env: { HOOKWISE_AUDIT_DB: db, HOOKWISE_AUDIT_KEY: KEY, CLAUDE_PROJECT_DIR: project, HOOKWISE_STATE_DIR: path.join(t.dir, 'state') },
      stdin: JSON.stringify({
        session_id: 'sandboxed-session',
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command },
        tool_use_id: `toolu_${i}`,
        cwd: project,
        transcript_path: path.join(t.dir, 'none.jsonl'),
      }),
    });
    expect(hook.code, hook.stderr).toBe(0);
  }
}, slack(120_000));
afterAll(() => {
  cleanup();
  rmSync(configDir, { recursive: true, force: true });
});

const replay = (config: string) =>
  runCli(['replay', db, '--json', '--config', path.join(configDir, config)], { cwd: project, env: { HOOKWISE_AUDIT_KEY: KEY } });
const lines = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { input: { command: string }; change: string; hook: string });

describe('records and replay with the shell guard and its OS sandbox on', { timeout: slack(120_000) }, () => {
  it("each record holds the agent's command, the sandbox line beside it", () => {
    const rows = queryAudit(db, { kind: 'outcome', event: 'PreToolUse' });
    expect(rows.map((r) => (r.data as { input: { tool_input: { command: string } } }).input.tool_input.command)).toEqual(COMMANDS);
    const ls = rows[0]!.data as { updatedInput: { command: string } | null; hooks: Array<{ last?: boolean; sandboxed?: boolean }> };
    // What ran: the sandbox's line, kept beside the command, with the hook that wrote it.
    expect(unsealed(ls.updatedInput?.command)).toContain('bwrap');
    expect(ls.hooks.some((h) => h.last === true && h.sandboxed === true)).toBe(true);
    expect(rows.at(-1)!.decision).toBe('deny');
  });

  it('the unchanged default policy: 0 differences, exit 0', async () => {
    const r = await replay('default.mjs');
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`replayed ${COMMANDS.length} tool calls`);
    expect(r.stderr).toContain(`${COMMANDS.length} decided as recorded, 0 differently`);
    expect(r.code).toBe(0);
  });

  it('after a change (deny ls): exactly the two ls calls, on the command the agent ran', async () => {
    const r = await replay('no-ls.mjs');
    expect(lines(r.stdout).map((l) => [l.input.command, l.change, l.hook])).toEqual([
      ['ls', 'would have refused', 'no-ls'],
      ['ls -la src', 'would have refused', 'no-ls'],
    ]);
    expect(r.code).toBe(1);
  });
});
