import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './run-cli.js';
import { unsealed } from '../support/sandbox-line.js';
import { slack } from '../support/slack.js';

// Issue 23, finding 4, through the resident of `hookwise claude-code`: after the 160 KB
// pipeline (which aborted the parser for every later call of the process), the same
// resident process still judges the next commands.
const GUARDS = JSON.stringify(path.join(repoRoot, 'dist', 'guards', 'index.js'));
const root = mkdtempSync(path.join(tmpdir(), 'hookwise-resident-limits-'));
const residentsDir = path.join(root, 'residents');
const dir = mkdtempSync(path.join(root, 'p-'));
writeFileSync(path.join(dir, 'hookwise.config.mjs'), `import { shellGuard } from ${GUARDS};\nexport default { hooks: [shellGuard()] };\n`);
const ON = { HOOKWISE_RESIDENT: '1', HOOKWISE_RESIDENT_DIR: residentsDir, HOOKWISE_CLAUDE_CODE: '', HOOKWISE_FAIL_OPEN: '' };
afterAll(async () => {
  await runCli(['residents', '--stop', '--all'], { env: { HOOKWISE_RESIDENT_DIR: residentsDir } });
  rmSync(root, { recursive: true, force: true });
});

const call = (command: string) =>
  runCli(['claude-code'], {
    cwd: dir,
    stdin: JSON.stringify({ cwd: dir, hook_event_name: 'PreToolUse', session_id: 's1', tool_name: 'Bash', tool_input: { command } }),
    env: { ...ON, CLAUDE_PROJECT_DIR: dir },
  });

async function answered(): Promise<number | undefined> {
  const r = await runCli(['residents', '--json'], { env: { HOOKWISE_RESIDENT_DIR: residentsDir } });
  return (JSON.parse(r.stdout) as Array<{ cwd: string; answered: number }>).find((x) => x.cwd === dir)?.answered;
}

describe('the resident after a command past the parser limits', () => {
  it('denies it with its reason, and answers the next commands in the same process', { timeout: slack(120_000) }, async () => {
    await call('ls');
    // Residents start in the background.
    while ((await answered()) === undefined) await new Promise((r) => setTimeout(r, 100));
    const huge = `true${' | true'.repeat(20000)} | rm -rf /etc`;
    const refused = await call(huge);
    expect(refused.code).toBe(0);
    expect(JSON.parse(refused.stdout).hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: `the command is ${huge.length} characters long; hookwise parses commands of at most 65536 (write long content to a file with the Write tool instead)`,
    });
    // Allowed: answered with the command in its OS sandbox, no decision.
    const ls = await call('ls');
    expect(ls.code).toBe(0);
    expect(unsealed(JSON.parse(ls.stdout).hookSpecificOutput.updatedInput.command)).toContain('/bwrap ');
    expect(JSON.parse(ls.stdout).hookSpecificOutput.permissionDecision).toBeUndefined();
    expect(JSON.parse((await call('rm -rf /etc')).stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(await answered()).toBe(3);
  });
});
