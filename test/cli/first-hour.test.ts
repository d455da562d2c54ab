import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

/**
 * What a newcomer meets in their first hour (issue "a house a newcomer can move into"):
 * `init`, then `fire` and `check` in that project, as the README and --help say.
 */
const root = mkdtempSync(path.join(tmpdir(), 'hookwise-first-hour-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function project(name: string): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: dir });
  return dir;
}

const bash = (command: string) => JSON.stringify({ tool_name: 'Bash', tool_input: { command } });

describe("a newcomer's first hour", () => {
  it('init, then fire in the project: the starter policy lets `ls` through and refuses rm -rf ~', async () => {
    const dir = project('fire');
    expect((await runCli(['init'], { cwd: dir })).code).toBe(0);
    const ls = await runCli(['fire', 'PreToolUse'], { cwd: dir, stdin: bash('ls') });
    expect(ls.code).toBe(0);
    const allowed = JSON.parse(ls.stdout);
    expect(allowed.blocked).toBe(false);
    // Durations to a hundredth of a millisecond, not the timer's noise.
    for (const hook of allowed.hooks) expect(String(hook.durationMs)).toMatch(/^\d+(\.\d{1,2})?$/);
    const rm = JSON.parse((await runCli(['fire', 'PreToolUse'], { cwd: dir, stdin: bash('rm -rf ~') })).stdout);
    expect(rm.blocked).toBe(true);
  });

  it('init puts .hookwise/ in .gitignore once, keeping what is there', async () => {
    const dir = project('gitignore');
    writeFileSync(path.join(dir, '.gitignore'), 'node_modules');
    await runCli(['init'], { cwd: dir });
    await runCli(['init'], { cwd: dir });
    expect(readFileSync(path.join(dir, '.gitignore'), 'utf8')).toBe('node_modules\n.hookwise/\n');
  });

  it('check --strict fails when there is no config at all, and says how to make one', async () => {
    const dir = project('empty');
    const r = await runCli(['check', '--strict'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/no hookwise config found.*hookwise init/);
    expect((await runCli(['check'], { cwd: dir })).code).toBe(0);
  });

  it('a misspelt hook field is a warning naming the field meant, and a failure with --strict', async () => {
    const dir = project('typo');
    writeFileSync(
      path.join(dir, 'hookwise.config.mjs'),
      "export default { hooks: [{ name: 'x', events: 'PreToolUse', timout: 5, handler: () => undefined }] };\n",
    );
    const plain = await runCli(['check'], { cwd: dir });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('unknown field "timout" is ignored (did you mean "timeoutMs"?)');
    const strict = await runCli(['check', '--strict'], { cwd: dir });
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('not ok (--strict): 1 warning');
  });
});
