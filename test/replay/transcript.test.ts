import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../audit/helpers.js';
import { repoRoot, runCli } from '../cli/run-cli.js';
// @ts-expect-error: a JavaScript module of the test suite, without types.
import { POLICY_V1, POLICY_V2 } from '../replay-claude/session.mjs';
import { slack } from '../support/slack.js';

// A session real Claude Code 2.1.197 wrote, with hookwise's drop-in under POLICY_V1
// refusing `rm` (`npm run test:replay-claude -- --write-fixture` writes it again).
const FIXTURE = path.join(repoRoot, 'test', 'fixtures', 'replay', 'claude-code-2.1.197-session.jsonl');

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  writeFileSync(path.join(dir, 'v1.mjs'), POLICY_V1);
  writeFileSync(path.join(dir, 'v2.mjs'), POLICY_V2);
  writeFileSync(path.join(dir, 'victim.txt'), 'sentinel\n');
});
afterEach(() => cleanup());

const replay = (args: string[]) => runCli(['replay', ...args], { cwd: dir });
const jsonLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

describe('hookwise replay of a real Claude Code transcript', { timeout: slack(120_000) }, () => {
  it('the fixture is what Claude Code wrote: the drop-in refused rm, the model saw the reason', () => {
    const text = readFileSync(FIXTURE, 'utf8');
    expect(text).toContain('"version":"2.1.197"');
    expect(text).toMatch(/"tool_result","content":"REFUSED-rm: no deleting here","is_error":true/);
  });

  it('reproduces every decision under the unchanged policy: 0 differences, exit 0', async () => {
    const r = await replay([FIXTURE, '--config', 'v1.mjs', '--json']);
    expect(r.stderr).toContain('replayed 4 tool calls');
    expect(r.stderr).toContain('4 decided as recorded, 0 differently');
    expect(r.stdout).toBe('');
    expect(r.code).toBe(0);
  });

  it('finds exactly the changed decisions after the change (rm allowed, touch refused), running no tool', async () => {
    const r = await replay([FIXTURE, '--config', 'v2.mjs', '--json']);
    expect(r.code).toBe(1);
    const lines = jsonLines(r.stdout);
    expect(lines.map((l) => [l.tool, l.input.command, l.was, l.now, l.change, l.turn])).toEqual([
      ['Bash', 'rm -f victim.txt', 'refused', 'allowed', 'would have allowed', 1],
      ['Bash', 'touch made.txt', 'allowed', 'refused', 'would have refused', 1],
    ]);
    expect(lines[1].hook).toBe('no-touch');
    expect(lines[0].session).toMatch(/^[0-9a-f-]{36}$/);
    // The transcript's cwd no longer exists; the call named victim.txt relative to it. Nothing ran here either.
    expect(existsSync(path.join(dir, 'victim.txt'))).toBe(true);
    expect(existsSync(path.join(dir, 'made.txt'))).toBe(false);
  });

  it('prints a table with session, turn, tool, change and input', async () => {
    const r = await replay([FIXTURE, '--config', 'v2.mjs']);
    expect(r.code).toBe(1);
    const rows = r.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/^session\s+where\s+tool\s+change\s+input/);
    expect(rows[1]).toMatch(/turn 1\s+Bash\s+would have allowed\s+rm -f victim\.txt\s+was: REFUSED-rm/);
    expect(rows[2]).toMatch(/turn 1\s+Bash\s+would have refused\s+touch made\.txt\s+no-touch: REFUSED-touch/);
  });

  it("--to-tests writes cases that pin today's decisions: hookwise test passes them under v2 and fails them under v1", async () => {
    const r = await replay([FIXTURE, '--config', 'v2.mjs', '--to-tests', 'pinned.policy-test.yaml']);
    expect(r.stderr).toContain('wrote 2 cases to pinned.policy-test.yaml');
    const pass = await runCli(['test', 'pinned.policy-test.yaml'], { cwd: dir });
    expect(pass.stdout).toContain('2 cases: 2 passed, 0 failed');
    expect(pass.code).toBe(0);
    const yaml = readFileSync(path.join(dir, 'pinned.policy-test.yaml'), 'utf8');
    writeFileSync(path.join(dir, 'pinned.policy-test.yaml'), yaml.replace('- v2.mjs', '- v1.mjs'));
    const fail = await runCli(['test', 'pinned.policy-test.yaml'], { cwd: dir });
    expect(fail.stdout).toContain('2 cases: 0 passed, 2 failed');
    expect(fail.code).toBe(1);
  });

  it('a malformed line in a long transcript is reported with its line number and the replay goes on', async () => {
    const lines = readFileSync(FIXTURE, 'utf8').trimEnd().split('\n');
    // 50 copies of the session (a long transcript), one line cut in half in the middle.
    const long = Array.from({ length: 50 }, () => lines).flat();
    const broken = 25 * lines.length + 3;
    long[broken - 1] = long[broken - 1]!.slice(0, 40);
    writeFileSync(path.join(dir, 'long.jsonl'), `${long.join('\n')}\n`);
    const r = await runCli(['replay', 'long.jsonl', '--config', 'v2.mjs', '--json'], {
      cwd: dir,
      env: { HOOKWISE_REPLAY_PROGRESS_MS: '0' },
    });
    expect(r.stderr).toContain(`long.jsonl:${broken}: not JSON`);
    // Progress on stderr as the replay goes (every batch here; every second by default).
    expect(r.stderr).toContain('hookwise: replayed 100 calls…');
    expect(r.stderr.split('\n').filter((l) => l.includes('not JSON'))).toHaveLength(1);
    // Every session's two changes are still found: the replay did not stop at the bad line.
    expect(jsonLines(r.stdout)).toHaveLength(100);
    expect(r.code).toBe(2);
  });

  it('does not run command hooks unless asked, and says which it skipped', async () => {
    const sentinel = path.join(dir, 'hook-ran.txt');
    const settings = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `touch "${sentinel}"; exit 2` }] }] } };
    writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(settings));
    const skipped = await replay([FIXTURE, '--config', 'settings.json', '--json']);
    expect(skipped.stderr).toMatch(/not running 1 command hook \(pass --run-command-hooks to run them\): settings:PreToolUse:/);
    expect(existsSync(sentinel)).toBe(false);
    // Without the hook, the refused rm would have been allowed: that is reported, not hidden.
    expect(jsonLines(skipped.stdout).map((l) => l.change)).toEqual(['would have allowed']);
    const ran = await replay([FIXTURE, '--config', 'settings.json', '--json', '--run-command-hooks', '--project', dir]);
    expect(existsSync(sentinel)).toBe(true);
    expect(jsonLines(ran.stdout).map((l) => [l.input.command, l.change])).toEqual([
      ['echo m0 >> ran.log', 'would have refused'],
      ['touch made.txt', 'would have refused'],
    ]);
  });
});

describe('hookwise replay: bad inputs give one line and a non-zero exit', { timeout: slack(120_000) }, () => {
  it('a missing transcript', async () => {
    const r = await replay(['nope.jsonl', '--config', 'v1.mjs']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/nope\.jsonl: no such file or folder; name a Claude Code transcript/);
  });

  it('a policy that fails to load', async () => {
    writeFileSync(path.join(dir, 'broken.mjs'), 'export default { hooks: [ { name: "x" } ] };');
    const r = await replay([FIXTURE, '--config', 'broken.mjs']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('broken.mjs');
  });

  it('a transcript line that is not JSON, alone', async () => {
    writeFileSync(path.join(dir, 'bad.jsonl'), '{"type":"user"}\nnot json at all\n');
    const r = await replay(['bad.jsonl', '--config', 'v1.mjs']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.jsonl:2: not JSON/);
  });
});
