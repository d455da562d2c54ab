import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STARTER_CONFIG } from '../../src/cli/init/starter-config.js';
import { fingerprint, midTaskWorkspace } from '../checkpoints/workspace.js';
import { runCli } from './run-cli.js';

let root: string;
let ws: string;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'hookwise-undo-cli-'));
  ws = midTaskWorkspace(path.join(root, 'project'));
  writeFileSync(path.join(ws, 'hookwise.config.ts'), STARTER_CONFIG);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** One Bash call as Claude Code makes it through the drop-in: PreToolUse, the command as answered, PostToolUse. */
async function bashStep(command: string, id: string) {
  const env = { CLAUDE_PROJECT_DIR: ws };
  const event = (name: string, extra = {}) =>
    JSON.stringify({
      session_id: 'cli',
      hook_event_name: name,
      tool_name: 'Bash',
      tool_input: { command },
      tool_use_id: id,
      cwd: ws,
      ...extra,
    });
  const pre = await runCli(['claude-code'], { cwd: ws, env, stdin: event('PreToolUse') });
  expect(pre.code).toBe(0);
  const line = JSON.parse(pre.stdout).hookSpecificOutput?.updatedInput?.command ?? command;
  try {
    execFileSync('bash', ['-c', line], { cwd: ws, stdio: 'pipe' });
  } catch {
    // What failed still changed what it changed.
  }
  const post = await runCli(['claude-code'], { cwd: ws, env, stdin: event('PostToolUse', { tool_response: { stdout: '' } }) });
  expect(post.code).toBe(0);
  return post.stdout === '' ? {} : JSON.parse(post.stdout);
}

describe('hookwise undo, timeline and diff after a step through the Claude Code drop-in', () => {
  it('a loss is told, listed, shown and undone, byte for byte', async () => {
    const before = fingerprint(ws);
    const command = `: > notes.md && perl -e 'unlink "tracked.txt", "src/util.ts", ".git/refs/stash"'`;
    const answer = await bashStep(command, 'one');
    const told =
      /step 1 deleted or emptied 2 files that git cannot restore \(notes\.md, tracked\.txt\) and changed the repository's own files in \.git outside git.*hookwise undo/;
    expect(answer.systemMessage).toMatch(told);
    expect(answer.hookSpecificOutput.additionalContext).toMatch(told);

    const timeline = await runCli(['timeline'], { cwd: path.join(ws, 'empty') });
    expect(timeline.stdout).toMatch(/^ {3}1 .* Bash {8}: > notes\.md && perl -e 'unlink .*\[\+0 ~1 -3, .*\] {2}LOST 2/m);
    const diff = await runCli(['diff', '1'], { cwd: ws });
    // Committed as it is: `git checkout` gives it back, so it is not counted lost.
    expect(diff.stdout).toContain('deleted src/util.ts  (23 B)\n');
    expect(diff.stdout).toContain('deleted tracked.txt  (36 B)  lost: git cannot restore it');
    expect(diff.stdout).toContain('changed notes.md  (25 -> 0 B)  lost: git cannot restore it');
    expect(diff.stdout).toContain('deleted .git/refs/stash');

    const undo = await runCli(['undo'], { cwd: ws });
    expect(undo.stderr).toBe('');
    expect(undo.stdout).toMatch(/^undid step 1: \+3 ~1 -0, .* \(this undo is step 2: `hookwise undo --to 2` redoes it\)\n$/);
    expect(fingerprint(ws)).toBe(before);
    expect(execFileSync('git', ['stash', 'list'], { cwd: ws }).toString()).toContain('stash@{0}');
  });

  it('refuses to overwrite what changed outside the agent since its last step, until --force', async () => {
    await bashStep(`perl -e 'unlink "run.sh"'`, 'two');
    writeFileSync(path.join(ws, 'tracked.txt'), 'typed by the user afterwards\n');
    const refused = await runCli(['undo'], { cwd: ws });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /changed after step 3 outside the agent's steps; undo would overwrite:\n {2}changed tracked\.txt\n.*--force/,
    );
    expect(readFileSync(path.join(ws, 'tracked.txt'), 'utf8')).toBe('typed by the user afterwards\n');
    const forced = await runCli(['undo', '--force'], { cwd: ws });
    expect(forced.code).toBe(0);
    expect(readFileSync(path.join(ws, 'run.sh'), 'utf8')).toBe('#!/bin/sh\necho run\n');
  });

  it('names a step that is not there and a bad number', async () => {
    const missing = await runCli(['undo', '--to', '42'], { cwd: ws });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no step 42 here \(kept: steps 1-\d+; `hookwise timeline` lists them\)/);
    const bad = await runCli(['diff', 'x'], { cwd: ws });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/a step is a whole number from 1/);
  });
});
