import { afterAll, describe, expect, it } from 'vitest';
import { GUARDS_CONFIG, workspace, writeConfig } from '../serve/helpers.js';
import { runCli } from './run-cli.js';

// Issue 23, finding 4, through `hookwise fire` (one process per call): the 160 KB
// pipeline that made the bash parser abort at 2 GB is refused at once with its reason,
// and the shell guard goes on judging.
const ws = workspace('fire-limits');
const config = writeConfig(ws.configDir, GUARDS_CONFIG);
afterAll(() => ws.cleanup());

const fire = (command: string) =>
  runCli(['fire', 'PreToolUse', '--config', config], {
    cwd: ws.project,
    stdin: JSON.stringify({ tool_name: 'Bash', tool_input: { command }, cwd: ws.project }),
  });

describe('hookwise fire: a command past the parser limits', () => {
  it('is denied with its reason (exit 0: a decision, not a failure), and ls is still allowed', async () => {
    const huge = `true${' | true'.repeat(20000)} | rm -rf /etc`;
    const refused = await fire(huge);
    expect(refused.code).toBe(0);
    expect(JSON.parse(refused.stdout)).toMatchObject({
      decision: 'deny',
      blocked: true,
      reason: `the command is ${huge.length} characters long; hookwise parses commands of at most 65536 (write long content to a file with the Write tool instead)`,
    });
    const nested = `echo ${'$('.repeat(65)}ls${')'.repeat(65)}`;
    expect(JSON.parse((await fire(nested)).stdout)).toMatchObject({
      decision: 'deny',
      reason: 'the command nests brackets more than 64 deep; hookwise parses at most 64 levels',
    });
    const ls = await fire('ls');
    expect(ls.code).toBe(0);
    expect(JSON.parse(ls.stdout)).toMatchObject({ decision: null, blocked: false });
  });
});

describe('a 10 MB command (red team 1)', () => {
  const huge = `echo ${'a'.repeat(10 * 1024 * 1024)}`;
  const reason = `the command is ${huge.length} characters long; hookwise parses commands of at most 65536 (write long content to a file with the Write tool instead)`;

  it('hookwise claude-code answers it with a JSON refusal that names the limit', async () => {
    const r = await runCli(['claude-code', '--config', config], {
      cwd: ws.project,
      stdin: JSON.stringify({
        hook_event_name: 'PreToolUse',
        session_id: 's',
        tool_name: 'Bash',
        tool_input: { command: huge },
        cwd: ws.project,
      }),
      env: { CLAUDE_PROJECT_DIR: ws.project },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
    });
  });

  it('hookwise fire answers it with a JSON Outcome that refuses it', async () => {
    const r = await fire(huge);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ decision: 'deny', blocked: true, reason });
  });
});
